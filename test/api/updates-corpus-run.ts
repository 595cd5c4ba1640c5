// Runs a part of the blind updates corpus (test/fixtures/updates-corpus/{dev,heldout}) through
// the real reader and scores it with the corpus's own judge (judge.ts: the one scorer). The demo
// firm and its book (the corpus was written against it: its partners forward, its holdings'
// domains send, its actuals are the "existing actuals"), every message imported as the lead
// partner, each message's figures read back as the API lists them. Only aggregate figures leave
// this file for the held-out part: its messages and labels stay unread by anyone tuning the reader.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { openDataDir } from "../../src/db/open.ts";
import { createDeps, type Deps } from "../../src/deps.ts";
import { generateFirm } from "../../src/demo/firm.ts";
import { loadFirm } from "../../src/demo/build.ts";
import { loadDemoBook } from "../../src/demo/load-book.ts";
import { silentLog } from "../../src/lib/log.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import { updatesService } from "../../src/modules/updates/updates.service.ts";
import { mboxMessages } from "../../src/cli/import-updates.ts";
import { judge, type Label, type Result } from "../fixtures/updates-corpus/judge.ts";
import { TestClock } from "../helpers/clock.ts";

export const CORPUS_DIR = join(import.meta.dir, "..", "fixtures", "updates-corpus");

export type Part = "dev" | "heldout";

/** A part read by the reader: per message what the judge takes, and the time it took against a bare MIME parse. */
export type PartRun = { part: Part; labels: Label[]; results: Result[]; seconds: number; baselineSeconds: number };

/** A part's score: the judge's figures (counts for its lists), and throughput. */
export type Summary = {
  part: Part;
  messages: number;
  precision: number;
  recall: number;
  applied: number;
  applied_correct: number;
  expected_applied: number;
  expected_applied_found: number;
  wrong_applied: number;
  traps_applied: number;
  ambiguous_expected: number;
  ambiguous_to_review: number;
  conflicts_expected: number;
  conflicts_to_review: number;
  non_updates_with_figures: number;
  results_missing: number;
  seconds: number;
  /** Messages through the reader (recognised, read, applied and committed) per second. */
  updates_per_second: number;
  /** The same messages' MIME parsed by postal-mime alone (their text, nothing read from it) per second. */
  baseline_per_second: number;
};

/** The messages of a part, in file order: .eml files and the messages of .mbox files ("file#n", the labels' keys). */
export function partMessages(dir: string): { key: string; raw: Buffer }[] {
  const out: { key: string; raw: Buffer }[] = [];
  for (const f of readdirSync(dir).sort()) {
    if (f.endsWith(".eml")) out.push({ key: f, raw: readFileSync(join(dir, f)) });
    else if (f.endsWith(".mbox")) mboxMessages(readFileSync(join(dir, f))).forEach((raw, i) => out.push({ key: `${f}#${i + 1}`, raw }));
  }
  return out;
}

/** A fresh data dir with the demo firm and its book as of the corpus's clock. */
export async function corpusFirm(clockIso: string): Promise<{ deps: Deps; orgId: string; userId: string; dataDir: string; cleanup: () => void }> {
  const dataDir = mkdtempSync(join(tmpdir(), "dealgraph-updates-corpus-"));
  const config = loadConfig({}, { dataDir });
  const { db } = openDataDir(config);
  const deps = createDeps({ db, config, clock: new TestClock(new Date(clockIso)), log: silentLog });
  const firm = generateFirm({ seed: 7 });
  const keys = loadFirm(deps, firm, () => {});
  const orgId = orgsService(deps).mustGetUser(keys.user_id).orgId!;
  await loadDemoBook(deps, { id: orgId, name: firm.org.name }, join(dataDir, "demo-source"), () => {});
  return { deps, orgId, userId: keys.user_id, dataDir, cleanup: () => (db.$client.close(), rmSync(dataDir, { recursive: true, force: true })) };
}

/** Imports every message of a part and gives the judge's results: each message's figures as the API lists them (none when not an update). */
export async function runPart(part: Part): Promise<PartRun> {
  const dir = join(CORPUS_DIR, part);
  const { clock, messages: labels } = JSON.parse(readFileSync(join(dir, "labels.json"), "utf8")) as { clock: string; messages: Label[] };
  const messages = partMessages(dir);
  const firm = await corpusFirm(clock);
  try {
    const updates = updatesService(firm.deps);
    const updateOf = new Map<string, string>();
    const started = performance.now();
    for (const m of messages) {
      const r = await updates.ingest(firm.orgId, m.raw, { userId: firm.userId, origin: "import" });
      if (r.outcome === "applied") updateOf.set(m.key, r.updateId);
    }
    const seconds = (performance.now() - started) / 1000;
    const { updates: listed } = updates.list(firm.orgId, { limit: 100_000, offset: 0 });
    const byId = new Map(listed.map((u) => [u.update_id, u]));
    const results: Result[] = messages.map((m) => ({
      file: m.key,
      figures: (byId.get(updateOf.get(m.key) ?? "")?.figures ?? []).map((f) => ({ metric: f.metric, value: f.value, currency: f.currency, unit: f.unit, period_end: f.period_end, status: f.status })),
    }));
    // The baseline: the same messages' text alone, parsed by postal-mime.
    const { default: PostalMime } = await import("postal-mime");
    const baseStart = performance.now();
    for (const m of messages) await PostalMime.parse(m.raw);
    const baselineSeconds = (performance.now() - baseStart) / 1000;
    return { part, labels, results, seconds, baselineSeconds };
  } finally {
    firm.cleanup();
  }
}

/** The judge's score of a run, as counts (the held-out part's offending figures never leave here). */
export function summarize(run: PartRun): Summary {
  const s = judge(run.labels, run.results);
  return {
    part: run.part,
    messages: s.messages,
    precision: s.precision,
    recall: s.recall,
    applied: s.applied,
    applied_correct: s.applied_correct,
    expected_applied: s.expected_applied,
    expected_applied_found: s.expected_applied_found,
    wrong_applied: s.wrong_applied.length,
    traps_applied: s.traps_applied.length,
    ambiguous_expected: s.ambiguous_expected,
    ambiguous_to_review: s.ambiguous_to_review,
    conflicts_expected: s.conflicts_expected,
    conflicts_to_review: s.conflicts_to_review,
    non_updates_with_figures: s.non_updates_with_figures.length,
    results_missing: s.results_missing.length,
    seconds: run.seconds,
    updates_per_second: run.results.length / run.seconds,
    baseline_per_second: run.results.length / run.baselineSeconds,
  };
}

/**
 * The dev part's misses, message by message, each judged alone by the same judge: the messages
 * where a figure was applied wrongly, an expected one not applied, or a review item not sent to
 * review, with the label's figures and what was read. Never for the held-out part.
 */
export function devMisses(run: PartRun): string[] {
  if (run.part !== "dev") throw new Error("the held-out part's messages are not listed");
  const byFile = new Map(run.results.map((r) => [r.file, r]));
  const out: string[] = [];
  for (const l of run.labels) {
    const r = byFile.get(l.file) ?? { file: l.file, figures: [] };
    const s = judge([l], [r]);
    const short = s.expected_applied_found < s.expected_applied || s.ambiguous_to_review < s.ambiguous_expected || s.conflicts_to_review < s.conflicts_expected;
    if (!short && s.wrong_applied.length === 0 && s.non_updates_with_figures.length === 0) continue;
    const fig = (f: { metric: string; value: number; currency?: string | null; period_end?: string | null }) => `${f.metric} ${f.value}${f.currency ? ` ${f.currency}` : ""} ${f.period_end ?? "-"}`;
    out.push(`${l.file} [${l.style ?? ""}]`);
    for (const w of s.wrong_applied) out.push(`  WRONG applied ${fig(w.figure)}: ${w.why}`);
    out.push(`  label: ${l.figures.map((f) => `${fig(f)} ${f.expect}`).join("; ") || "(none)"}`);
    out.push(`  read:  ${r.figures.map((f) => `${fig(f)} ${f.status}`).join("; ") || "(none)"}`);
  }
  return out;
}
