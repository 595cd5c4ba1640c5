// The compiled binary on its own: dist/dealgraph (built when older than its inputs) copied alone
// into an empty temp dir (no checkout, no node_modules anywhere above it), started from there, and
// asked to do the three things that reach outside the JavaScript: sync a real Dovecot mailbox over
// IMAPS with a private CA (imapflow, and the logger it imports, inside the binary), convert a legacy
// PowerPoint file with LibreOffice, and OCR a deck of page images with Tesseract. It is what a new
// user does after `npm run build` on a fresh clone and copying the file to a server.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY, binaryStaleness, ROOT } from "../../scripts/build.ts";
import { Child, cleanEnv, run } from "../../scripts/lib/child-process.ts";
import { deckPptx, type DeckSpec } from "../../src/demo/decks.ts";
import { findLibreOffice } from "../../src/documents/convert.ts";
import { findTesseract } from "../../src/documents/ocr.ts";
import { LEDGERLY_DECK, uploadForm } from "../helpers/decks.ts";
import { message } from "../helpers/import-files.ts";
import { hasDovecot, startDovecot, writeCaFile, type Dovecot } from "../helpers/mail-servers.ts";
import { imageOnlyPdf, libreOfficePdf } from "../helpers/ocr-decks.ts";

const BUILD_TIMEOUT = 180_000;
const SERVE_START_TIMEOUT = 30_000;
// CI installs all three (.ci/run); elsewhere the test runs where they are.
const CI = process.env.CI === "1" || process.env.CI === "true";
const canRun = CI || (hasDovecot() && !!findLibreOffice() && !!findTesseract());

const ADA = { login: "ada@binary.vc", password: "An4lytical-engine" };
const tempDirs: string[] = [];
let dovecot: Dovecot | null = null;
let server: Child | null = null;
/** The empty folder the binary was copied into, and the copy. */
let home = "";
let binary = "";

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/** The copied binary with these arguments, from its own folder, with nothing of the caller's config. */
function dealgraph(args: string[], stdin?: string) {
  if (stdin === undefined) return run([binary, ...args, "--data-dir", join(home, "data")], { cwd: home, env: cleanEnv({ HOME: home }) });
  return (async () => {
    const proc = Bun.spawn([binary, ...args, "--data-dir", join(home, "data")], { cwd: home, env: cleanEnv({ HOME: home }), stdin: new TextEncoder().encode(stdin), stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, stdout, stderr };
  })();
}
const dealgraphJson = async <T>(...args: string[]): Promise<T> => {
  const r = await dealgraph([...args, "--json"]);
  if (r.code !== 0) throw new Error(`dealgraph ${args.join(" ")} exited with ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
};

beforeAll(async () => {
  if (!canRun) return;
  const stale = binaryStaleness();
  if (stale) {
    const r = await run([process.execPath, join(ROOT, "scripts", "build.ts"), "--no-smoke"], { cwd: ROOT, timeoutMs: BUILD_TIMEOUT - 5000 });
    if (r.code !== 0) throw new Error(`building ${BINARY} (${stale}) failed with exit code ${r.code}:\n${r.stdout}\n${r.stderr}`);
  }
  home = tempDir("dealgraph-anywhere-");
  binary = join(home, "dealgraph");
  copyFileSync(BINARY, binary);
  dovecot = await startDovecot({ users: [ADA], tls: true });
}, BUILD_TIMEOUT);

afterAll(async () => {
  await server?.stop();
  await dovecot?.close();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe.if(canRun)("the binary alone in an empty folder", () => {
  let orgId = "";
  let userId = "";

  test("it is the only file there, and it names no path of the checkout", async () => {
    expect(readdirSync(home)).toEqual(["dealgraph"]);
    const bytes = Buffer.from(await Bun.file(binary).arrayBuffer());
    expect(bytes.includes(`${ROOT}/`)).toBe(false);
    expect(bytes.includes("node_modules/pino/")).toBe(false);
    expect(bytes.includes("node_modules/thread-stream")).toBe(false);
  });

  test("syncs a real Dovecot mailbox over IMAPS (a private CA): connect, sync, every message counted", async () => {
    ({ org_id: orgId } = await dealgraphJson<{ org_id: string }>("admin", "org", "create", "--name", "Anywhere Capital"));
    ({ user_id: userId } = await dealgraphJson<{ user_id: string }>("admin", "user", "create", "--org", orgId, "--email", ADA.login, "--name", "Ada Anywhere"));
    const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().replace(/\.\d+Z$/, "Z");
    dovecot!.deliver(ADA.login, "INBOX", [
      message({ from: "Jane Doe <jane@target.com>", to: ADA.login, date: day(9), id: "anywhere-1@target.com", subject: "Seed round" }),
      message({ from: "Raj Patel <raj@target.com>", to: ADA.login, date: day(5), id: "anywhere-2@target.com", subject: "Intro" }),
    ]);
    dovecot!.deliver(ADA.login, "Sent", [message({ from: ADA.login, to: "Jane Doe <jane@target.com>", date: day(4), id: "anywhere-3@binary.vc", subject: "Re: Seed round" })]);
    const caFile = writeCaFile(tempDir("dealgraph-anywhere-ca-"));
    const set = await dealgraph(["admin", "mail-server", "set", "--org", orgId, "--imap", `127.0.0.1:${dovecot!.tlsPort}`, "--ca-file", caFile, "--json"]);
    expect(set.code, set.stderr).toBe(0);
    const connected = await dealgraph(["connect", "mail", "--user", userId, "--login", ADA.login, "--json"], `${ADA.password}\n`);
    expect(connected.code, connected.stderr).toBe(0);
    const connectionId = (JSON.parse(connected.stdout) as { connection_id: string }).connection_id;
    const synced = await dealgraph(["sync", "--user", userId, "--json"]);
    expect(synced.code, synced.stderr).toBe(0);
    expect(JSON.parse(synced.stdout)).toMatchObject({ connections: [{ connection_id: connectionId, messages_new: 3, duplicates: 0, status: "ok", error: null }] });
    // Nothing on stderr from the IMAP library's logger either.
    expect(synced.stderr).toBe("");
    const again = await dealgraph(["sync", "--user", userId, "--json"]);
    expect(JSON.parse(again.stdout)).toMatchObject({ connections: [{ messages_new: 0, status: "ok" }] });
  }, 60_000);

  describe("serving uploads", () => {
    let url = "";
    let auth: Record<string, string> = {};

    beforeAll(async () => {
      if (!userId) throw new Error("the mailbox test made the firm");
      const key = await dealgraphJson<{ secret: string }>("admin", "key", "create", "--user", userId, "--scope", "write");
      auth = { authorization: `Bearer ${key.secret}` };
      server = new Child([binary, "serve", "--port", "0", "--data-dir", join(home, "data")], { cwd: home, env: cleanEnv({ HOME: home }) });
      url = (await server.waitForLine(/^Dealgraph listening on (http:\/\/\S+)/, SERVE_START_TIMEOUT, "server URL"))[1];
    }, SERVE_START_TIMEOUT + 5000);

    async function analysed(bytes: Uint8Array, filename: string) {
      const res = await fetch(`${url}/api/v1/deals/analyze/upload`, { method: "POST", headers: auth, body: uploadForm(bytes, filename) });
      expect(res.status, await res.clone().text()).toBe(202);
      const { deal_id } = (await res.json()) as { deal_id: string };
      for (let i = 0; i < 1200; i++) {
        const s = (await (await fetch(`${url}/api/v1/deals/${deal_id}/analysis`, { headers: auth })).json()) as { status: string; error: string | null };
        if (s.status === "failed") throw new Error(`the analysis of ${filename} failed: ${s.error}\n${server!.describe()}`);
        if (s.status === "succeeded") break;
        await Bun.sleep(100);
      }
      const deal = (await (await fetch(`${url}/api/v1/deals/${deal_id}?view=full`, { headers: auth })).json()) as any;
      const documents = ((await (await fetch(`${url}/api/v1/deals/${deal_id}/documents`, { headers: auth })).json()) as any).documents;
      return { deal, documents };
    }

    test("readyz finds LibreOffice and Tesseract from the binary", async () => {
      const ready = (await (await fetch(`${url}/readyz`)).json()) as { checks: Record<string, { status: string }> };
      expect(ready.checks.tesseract.status).toBe("ok");
      expect(ready.checks.libreoffice.status).toBe("ok");
    });

    test("converts a legacy PowerPoint 97 deck with LibreOffice and reads it, a page per slide", async () => {
      const work = tempDir("dealgraph-anywhere-ppt-");
      const spec: DeckSpec = {
        slug: "ledgerly", name: "Ledgerly", domain: "ledgerly.io", kind: "company", richness: "rich", format: "pptx", pipeline: "new", daysAgo: 1,
        slides: LEDGERLY_DECK.map((text) => {
          const [title, ...rest] = text.split(". ");
          return { title, lines: [rest.join(". ")] };
        }),
      };
      writeFileSync(join(work, "deck.pptx"), deckPptx(spec));
      const made = Bun.spawn([findLibreOffice()!, `-env:UserInstallation=file://${work}/profile`, "--headless", "--convert-to", "ppt", "--outdir", work, join(work, "deck.pptx")], {
        stdout: "ignore",
        stderr: "ignore",
        env: { ...process.env, HOME: work },
      });
      expect(await made.exited).toBe(0);
      const ppt = new Uint8Array(await Bun.file(join(work, "deck.ppt")).arrayBuffer());
      const { deal, documents } = await analysed(ppt, "Ledgerly deck.ppt");
      expect(documents[0]).toMatchObject({ filename: "Ledgerly deck.ppt", content_type: "application/vnd.ms-powerpoint", status: "extracted", page_count: LEDGERLY_DECK.length });
      expect(deal.round).toMatchObject({ stage: "seed", amount: 4_000_000, currency: "USD" });
      expect(deal.analysis.sections.find((s: any) => s.key === "traction").evidence[0]).toMatchObject({ document_id: documents[0].document_id, page: 3 });
    }, 240_000);

    test("OCRs a deck of page images with Tesseract, evidence quoted with its page", async () => {
      const deck = await imageOnlyPdf(
        await libreOfficePdf([
          ["Lumora", "Treasury automation for mid-market CFOs"],
          ["Team", "Anna Keller, CEO and co-founder, ex-Google.", "Jonas Berg, CTO, previously at SAP."],
          ["The ask", "We are raising EUR 4.5 million in a Seed round.", "Use of funds: 60% engineering, 40% sales."],
        ]),
      );
      const { deal, documents } = await analysed(deck, "lumora.pdf");
      expect(documents[0]).toMatchObject({ status: "extracted", page_count: 3 });
      expect(deal.company.name).toBe("Lumora");
      expect(deal.round).toMatchObject({ stage: "seed", amount: 4_500_000, currency: "EUR" });
      const round = deal.analysis.sections.find((s: any) => s.key === "round");
      expect(round.evidence[0]).toMatchObject({ quote: "We are raising EUR 4.5 million in a Seed round.", page: 3 });
    }, 240_000);
  });
});
