// Issue 27, finding 2: one organization's OCR cannot starve another's analyses, and OCR is bounded.
//   - the runner is fair: a slot goes to the org with the fewest runs in flight (round-robin by
//     org, then user) and one org holds at most concurrency - 1 slots, so another org's run starts
//     at once however long the first one's queue;
//   - OCR per file: a file needing more pages than DEALGRAPH_OCR_PAGES_PER_UPLOAD, or more time
//     than DEALGRAPH_OCR_SECONDS_PER_UPLOAD, is refused with the reason in the analysis;
//   - OCR per organization per day: pages past DEALGRAPH_OCR_PAGES_PER_ORG_DAY are refused with
//     the reason, other organizations unaffected.
import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { runHandlers } from "../../jobs/index.ts";
import { findLibreOffice } from "../../src/documents/convert.ts";
import { findTesseract } from "../../src/documents/ocr.ts";
import { actionsService } from "../../src/modules/actions/actions.service.ts";
import { ocrPagesToday } from "../../src/modules/actions/ocr-budget.ts";
import { startRunner, type Handler } from "../../src/modules/actions/runner.ts";
import type { Principal } from "../../src/modules/identity/auth.macro.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { uploadForm } from "../helpers/decks.ts";
import { seedIdentity, type Fixture } from "../helpers/fixtures.ts";
import { imageOnlyPdf, libreOfficePdf } from "../helpers/ocr-decks.ts";

let t: TestApp | null = null;
afterEach(() => {
  t?.close();
  t = null;
});

const KIND = { kind: "test_work", eventPrefix: "test.work", resultUrl: (id: string) => `/x/${id}` };

function principal(f: Fixture, who: "alice" | "bob" | "carol"): Principal {
  const u = f.users[who];
  return { keyId: `web:${u.id}`, budgetOwnerId: null, scope: "write", userId: u.id, userName: u.name, orgId: u.orgId!, dailyRequests: 1000, dailyActions: 1000 };
}

describe("the runner is fair between organizations and users", () => {
  test("org A's long queue does not hold back org B's run; a freed slot goes round-robin", async () => {
    t = createTestApp();
    const f = seedIdentity(t.deps);
    const actions = actionsService(t.deps);
    const started: string[] = [];
    const release = new Map<string, () => void>();
    const handler: Handler = async ({ run }) => {
      started.push(run.subjectId);
      await new Promise<void>((r) => release.set(run.subjectId, r));
    };
    const queue = (who: "alice" | "bob" | "carol", subject: string) => t!.deps.db.transaction(() => actions.dispatch(principal(f, who), KIND, subject, {}));
    // Org A (Acme: alice, bob) queues five, alice first; then org B (carol) queues one.
    for (const s of ["a1", "a2", "a3"]) queue("alice", s);
    for (const s of ["b1", "b2"]) queue("bob", s);
    queue("carol", "c1");
    const runner = startRunner(t.deps, new Map([[KIND.kind, handler]]), { concurrency: 2, pollMs: 60_000 });
    try {
      runner.pump();
      await Bun.sleep(20);
      // Two slots: one for Acme (its share with another org waiting), one for Carol's org at once.
      expect(started.sort()).toEqual(["a1", "c1"]);
      // Acme's next turn goes to bob (round-robin by user), not alice's second run.
      release.get("a1")!();
      await Bun.sleep(20);
      expect(started).toContain("b1");
      expect(started).not.toContain("a2");
    } finally {
      for (const r of release.values()) r();
      for (let i = 0; i < 10 && started.length < 6; i++) {
        for (const r of release.values()) r();
        await Bun.sleep(10);
      }
      for (const r of release.values()) r();
      await runner.stop();
    }
  });
});

// OCR needs Tesseract (and LibreOffice to make the scanned deck).
const canRun = !!findLibreOffice() && !!findTesseract();
let scanned: Uint8Array | null = null;
beforeAll(async () => {
  if (!canRun) return;
  const pdf = await libreOfficePdf([
    ["Lumora", "Treasury automation for mid-market CFOs"],
    ["Team", "Anna Keller, CEO and co-founder, ex-Google."],
    ["The ask", "We are raising EUR 4.5 million in a Seed round."],
  ]);
  scanned = await imageOnlyPdf(pdf);
}, 60_000);

async function analyseScanned(a: TestApp, secret: string, ocr: { pagesPerUpload: number; secondsPerUpload: number; pagesPerOrgDay: number }) {
  const res = await a.app.handle(new Request("http://localhost/api/v1/deals/analyze/upload", { method: "POST", body: uploadForm(scanned!, "deck.pdf"), headers: { authorization: `Bearer ${secret}` } }));
  expect(res.status).toBe(202);
  const { deal_id } = (await res.json()) as { deal_id: string };
  const runner = startRunner(a.deps, runHandlers(a.deps), { pollMs: 60_000, ocr });
  runner.pump();
  await runner.idle();
  await runner.stop();
  const read = await a.request("GET", `/api/v1/deals/${deal_id}/analysis`, { key: secret });
  if (read.status !== 200) throw new Error(`analysis read: ${read.status} ${JSON.stringify(read.json)}`);
  return read.json;
}

describe.if(canRun)("OCR bounds", () => {
  test("per file: more pages needing OCR than allowed is refused with the reason, nothing OCRed", async () => {
    t = createTestApp({ file: true });
    const f = seedIdentity(t.deps);
    const status = await analyseScanned(t, f.keys.write.secret, { pagesPerUpload: 2, secondsPerUpload: 180, pagesPerOrgDay: 300 });
    expect(status.status).toBe("failed");
    expect(status.error).toMatch(/^deck\.pdf: The file has 3 pages without usable text .* OCR reads at most 2 pages of one file, so it was refused/);
    expect(ocrPagesToday(t.deps, f.orgs.acme.id)).toBe(0);
  }, 60_000);

  test("per file: OCR past its time budget is stopped and refused with the reason", async () => {
    t = createTestApp({ file: true });
    const f = seedIdentity(t.deps);
    const status = await analyseScanned(t, f.keys.write.secret, { pagesPerUpload: 30, secondsPerUpload: 0, pagesPerOrgDay: 300 });
    expect(status.status).toBe("failed");
    expect(status.error).toMatch(/OCR of the file took longer than 0 s \(0 of its 3 pages without usable text read\), the most one file may take, so it was refused/);
  }, 60_000);

  test("per organization per day: past the bound refused with the reason; another org unaffected; within it read", async () => {
    t = createTestApp({ file: true });
    const f = seedIdentity(t.deps);
    const bounds = { pagesPerUpload: 30, secondsPerUpload: 180, pagesPerOrgDay: 4 };
    const first = await analyseScanned(t, f.keys.write.secret, bounds);
    expect(first.status).toBe("succeeded");
    expect(ocrPagesToday(t.deps, f.orgs.acme.id)).toBe(3);
    const second = await analyseScanned(t, f.keys.write.secret, bounds);
    expect(second.status).toBe("failed");
    expect(second.error).toMatch(/The file needs OCR on 3 pages .* your organization has 1 page of OCR left today \(at most 4 pages a day, DEALGRAPH_OCR_PAGES_PER_ORG_DAY\); it was not read/);
    expect(ocrPagesToday(t.deps, f.orgs.acme.id)).toBe(3);
    const other = await analyseScanned(t, f.keys.otherOrgWrite.secret, bounds);
    expect(other.status).toBe("succeeded");
  }, 120_000);
});
