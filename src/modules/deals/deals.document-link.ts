// Reading a hosted document link: fetch what the public link allows (through safe-fetch), keep a
// downloaded file as the deal's document, or read the viewer page's text; a gate (email or
// password) or a refusal ends the run with an error that says exactly that.
import { basename } from "node:path";
import type { Deps } from "../../deps.ts";
import type { SourcePage } from "../../engines/deal-engine.ts";
import { safeFetch } from "../../http/safe-fetch.ts";
import { blobPath } from "../../lib/blobs.ts";
import { newId } from "../../lib/ids.ts";
import { RunError } from "../actions/runner.ts";
import { ConversionError } from "../documents/convert.ts";
import { extractPages, ExtractionError } from "../documents/extract.ts";
import { CONTENT_TYPES, detectFileKind, isOffice } from "../documents/file-type.ts";
import { looksGated, recognizeHost } from "../documents/hosts.ts";
import { htmlToText } from "../documents/html-text.ts";
import { describeFetchFailure } from "./deals.website.ts";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";

const MAX_BYTES = 50 * 1024 * 1024;

function filenameOf(headers: Headers, url: string, fallback: string): string {
  const cd = headers.get("content-disposition") ?? "";
  const m = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(cd);
  if (m) return decodeURIComponent(m[1]).slice(0, 200);
  const last = basename(new URL(url).pathname);
  return last && last.includes(".") ? last.slice(0, 200) : fallback;
}

export async function readDocumentLink(deps: Deps, deal: { id: string; org_id: string }, url: string): Promise<SourcePage[]> {
  const link = recognizeHost(url);
  let res;
  try {
    res = await safeFetch(link.fetchUrl, {
      allowPrivate: deps.config.allowPrivateNetwork,
      requireHttps: false,
      followRedirects: 5,
      timeoutMs: 30_000,
      maxBytes: MAX_BYTES,
      headers: { "user-agent": "Dealgraph/1.0 (+self-hosted deal analysis)" },
    });
  } catch (error) {
    throw new RunError(`${link.label}: ${describeFetchFailure(url, error)}`);
  }
  if (res.status === 401 || res.status === 403) {
    throw new RunError(`${link.label} refused the link (HTTP ${res.status}): it is not shared publicly; share it publicly or upload the file`);
  }
  if (res.status === 404 || res.status === 410) throw new RunError(`${link.label} says the link does not exist (HTTP ${res.status})`);
  if (res.status >= 400) throw new RunError(`${link.label} answered HTTP ${res.status} for the link`);
  if (res.truncated) throw new RunError(`${link.label}: the document is larger than 50 MB`);

  const kind = detectFileKind(res.body, filenameOf(res.headers, res.url, "document"));
  if (kind === "pdf" || isOffice(kind)) {
    const sha256 = new Bun.CryptoHasher("sha256").update(res.body).digest("hex");
    const path = blobPath(deps.config.dataDir, sha256);
    mkdirSync(dirname(path), { recursive: true });
    await Bun.write(path, res.body);
    const filename = filenameOf(res.headers, res.url, kind === "pdf" ? "document.pdf" : `document.${kind}`);
    const documentId = newId();
    deps.db.$client
      .query(
        `INSERT INTO deal_documents (id, org_id, deal_id, filename, kind, content_type, size_bytes, sha256, status, uploaded_at)
         VALUES (?, ?, ?, ?, 'primary_upload', ?, ?, ?, 'received', ?)`,
      )
      .run(documentId, deal.org_id, deal.id, filename, CONTENT_TYPES[kind], res.body.byteLength, sha256, deps.clock.now().toISOString());
    let texts: string[];
    try {
      texts = await extractPages(path, kind);
    } catch (error) {
      deps.db.$client.query("UPDATE deal_documents SET status = 'failed' WHERE id = ?").run(documentId);
      if (error instanceof ConversionError || error instanceof ExtractionError) throw new RunError(`${filename}: ${error.message}`);
      throw error;
    }
    deps.db.$client.query("UPDATE deal_documents SET pages = ?, page_count = ?, status = 'extracted' WHERE id = ?").run(JSON.stringify(texts), texts.length, documentId);
    return texts.map((text, i) => ({ documentId, url: null, page: i + 1, text }));
  }

  const type = res.headers.get("content-type") ?? "";
  if (/html/i.test(type) || kind === "text") {
    const html = new TextDecoder().decode(res.body);
    const gate = looksGated(html);
    if (gate) {
      throw new RunError(
        gate === "email"
          ? `${link.label} asks for an email address before showing the document: resubmit with document_email (and document_password if it has one)`
          : `${link.label} asks for a password before showing the document: resubmit with document_password`,
      );
    }
    const text = /html/i.test(type) ? htmlToText(html) : html;
    if (text.length < 40) throw new RunError(`${link.label} showed no readable text for the link (it may need a browser or a sign-in)`);
    return [{ documentId: null, url: res.url, page: null, text }];
  }
  throw new RunError(`${link.label} served a file that is not a PDF, Office document or page (${type || "unknown type"})`);
}
