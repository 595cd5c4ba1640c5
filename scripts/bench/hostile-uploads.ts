// Hostile uploads against a real `dealgraph serve` (issue 22): for each hostile file, from the moment
// it is sent until the server has refused it or finished its run, the worst /healthz latency seen
// from outside (probes back to back, 25 ms apart) and the server's peak resident memory, against an
// idle baseline measured in the same run (the same probe and sampler on the same server, idle for
// a few seconds). The document readers' and LibreOffice's peak (the server's child processes) is
// shown beside it: that is where the work goes now. No assertions: figures only.
//
//   bun scripts/bench/hostile-uploads.ts [--binary dist/dealgraph] [--only NAME-SUBSTRING] [--idle-seconds 3]
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  docxBillionLaughs,
  docxDeepNesting,
  docxLyingDirectory,
  docxOverlappingEntries,
  jsonDeepNesting,
  pdfDeepNesting,
  pdfMalformedFont,
  pdfPageBomb,
  pdfStreamBomb,
  pptxManySlides,
  xlsxLyingDirectory,
} from "../lib/hostile-files.ts";
import { addToDataRoom, probeHealth, sampleRss, serveOnDataDir, serverRss, stopServed, uploadDeck, waitForAnalysis, type Served } from "../lib/hostile-server.ts";
import { calendarBomb, syncCalendarBomb } from "../lib/hostile-calendars.ts";
import { deckPdf, generateDeals, longDeck } from "../../src/demo/decks.ts";

const { values: opts } = parseArgs({ options: { binary: { type: "string" }, only: { type: "string" }, "idle-seconds": { type: "string" } } });
const idleMs = Number(opts["idle-seconds"] ?? 3) * 1000;

type Outcome = string;
type Case = { name: string; bytes: () => Uint8Array | Promise<Uint8Array>; send: (s: Served, bytes: Uint8Array) => Promise<Outcome> };

let counter = 0;
const short = (text: string | null | undefined) => (text ?? "").replace(/^[^:]+: /, "").slice(0, 70);

/** The deck door: the 202 and the run's end, or the refusal. */
const deck = (filename: string) => async (s: Served, bytes: Uint8Array) => {
  const res = await uploadDeck(s, bytes, filename, `Bench ${++counter}`);
  const body = (await res.json()) as { deal_id?: string; detail?: unknown };
  if (res.status !== 202) return `${res.status} ${short(Array.isArray(body.detail) ? body.detail[0].msg : String(body.detail))}`;
  const run = await waitForAnalysis(s, body.deal_id!);
  return `run ${run.status}${run.error ? `: ${short(run.error)}` : ""}`;
};

let roomDeal: string | null = null;
/** The data room of one deal made for it (with a small readable deck first). */
const room = (filename: string) => async (s: Served, bytes: Uint8Array) => {
  const res = await addToDataRoom(s, roomDeal!, [[bytes, filename]]);
  if (res.status !== 202) return `${res.status} ${short(JSON.stringify(((await res.json()) as { detail: unknown }).detail))}`;
  const run = await waitForAnalysis(s, roomDeal!);
  return `run ${run.status}${run.error ? `: ${short(run.error.replace(/^.*could not be read[^:]*: /, ""))}` : ""}`;
};

const CASES: Case[] = [
  { name: "PDF, 30-page deck (ordinary work, for scale)", bytes: () => deckPdf(longDeck(generateDeals({ seed: 7, companies: 1, funds: 0 })[0], 30)), send: deck("deck30.pdf") },
  { name: "PDF, 10,000 tiny pages", bytes: () => pdfPageBomb(10_000), send: deck("pages10k.pdf") },
  { name: "PDF, 20,000 tiny pages", bytes: () => pdfPageBomb(20_000), send: deck("pages20k.pdf") },
  { name: "PDF, 500 tiny pages (the cap)", bytes: () => pdfPageBomb(500), send: deck("pages500.pdf") },
  { name: "PDF, content stream inflating to 1 GB", bytes: () => pdfStreamBomb(1024), send: deck("stream.pdf") },
  { name: "PDF, arrays nested 100,000 deep", bytes: () => pdfDeepNesting(100_000), send: deck("nested.pdf") },
  { name: "PDF, malformed embedded font", bytes: () => pdfMalformedFont(), send: deck("font.pdf") },
  { name: "DOCX, 2 GB declared as 1,000 bytes (door)", bytes: () => docxLyingDirectory(2048), send: deck("liar.docx") },
  { name: "DOCX, 2 GB declared as 1,000 bytes (data room)", bytes: () => docxLyingDirectory(2048), send: room("liar.docx") },
  { name: "XLSX, 2 GB declared as 1,000 bytes (data room)", bytes: () => xlsxLyingDirectory(2048), send: room("model.xlsx") },
  { name: "DOCX, one stream listed 1,000 times (door)", bytes: () => docxOverlappingEntries(16, 1000), send: deck("overlap.docx") },
  { name: "PPTX, 600 slides (door)", bytes: () => pptxManySlides(600), send: deck("slides.pptx") },
  { name: "DOCX, billion laughs (data room, XML)", bytes: () => docxBillionLaughs(), send: room("laughs.docx") },
  { name: "DOCX, billion laughs (deck, LibreOffice)", bytes: () => docxBillionLaughs(), send: deck("laughs.docx") },
  { name: "DOCX, paragraphs nested 200,000 deep (data room)", bytes: () => docxDeepNesting(200_000), send: room("nested.docx") },
  {
    name: "JSON, arrays nested 100,000 deep (REST body)",
    bytes: () => new TextEncoder().encode(jsonDeepNesting(100_000)),
    send: async (s, bytes) => {
      const res = await fetch(`${s.url}/api/v1/deals/analyze`, { method: "POST", headers: { authorization: `Bearer ${s.key.secret}`, "content-type": "application/json" }, body: bytes });
      return `${res.status}`;
    },
  },
  // Issue 27, finding 1: five daily series since 1973 (~98,000 occurrences up to now), connected as a
  // subscription on the Connections page; from the connect to the end of the server's first sync.
  { name: "ICS, 1 KB of daily series since 1973 (subscription sync)", bytes: () => new TextEncoder().encode(calendarBomb("ops@hostile.test")), send: syncCalendarBomb },
  // Issue 27, finding 2: two 3-page scanned decks (OCR) from this org while another org's small text
  // deck is analysed: that deck's time from upload to its analysis, alone and during the OCR (the
  // pre-fix server took it from about 1 s to 70-80 s), and the scanned decks' outcome.
  {
    name: "OCR, 2 scanned 3-page decks vs another org's small deck",
    bytes: async () => {
      const { imageOnlyPdf, libreOfficePdf } = await import("../../test/helpers/ocr-decks.ts");
      const slides = [["Lumora", "Treasury automation for mid-market CFOs"], ["Team", "Anna Keller, CEO, ex-Google."], ["The ask", "Raising EUR 4.5 million, Seed."]];
      return imageOnlyPdf(await libreOfficePdf(slides));
    },
    send: async (s, scanned) => {
      const { org_id } = await s.cli<{ org_id: string }>("admin", "org", "create", "--name", "Other Org", "--json");
      const { user_id } = await s.cli<{ user_id: string }>("admin", "user", "create", "--org", org_id, "--email", `other${Date.now()}@other.test`, "--name", "Other", "--json");
      const other = await s.cli<{ secret: string }>("admin", "key", "create", "--user", user_id, "--scope", "write", "--daily-actions", "1000", "--json");
      const small = await deckPdf(longDeck(generateDeals({ seed: 11, companies: 1, funds: 0 })[0], 3));
      const otherDeck = async () => {
        const t0 = performance.now();
        const res = await uploadDeck(s, small, "small.pdf", `Other ${++counter}`, other.secret);
        const run = await waitForAnalysis(s, ((await res.json()) as { deal_id: string }).deal_id, other.secret);
        return { seconds: (performance.now() - t0) / 1000, status: run.status };
      };
      const alone = await otherDeck();
      const scannedRuns = await Promise.all([1, 2].map(async () => ((await (await uploadDeck(s, scanned, "scanned.pdf", `Scanned ${++counter}`)).json()) as { deal_id: string }).deal_id));
      await Bun.sleep(1500); // the OCR under way
      const during = await otherDeck();
      const ends = await Promise.all(scannedRuns.map((id) => waitForAnalysis(s, id)));
      return `other org's deck ${alone.seconds.toFixed(1)} s alone, ${during.seconds.toFixed(1)} s during the OCR (${during.status}); scanned: ${ends.map((e) => e.status).join(", ")}`;
    },
  },
];

// /healthz probed from a worker thread: its own event loop, so what this process does meanwhile
// (the RSS sampler's walk over /proc every 50 ms, uploads, polling) never delays a probe's answer
// being seen. The in-process probe (probeHealth) is kept beside it: the gap between the two is the
// bench's own share of the worst figure.
const PROBE_WORKER = `
let running = true;
const latencies = [];
let failures = 0;
self.onmessage = (e) => {
  if (e.data.start) {
    (async () => {
      while (running) {
        const t = performance.now();
        try {
          const res = await fetch(e.data.start + "/healthz");
          await res.arrayBuffer();
          if (res.status !== 200) failures++;
        } catch {
          failures++;
        }
        latencies.push(performance.now() - t);
        await Bun.sleep(25);
      }
      postMessage({ latencies, failures });
    })();
  } else running = false;
};`;
type Probed = { samples: number; failures: number; maxMs: number; p50Ms: number; p99Ms: number };
function probeHealthOffThread(url: string) {
  const src = URL.createObjectURL(new Blob([PROBE_WORKER], { type: "application/javascript" }));
  const worker = new Worker(src);
  const done = new Promise<Probed>((resolve) => {
    worker.onmessage = (e: MessageEvent<{ latencies: number[]; failures: number }>) => {
      const sorted = [...e.data.latencies].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
      resolve({ samples: sorted.length, failures: e.data.failures, maxMs: sorted.at(-1) ?? 0, p50Ms: at(0.5), p99Ms: at(0.99) });
      worker.terminate();
      URL.revokeObjectURL(src);
    };
  });
  worker.postMessage({ start: url });
  return { stop: () => (worker.postMessage({ stop: true }), done) };
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const ms = (n: number) => n.toFixed(0);
/** The database and its WAL, in bytes (the calendar bomb's growth). */
const dbBytes = (dir: string) => ["dealgraph.db", "dealgraph.db-wal"].reduce((n, f) => n + (existsSync(join(dir, f)) ? statSync(join(dir, f)).size : 0), 0);

const dataDir = mkdtempSync(join(tmpdir(), "dealgraph-bench-hostile-"));
const served = await serveOnDataDir(dataDir, { binary: opts.binary });
try {
  console.log(`hostile uploads: ${opts.binary ? `binary ${opts.binary}` : "bun src/main.ts serve"} on ${served.url}, bun ${Bun.version}`);
  // A deal for the data-room cases, and one warm-up read so the first case does not pay for it.
  const first = await uploadDeck(served, await deckPdf(longDeck(generateDeals({ seed: 3, companies: 1, funds: 0 })[0], 5)), "warm.pdf", "Bench data room");
  roomDeal = ((await first.json()) as { deal_id: string }).deal_id;
  await waitForAnalysis(served, roomDeal);

  const idleProbe = probeHealth(served.url);
  const idleOff = probeHealthOffThread(served.url);
  const idleRss = sampleRss(served.child.pid);
  await Bun.sleep(idleMs);
  const idle = await idleProbe.stop();
  const idleOffThread = await idleOff.stop();
  const idleMem = idleRss.stop();
  console.log(
    `idle baseline (${idleMs / 1000} s): /healthz worst ${ms(idle.maxMs)} ms, p50 ${idle.p50Ms.toFixed(1)} ms (${idle.samples} probes); from a worker thread worst ${ms(idleOffThread.maxMs)} ms, p99 ${ms(idleOffThread.p99Ms)} ms; server RSS peak ${mb(idleMem.serverPeakBytes)} MB; load average ${loadavg()[0].toFixed(1)} on ${navigator.hardwareConcurrency} CPUs`,
  );
  console.log("");
  const header = ["hostile input", "size", "outcome", "time s", "/healthz worst ms", "x idle", "p99 ms", "worker: worst ms", "x idle", "p99 ms", "server RSS MB", "x idle", "children RSS MB", "db growth MB"];
  const rows: string[][] = [];
  for (const c of CASES) {
    if (opts.only && !c.name.toLowerCase().includes(opts.only.toLowerCase())) continue;
    const bytes = await c.bytes();
    const before = serverRss(served.child.pid);
    const probe = probeHealth(served.url);
    const off = probeHealthOffThread(served.url);
    const dbBefore = dbBytes(served.dataDir);
    const rss = sampleRss(served.child.pid);
    const started = performance.now();
    let outcome: string;
    try {
      outcome = await c.send(served, bytes);
    } catch (error) {
      outcome = `error: ${(error as Error).message}`;
    }
    const seconds = (performance.now() - started) / 1000;
    const health = await probe.stop();
    const offThread = await off.stop();
    const mem = rss.stop();
    rows.push([
      c.name,
      `${(bytes.byteLength / 1024).toFixed(0)} KB`,
      outcome,
      seconds.toFixed(1),
      ms(health.maxMs),
      (health.maxMs / Math.max(idle.maxMs, 1)).toFixed(1),
      ms(health.p99Ms),
      ms(offThread.maxMs),
      (offThread.maxMs / Math.max(idleOffThread.maxMs, 1)).toFixed(1),
      ms(offThread.p99Ms),
      `${mb(mem.serverPeakBytes)} (from ${mb(before)})`,
      (mem.serverPeakBytes / idleMem.serverPeakBytes).toFixed(2),
      mb(mem.childrenPeakBytes),
      ((dbBytes(served.dataDir) - dbBefore) / 1024 / 1024).toFixed(1),
    ]);
    console.log(`  done: ${c.name}: ${outcome}`);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 || i === 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ");
  console.log("");
  console.log(line(header));
  for (const r of rows) console.log(line(r));
} finally {
  await stopServed(served);
  rmSync(dataDir, { recursive: true, force: true });
}
