// Reading a hosted document link in a run: the host family's adapter fetches what the public link
// allows (through safe-fetch, every hop checked), with the submission's email and password for a
// gate and, after an email verification, the verification link and the host's cookies. A file
// becomes the deal's one link document (kept idempotent: a recovered run reuses its row); a page
// is read as text. Every refusal ends the run with an error naming the host and the reason.
import { join } from "node:path";
import type { Deps } from "../../deps.ts";
import type { SourcePage } from "../../engines/deal-engine.ts";
import { SafeFetchError } from "../../lib/safe-fetch.ts";
import { adoptBlob, tempDir } from "../../lib/blobs.ts";
import { newId } from "../../lib/ids.ts";
import type { Run } from "../actions/actions.service.ts";
import { RunError } from "../../lib/run-error.ts";
import { ConversionError, conversionOptions } from "../../documents/convert.ts";
import { extractPages, ExtractionError } from "../../documents/extract.ts";
import { CONTENT_TYPES } from "../../documents/file-type.ts";
import { fetchHostedDocument, type FetchContext, type HostedDocument } from "../../documents/hosts.adapters.ts";
import { VerificationPending, type Credentials } from "../../documents/hosts.gates.ts";
import { HostSession, type StoredCookie } from "../../documents/hosts.session.ts";
import { HostError, recognizeHost, type HostedLink } from "../../documents/hosts.ts";
import type { DealDocumentRow } from "./deals.queries.ts";
import { describeFetchFailure } from "./deals.website.ts";

/** What a document-link run keeps while it waits for an email verification (in its input, under `gate`). */
export type GateState = {
  claimed_at?: string;
  opened_at?: string;
  outcome?: "open" | "verification_sent";
  cookies_sealed?: string;
  verification_url_sealed?: string;
  verified_at?: string;
  /** Whether the key user was mailed what to do (no connected mailbox), or why not. */
  request?: { sent_to: string; sent_at: string } | { not_sent: string };
};

export type LinkInput = {
  document_url: string;
  document_email?: string | null;
  document_password_sealed?: string | null;
  gate?: GateState;
};

/** The secret-box context of a submission's document_password. */
export const PASSWORD_CONTEXT = "deal-document-password";
const cookieContext = (runId: string) => `deal-document-gate:${runId}`;
const verificationContext = (runId: string) => `deal-document-verification:${runId}`;

/** A browser-like session for one run's visit to the host, with the cookies it kept while waiting. */
export async function linkContext(deps: Deps, run: Pick<Run, "id" | "input">, signal?: AbortSignal): Promise<FetchContext & { verificationUrl: string | null }> {
  const input = run.input as LinkInput;
  const box = deps.secrets.box;
  const cookies: StoredCookie[] = input.gate?.cookies_sealed ? JSON.parse(await box.decrypt(input.gate.cookies_sealed, cookieContext(run.id))) : [];
  const credentials: Credentials = {
    email: input.document_email ?? null,
    password: input.document_password_sealed ? await box.decrypt(input.document_password_sealed, PASSWORD_CONTEXT) : null,
  };
  const session = new HostSession({
    outbound: deps.outbound,
    allowPrivate: deps.config.allowPrivateNetwork,
    deadlineMs: 60_000,
    maxBytes: 5 * 1024 * 1024,
    maxRequests: 24,
    now: () => deps.clock.now(),
    cookies,
    signal,
  });
  const verificationUrl = input.gate?.verification_url_sealed ? await box.decrypt(input.gate.verification_url_sealed, verificationContext(run.id)) : null;
  return { session, link: recognizeHost(input.document_url), credentials, verificationUrl };
}

/** The verification link opens the document once followed: kept sealed like the password. */
export async function sealVerificationUrl(deps: Deps, runId: string, url: string): Promise<string> {
  return deps.secrets.box.encrypt(url, verificationContext(runId));
}

/** The host's cookies, sealed for the run's input (they open the document: as secret as a password). */
export async function sealCookies(deps: Deps, runId: string, session: HostSession): Promise<string> {
  return deps.secrets.box.encrypt(JSON.stringify(session.cookies()), cookieContext(runId));
}

/** A failure of the visit, in the words the run's `error` uses. */
export function linkFailure(link: HostedLink, url: string, error: unknown): Error {
  if (error instanceof HostError) return new RunError(error.message);
  if (error instanceof VerificationPending) {
    const next =
      link.family === "docsend"
        ? "submit the link again with document_email, and the verification link to POST /api/v1/deals/{deal_id}/verification"
        : "only DocSend links wait for email verification: upload the file instead";
    return new RunError(`${link.label} emailed a verification link to ${error.email} before showing the document; ${next}`);
  }
  if (error instanceof SafeFetchError) return new RunError(`${link.label}: ${describeFetchFailure(url, error)}`);
  return error as Error;
}

type LinkDocument = Pick<DealDocumentRow, "id" | "sha256" | "status" | "pages">;

export type LinkReadOptions = {
  /** Aborts the visit (and a conversion) when the runner stops. */
  signal?: AbortSignal;
  /** LibreOffice's time limit for a PPT/DOC link document (the deal handler's own). */
  conversionTimeoutMs?: number;
};

export async function readDocumentLink(
  deps: Deps,
  deal: { id: string; org_id: string },
  url: string,
  run?: Pick<Run, "id" | "input">,
  opts: LinkReadOptions = {},
): Promise<SourcePage[]> {
  const ctx = await linkContext(deps, run ?? { id: "", input: { document_url: url } }, opts.signal);
  let doc: HostedDocument;
  try {
    doc = await fetchHostedDocument(ctx);
  } catch (error) {
    throw linkFailure(ctx.link, url, error);
  }
  if (doc.kind === "page") return [{ documentId: null, url: doc.url, page: null, text: doc.text }];
  return storeAndExtract(deps, deal, doc, opts);
}

/**
 * The deal's link document: one row per deal, reused when the run is recovered after a crash (the
 * same bytes keep their extracted pages; changed bytes replace the row's file and pages).
 */
async function storeAndExtract(deps: Deps, deal: { id: string; org_id: string }, doc: Extract<HostedDocument, { kind: "file" }>, opts: LinkReadOptions): Promise<SourcePage[]> {
  const sqlite = deps.db.$client;
  const sha256 = new Bun.CryptoHasher("sha256").update(doc.body).digest("hex");
  // Written beside the store, then moved in whole under its hash (or dropped when those bytes are
  // stored already): a blob under a valid hash is never rewritten in place, and a crash mid-write
  // leaves a temp file the document-conversion job removes, never a truncated blob.
  const temp = join(tempDir(deps.config.dataDir), `upload-link-${newId()}`);
  await Bun.write(temp, doc.body);
  const path = adoptBlob(deps.config.dataDir, temp, sha256);
  const now = deps.clock.now().toISOString();
  const existing = sqlite
    .query<LinkDocument, [string]>("SELECT id, sha256, status, pages FROM deal_documents WHERE deal_id = ? AND kind = 'primary_upload' ORDER BY uploaded_at, id LIMIT 1")
    .get(deal.id);
  let documentId: string;
  if (existing && existing.sha256 === sha256 && existing.status === "extracted" && existing.pages) {
    const texts: string[] = JSON.parse(existing.pages);
    return texts.map((text, i) => ({ documentId: existing.id, url: null, page: i + 1, text }));
  } else if (existing) {
    documentId = existing.id;
    sqlite
      .query("UPDATE deal_documents SET filename = ?, content_type = ?, size_bytes = ?, sha256 = ?, status = 'received', pages = NULL, page_count = NULL, uploaded_at = ? WHERE id = ?")
      .run(doc.filename, CONTENT_TYPES[doc.fileKind], doc.body.byteLength, sha256, now, documentId);
  } else {
    documentId = newId();
    sqlite
      .query(
        `INSERT INTO deal_documents (id, org_id, deal_id, filename, kind, content_type, size_bytes, sha256, status, uploaded_at)
         VALUES (?, ?, ?, ?, 'primary_upload', ?, ?, ?, 'received', ?)`,
      )
      .run(documentId, deal.org_id, deal.id, doc.filename, CONTENT_TYPES[doc.fileKind], doc.body.byteLength, sha256, now);
  }
  let texts: string[];
  try {
    texts = await extractPages(path, doc.fileKind, "pdf", conversionOptions(deps.config.dataDir, opts.conversionTimeoutMs));
  } catch (error) {
    sqlite.query("UPDATE deal_documents SET status = 'failed' WHERE id = ?").run(documentId);
    if (error instanceof ConversionError || error instanceof ExtractionError) throw new RunError(`${doc.filename}: ${error.message}`);
    throw error;
  }
  sqlite.query("UPDATE deal_documents SET pages = ?, page_count = ?, status = 'extracted' WHERE id = ?").run(JSON.stringify(texts), texts.length, documentId);
  return texts.map((text, i) => ({ documentId, url: null, page: i + 1, text }));
}
