// Issue 27, finding 2: one organization's OCR cannot starve another's analyses, and OCR is bounded.
//   - the runner is fair: a slot goes to the org with the fewest runs in flight (round-robin by
//     org, then user) and one org holds at most concurrency - 1 slots, so another org's run starts
//     at once however long the first one's queue;
//   - OCR per file: a file needing more pages than DEALGRAPH_OCR_PAGES_PER_UPLOAD, or more time
//     than DEALGRAPH_OCR_SECONDS_PER_UPLOAD, is refused with the reason in the analysis;
//   - OCR per organization per day: pages past DEALGRAPH_OCR_PAGES_PER_ORG_DAY are refused with
//     the reason, other organizations unaffected;
//   - the document children (where OCR runs) are shared the same way: one org's reads waiting for a
//     child never hold back another org's read.
import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { closeSync, constants, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runHandlers } from "../../jobs/index.ts";
import { findLibreOffice } from "../../src/documents/convert.ts";
import { findTesseract } from "../../src/documents/ocr.ts";
import { READ_COMMAND } from "../../src/documents/reader-child.ts";
import { OCR_CONCURRENCY, READ_LIMITS, readInChild } from "../../src/documents/reader.ts";
import { runChildJob } from "../../src/lib/child-job.ts";
import { runAsWork } from "../../src/lib/work-context.ts";
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

// Each read blocks on a named pipe until the test writes to it: a read has a child exactly when the
// pipe has a reader (opening it for writing without blocking succeeds), so which reads hold a child
// is seen, not guessed from timing.
describe.if(process.platform === "linux" && !!Bun.which("mkfifo"))("the document children are shared fairly between organizations", () => {
  test("org A's queue of reads does not hold back org B's read; A's next read runs when A's first ends", async () => {
    const dir = mkdtempSync(join(tmpdir(), "dealgraph-child-fairness-"));
    const pipes = new Map<string, string>();
    try {
      for (const name of ["a1", "a2", "a3", "b1"]) {
        const path = join(dir, name);
        expect(Bun.spawnSync(["mkfifo", "-m", "0666", path]).exitCode).toBe(0);
        pipes.set(name, path);
      }
      /** The pipe's writer end, when a child has it open for reading (else null). */
      const writerOf = (name: string): number | null => {
        try {
          return openSync(pipes.get(name)!, constants.O_WRONLY | constants.O_NONBLOCK);
        } catch {
          return null; // ENXIO: nobody reads it yet
        }
      };
      const waitForReader = async (name: string) => {
        for (let i = 0; i < 600; i++) {
          const fd = writerOf(name);
          if (fd !== null) return fd;
          await Bun.sleep(50);
        }
        throw new Error(`${name}: no child read it within 30 s`);
      };
      const finish = (fd: number, text: string) => {
        writeSync(fd, text);
        closeSync(fd);
      };
      const limits = { ...READ_LIMITS, timeoutMs: 120_000, maxOutputBytes: 1024 * 1024, concurrency: 2 };
      const read = (org: string, name: string) =>
        runAsWork({ tenant: org }, () => runChildJob<string[]>(READ_COMMAND, { op: "text", path: pipes.get(name)!, limits: { maxPages: 500, maxTextBytes: 1e6, zip: READ_LIMITS.zip } }, limits));
      // Two children at most; org A asks for three first, then org B for one.
      const a = ["a1", "a2", "a3"].map((n) => read("org-a", n));
      const a1 = await waitForReader("a1");
      const b = read("org-b", "b1");
      // B's read gets the second child while A's first still holds its own (A's share is one of two).
      const b1 = await waitForReader("b1");
      expect(writerOf("a2")).toBeNull();
      expect(writerOf("a3")).toBeNull();
      finish(b1, "from b1");
      expect(await b).toEqual(["from b1"]);
      finish(a1, "from a1");
      finish(await waitForReader("a2"), "from a2");
      finish(await waitForReader("a3"), "from a3");
      expect(await Promise.all(a)).toEqual([["from a1"], ["from a2"], ["from a3"]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
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

/** Tesseract runs (reading a page, not listing its languages) now below this process (from /proc: each one's parent, up to us). */
function tesseractsOfOurs(): number {
  const parent = new Map<number, number>();
  const names = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      names.set(Number(entry), stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")));
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // gone meanwhile
    }
  }
  const ours = (pid: number) => {
    for (let p = parent.get(pid), hops = 0; p && hops < 20; p = parent.get(p), hops++) if (p === process.pid) return true;
    return false;
  };
  const reading = (pid: number) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes("stdin");
    } catch {
      return false;
    }
  };
  return [...names].filter(([pid, name]) => name === "tesseract" && ours(pid) && reading(pid)).length;
}

// Issue 27, /healthz under OCR: on 2 cores two readers each ran Tesseract, and the server waited
// for a core. Tesseract runs now take a slot (a lock file each, flock) of every core but one.
describe.if(canRun && process.platform === "linux")("Tesseract runs across readers", () => {
  test("at most every core but one at once (one on 2 cores), whichever readers ask; each reader still reads its pages", async () => {
    const dir = mkdtempSync(join(tmpdir(), "dealgraph-ocr-slots-test-"));
    try {
      const path = join(dir, "scanned.pdf");
      writeFileSync(path, scanned!);
      let most = 0;
      const sampler = setInterval(() => (most = Math.max(most, tesseractsOfOurs())), 20);
      try {
        const reads = await Promise.all(["org-a", "org-b", "org-c"].map((tenant) => runAsWork({ tenant }, () => readInChild({ op: "pdf", path }))));
        for (const pages of reads) expect(pages.join("\n")).toContain("Lumora");
      } finally {
        clearInterval(sampler);
      }
      expect(most).toBeGreaterThan(0);
      expect(most).toBeLessThanOrEqual(OCR_CONCURRENCY);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});

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
    expect(status.error).toMatch(/OCR of the file took more than 0 s of processor time \(0 of its 3 pages without usable text read\), the most one file may take, so it was refused/);
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
