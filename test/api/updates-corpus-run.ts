// Runs a part of the blind updates corpus (test/fixtures/updates-corpus/{dev,heldout}) through
// the real reader: the demo firm and its book (the corpus was written against it: its partners
// forward, its holdings' domains send, its actuals are the "existing actuals"), every message
// imported as the lead partner, and each message's figures compared with its labels. Only
// aggregate figures leave this file for the held-out part: its messages and labels stay unread
// by anyone tuning the reader.
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
import { TestClock } from "../helpers/clock.ts";

export const CORPUS_DIR = join(import.meta.dir, "..", "fixtures", "updates-corpus");

export type LabelFigure = { metric: string; value: number; currency: string | null; unit: string | null; period_end: string | null; expect: "applied" | "needs_review"; quote: string; where: string; likely_period_end?: string; review_reason?: string };
export type LabelTrap = { metric: string; value: number; quote: string; note: string };
export type LabelMessage = { file: string; message_id: string; company: { name: string; website: string }; is_update: boolean; style: string; figures: LabelFigure[]; traps: LabelTrap[]; note: string };
export type Labels = { part: string; clock: string; messages: LabelMessage[] };

export type OutFigure = { metric: string; value: number; currency: string | null; period_end: string | null; status: string; reason: string | null; quote: string };
/** What the reader made of one message: its figures, or that it was not taken as an update. */
export type Outcome = { message_id: string; outcome: string; company_website: string | null; figures: OutFigure[] };

export type Score = {
  part: string;
  messages: number;
  expected_applied: number;
  applied: number;
  correct_applied: number;
  wrong_applied: number;
  traps_applied: number;
  precision: number;
  recall: number;
  ambiguous: number;
  ambiguous_to_review: number;
  non_updates_read: number;
  seconds: number;
  updates_per_second: number;
  baseline_per_second: number;
  /** Per message, only for the dev part: what went wrong (never filled for held-out). */
  misses: string[];
};

const close = (a: number, b: number) => Math.abs(a - b) <= Math.max(0.5, Math.abs(b) * 1e-6);

/** The messages of a part, in label order: .eml files and the messages of .mbox files ("file#n"). */
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

/** Imports every message of a part and returns what was made of each, with the time it took and a bare MIME parse's. */
export async function runPart(part: "dev" | "heldout"): Promise<{ labels: Labels; outcomes: Map<string, Outcome>; seconds: number; baselineSeconds: number }> {
  const dir = join(CORPUS_DIR, part);
  const labels = JSON.parse(readFileSync(join(dir, "labels.json"), "utf8")) as Labels;
  const messages = partMessages(dir);
  const firm = await corpusFirm(labels.clock);
  try {
    const updates = updatesService(firm.deps);
    const outcomes = new Map<string, Outcome>();
    const updateOf = new Map<string, string>();
    const started = performance.now();
    for (const m of messages) {
      const r = await updates.ingest(firm.orgId, m.raw, { userId: firm.userId, origin: "import" });
      if (r.outcome === "applied") updateOf.set(m.key, r.updateId);
      outcomes.set(m.key, { message_id: "", outcome: r.outcome, company_website: null, figures: [] });
    }
    const seconds = (performance.now() - started) / 1000;
    // What each update became, as the API lists it.
    const { updates: listed } = updates.list(firm.orgId, { limit: 100_000, offset: 0 });
    const byId = new Map(listed.map((u) => [u.update_id, u]));
    const { default: PostalMime } = await import("postal-mime");
    for (const m of messages) {
      const u = byId.get(updateOf.get(m.key) ?? "");
      const o = outcomes.get(m.key)!;
      if (u) o.figures = u.figures.map((f) => ({ metric: f.metric, value: f.value, currency: f.currency, period_end: f.period_end, status: f.status, reason: f.reason, quote: f.quote }));
    }
    // The baseline: the same messages' text alone, parsed by postal-mime.
    const baseStart = performance.now();
    for (const m of messages) await PostalMime.parse(m.raw);
    const baselineSeconds = (performance.now() - baseStart) / 1000;
    return { labels, outcomes, seconds, baselineSeconds };
  } finally {
    firm.cleanup();
  }
}

/** Scores a part's outcomes against its labels. `explain` lists the dev part's misses. */
export function scorePart(run: Awaited<ReturnType<typeof runPart>>, explain: boolean): Score {
  const { labels, outcomes } = run;
  const s: Score = {
    part: labels.part,
    messages: labels.messages.length,
    expected_applied: 0,
    applied: 0,
    correct_applied: 0,
    wrong_applied: 0,
    traps_applied: 0,
    precision: 1,
    recall: 1,
    ambiguous: 0,
    ambiguous_to_review: 0,
    non_updates_read: 0,
    seconds: run.seconds,
    updates_per_second: outcomes.size / run.seconds,
    baseline_per_second: outcomes.size / run.baselineSeconds,
    misses: [],
  };
  for (const m of labels.messages) {
    const o = outcomes.get(m.file);
    const figures = o?.figures ?? [];
    const miss = (what: string) => explain && s.misses.push(`${m.file} [${m.style}] ${what}`);
    const applied = figures.filter((f) => f.status === "applied");
    if (!m.is_update && figures.length) {
      s.non_updates_read++;
      miss(`not an update, yet ${figures.length} figures were read`);
    }
    for (const e of m.figures) {
      const found = figures.find((f) => f.metric === e.metric && close(f.value, e.value));
      if (e.expect === "applied") {
        s.expected_applied++;
        const ok = applied.find((f) => f.metric === e.metric && close(f.value, e.value) && f.period_end === e.period_end && (f.currency ?? null) === (e.currency ?? null));
        if (!ok) miss(`missed ${e.metric} ${e.value} ${e.currency ?? ""} ${e.period_end} (${e.quote})${found ? `: read as ${found.status} ${found.period_end} ${found.currency} ${found.reason ?? ""}` : ""}`);
      } else {
        s.ambiguous++;
        if (found && found.status === "needs_review") s.ambiguous_to_review++;
        else miss(`expected review (${e.review_reason}) of ${e.metric} ${e.value}: ${found ? `${found.status} ${found.period_end}` : "not read"}`);
      }
    }
    for (const f of applied) {
      s.applied++;
      const right = m.figures.find((e) => e.expect === "applied" && e.metric === f.metric && close(f.value, e.value) && f.period_end === e.period_end && (f.currency ?? null) === (e.currency ?? null));
      if (right) {
        s.correct_applied++;
        continue;
      }
      s.wrong_applied++;
      const trap = m.traps.find((t) => close(t.value, f.value) && (t.metric === f.metric || true));
      if (trap) s.traps_applied++;
      miss(`WRONG applied ${f.metric} ${f.value} ${f.currency ?? ""} ${f.period_end}${trap ? ` (trap: ${trap.note})` : ""} from "${f.quote.slice(0, 120)}"`);
    }
  }
  s.precision = s.applied ? s.correct_applied / s.applied : 1;
  s.recall = s.expected_applied ? s.correct_applied / s.expected_applied : 1;
  return s;
}
