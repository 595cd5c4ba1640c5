// How well decks are read, over the labelled corpus (scripts/bench/deck-corpus): every deck goes
// through the real upload path (POST /api/v1/deals/analyze/upload without a company name, the
// action runner, LibreOffice for the PPTX/DOCX ones, GET /api/v1/deals/{id}?view=full) and what
// comes back is held against its labels. Per field: precision, recall and F1 (company, stage,
// amount, currency, team members, each section's presence), the amount exact (value and currency)
// over the decks that state one, the count of wrong non-null amounts, and the sections scored that
// the deck does not address. Baseline: the same decks' bare text extraction (unpdf's own join),
// timed in the same run, so the reading's cost shows as a ratio. This is the "tuned corpus": it was
// written beside the reader.
//
// Then the blind corpus (scripts/bench/deck-corpus-blind, written without opening the reader) and the
// labelled real decks go through the same upload path, each part (dev, heldout, real) reported apart:
// company, stage, amount exact, wrong amounts, wrong pre-money, team P/R/F1, sections scored without
// evidence. Heldout and real decks are reported as aggregates only, unless --show-heldout (which
// nobody changing the reader runs). Exits non-zero when any part of the blind run has a wrong figure
// (an amount or a pre-money the deck does not state).
//
//   bun scripts/bench/deck-quality.ts [--count 240] [--seed 1] [--keep DIR] [--verbose]
//       [--blind-count 240] [--blind-seed 1] [--part dev|heldout|all] [--blind-only] [--no-real] [--show-heldout]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { extractText, getDocumentProxy } from "unpdf";
import { runHandlers } from "../../jobs/index.ts";
import { createApp } from "../../src/app.ts";
import { findLibreOffice } from "../../src/documents/convert.ts";
import { startRunner } from "../../src/modules/actions/runner.ts";
import { openBench } from "../lib/bench.ts";
import { generateBlindCorpus } from "./deck-corpus-blind/index.ts";
import type { BlindLabels } from "./deck-corpus-blind/labels.ts";
import { loadRealDecks } from "./deck-corpus-blind/real.ts";
import { describe, scoreDeck, summarize, type Verdict } from "./deck-corpus-blind/score.ts";
import { generateCorpus, type CorpusDeck } from "./deck-corpus/index.ts";
import { SECTION_KEYS } from "./deck-corpus/model.ts";

const { values: opts } = parseArgs({
  options: {
    count: { type: "string", default: "240" },
    seed: { type: "string", default: "1" },
    keep: { type: "string" },
    verbose: { type: "boolean" },
    "blind-count": { type: "string", default: "240" },
    "blind-seed": { type: "string", default: "1" },
    part: { type: "string", default: "all" },
    "blind-only": { type: "boolean" },
    "no-real": { type: "boolean" },
    "show-heldout": { type: "boolean" },
  },
});
if (!["dev", "heldout", "all"].includes(opts.part!)) throw new Error(`--part dev|heldout|all, not ${opts.part}`);
const TARGET = { f1: 0.95, amountExact: 0.95 };
const dir = opts.keep ?? mkdtempSync(join(tmpdir(), "dealgraph-bench-deck-quality-"));
const log = (line: string) => console.log(line);

const office = findLibreOffice();
// Wrong figures of the blind run: amounts and pre-money valuations reported that the deck does not state.
let blindWrongAmounts = 0;
let blindWrongPreMoney = 0;
if (!opts["blind-only"]) await tunedCorpus();
await blindCorpus();
if (!opts.keep) rmSync(dir, { recursive: true, force: true });
process.exit(blindWrongAmounts + blindWrongPreMoney > 0 ? 1 : 0);

async function tunedCorpus() {
log("== tuned corpus (scripts/bench/deck-corpus, written beside the reader)");
const generated = await generateCorpus({ count: Number(opts.count), seed: Number(opts.seed) });
const decks = generated.filter((d) => d.format === "pdf" || office);
if (opts.keep) for (const d of generated) writeFileSync(join(dir, d.filename), d.bytes);
log(`Corpus: ${generated.length} decks from ${new Set(generated.map((d) => d.template)).size} templates (${generated.filter((d) => d.format !== "pdf").length} PPTX/DOCX)`);
if (decks.length < generated.length) log(`  ${generated.length - decks.length} PPTX/DOCX decks skipped: LibreOffice is not installed`);

const { deps, key } = openBench(join(dir, "data"));
const app = createApp(deps);
const call = async (method: string, path: string, body?: FormData) => {
  const res = await app.handle(new Request(`http://localhost${path}`, { method, body, headers: { authorization: `Bearer ${key}` } }));
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<any>;
};

// ---- read every deck through the upload path ----
const ids = new Map<CorpusDeck, string>();
for (const d of decks) {
  const form = new FormData();
  form.append("file", new Blob([d.bytes]), d.filename);
  ids.set(d, (await call("POST", "/api/v1/deals/analyze/upload", form)).deal_id);
}
const start = performance.now();
const runner = startRunner(deps, runHandlers(deps), { pollMs: 60_000 });
runner.pump();
await runner.idle();
await runner.stop();
const readMs = performance.now() - start;
const results = new Map<CorpusDeck, any>();
for (const [d, id] of ids) results.set(d, await call("GET", `/api/v1/deals/${id}?view=full`));

// Baseline: unpdf's own text extraction of the same PDFs, nothing else.
const pdfs = decks.filter((d) => d.format === "pdf");
const bareStart = performance.now();
for (const d of pdfs) await extractText(await getDocumentProxy(new Uint8Array(d.bytes)), { mergePages: false });
const bareMs = performance.now() - bareStart;

// ---- held against the labels ----
type Tally = { tp: number; fp: number; fn: number };
const tally = () => ({ tp: 0, fp: 0, fn: 0 });
const fields = new Map<string, Tally>();
const field = (name: string) => fields.get(name) ?? (fields.set(name, tally()), fields.get(name)!);
const count = (name: string, predicted: unknown, expected: unknown, same: boolean) => {
  const t = field(name);
  if (predicted !== null && expected !== null && same) t.tp++;
  else {
    if (predicted !== null) t.fp++;
    if (expected !== null) t.fn++;
  }
};
const norm = (s: string | null) => (s === null ? null : s.toLowerCase().normalize("NFC").replace(/\s+/g, " ").trim());
const stageOf = (s: string | null) => (s === null ? null : norm(s)!.replace(/^serie\s/, "series ").replace(/series-/, "series ").replace(/^preseed$/, "pre-seed"));
const personOf = (s: string) => norm(s)!.replace(/^(prof\.\s*)?(dr\.\s*|dipl\.-ing\.\s*)*/, "").replace(/,?\s*(phd|mba|md)$/, "");

let wrongAmounts = 0;
let statedAmounts = 0;
let exactAmounts = 0;
let unaddressedScored = 0;
let failed = 0;
const problems: string[] = [];
for (const [d, deal] of results) {
  const l = d.labels;
  if (deal.analysis_status !== "succeeded") {
    failed++;
    problems.push(`${d.filename}: analysis ${deal.analysis_status}`);
    continue;
  }
  const company = deal.company?.name ?? deal.company_name ?? null;
  count("company", company, l.company, norm(company) === norm(l.company));
  if (norm(company) !== norm(l.company)) problems.push(`${d.filename}: company ${JSON.stringify(company)} (label ${JSON.stringify(l.company)})`);
  count("stage", deal.round.stage, l.stage, stageOf(deal.round.stage) === stageOf(l.stage));
  if (stageOf(deal.round.stage) !== stageOf(l.stage)) problems.push(`${d.filename}: stage ${JSON.stringify(deal.round.stage)} (label ${JSON.stringify(l.stage)})`);
  const amountRight = deal.round.amount !== null && l.amount !== null && Math.abs(deal.round.amount - l.amount) < 0.5;
  count("amount", deal.round.amount, l.amount, amountRight);
  count("currency", deal.round.currency, l.currency, deal.round.currency === l.currency);
  if (l.amount !== null) {
    statedAmounts++;
    if (amountRight && deal.round.currency === l.currency) exactAmounts++;
  }
  if (deal.round.amount !== null && !(amountRight && deal.round.currency === l.currency)) {
    wrongAmounts++;
    problems.push(`${d.filename}: WRONG amount ${deal.round.amount} ${deal.round.currency} (label ${l.amount} ${l.currency})`);
  } else if (l.amount !== null && deal.round.amount === null) problems.push(`${d.filename}: amount missed (label ${l.amount} ${l.currency})`);
  const team = new Set<string>(deal.team.map((m: any) => personOf(m.name)));
  const truth = new Set(l.team.map(personOf));
  const t = field("team");
  for (const n of team) (truth.has(n) ? t.tp++ : t.fp++);
  for (const n of truth) if (!team.has(n)) t.fn++;
  const extra = [...team].filter((n) => !truth.has(n));
  const missed = [...truth].filter((n) => !team.has(n));
  if (extra.length || missed.length) problems.push(`${d.filename}: team extra ${JSON.stringify(extra)} missed ${JSON.stringify(missed)}`);
  for (const key of SECTION_KEYS) {
    const section = deal.analysis.sections.find((s: any) => s.key === key);
    const scored = section?.score !== null && section?.score !== undefined;
    const present = l.sections.includes(key);
    count(`section ${key}`, scored ? true : null, present ? true : null, scored && present);
    if (scored && !present) {
      unaddressedScored++;
      problems.push(`${d.filename}: ${key} scored but not addressed: ${section.evidence.map((e: any) => JSON.stringify(e.quote)).join(" ")}`);
    } else if (!scored && present) problems.push(`${d.filename}: ${key} addressed but not scored`);
  }
}

const f = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : "  n/a");
log("");
log(`Read ${results.size} decks through the upload path in ${(readMs / 1000).toFixed(1)} s (${failed} failed)`);
log(`  dealgraph   ${(readMs / results.size).toFixed(1)} ms per deck (upload run: extraction, layout, OCR when needed, conversion of ${decks.length - pdfs.length} Office decks, analysis)`);
log(`  bare unpdf  ${(bareMs / Math.max(1, pdfs.length)).toFixed(1)} ms per PDF (text extraction alone)`);
log("");
log(`  field                      precision  recall     F1   (tp/fp/fn)`);
let allMet = true;
for (const [name, t] of fields) {
  const p = t.tp / (t.tp + t.fp);
  const r = t.tp / (t.tp + t.fn);
  const f1 = (2 * p * r) / (p + r);
  const met = t.tp + t.fn === 0 ? t.fp === 0 : f1 >= TARGET.f1;
  allMet &&= met;
  log(`  ${name.padEnd(26)} ${f(p).padStart(9)} ${f(r).padStart(7)} ${f(t.tp + t.fn === 0 && t.fp === 0 ? 1 : f1).padStart(6)}   (${t.tp}/${t.fp}/${t.fn})${met ? "" : "  < target"}`);
}
log("");
log(`  amount exact (value and currency): ${exactAmounts}/${statedAmounts} = ${f(exactAmounts / statedAmounts)} (target >= ${TARGET.amountExact})`);
log(`  wrong non-null amounts: ${wrongAmounts} (target 0)`);
log(`  sections scored that the deck does not address: ${unaddressedScored} (target 0)`);
const met = allMet && exactAmounts / statedAmounts >= TARGET.amountExact && wrongAmounts === 0 && unaddressedScored === 0 && failed === 0;
log(`  targets: ${met ? "met" : "NOT MET"}`);
if (opts.verbose || !met) {
  log("");
  for (const p of problems.slice(0, opts.verbose ? Infinity : 40)) log(`  ${p}`);
  if (!opts.verbose && problems.length > 40) log(`  ... ${problems.length - 40} more (--verbose)`);
}
}

// ---- the blind corpus and the real decks ----
type Group = "dev" | "heldout" | "real dev" | "real heldout";
type Item = { id: string; group: Group; filename: string; format: string; bytes: Uint8Array; labels: BlindLabels };

async function blindCorpus() {
  const part = opts.part as "dev" | "heldout" | "all";
  const showHeldout = Boolean(opts["show-heldout"]);
  log("");
  log("== blind corpus (scripts/bench/deck-corpus-blind, written without opening the reader)");
  const generated = await generateBlindCorpus({ seed: Number(opts["blind-seed"]), count: Number(opts["blind-count"]), part });
  const real = opts["no-real"] ? { decks: [], missing: 0 } : loadRealDecks(part);
  const all: Item[] = [
    ...generated.map((d) => ({ id: d.id, group: d.part as Group, filename: d.filename, format: d.format, bytes: d.bytes, labels: d.labels })),
    ...real.decks.map((d) => ({ id: d.id, group: (d.part === "dev" ? "real dev" : "real heldout") as Group, filename: d.filename, format: d.format, bytes: d.bytes, labels: d.labels })),
  ];
  const items = all.filter((d) => d.format === "pdf" || office);
  const count = (g: Group) => all.filter((d) => d.group === g).length;
  log(`Blind corpus: ${generated.length} decks (dev ${count("dev")}, heldout ${count("heldout")}; ${generated.filter((d) => d.format !== "pdf").length} PPTX/DOCX); real decks: ${real.decks.length} (dev ${count("real dev")}, heldout ${count("real heldout")})${real.missing ? `, ${real.missing} labelled but not on this machine` : ""}`);
  if (items.length < all.length) log(`  ${all.length - items.length} PPTX/DOCX decks skipped: LibreOffice is not installed`);
  if (opts.keep) {
    mkdirSync(join(dir, "blind"), { recursive: true });
    for (const d of items) if (d.group === "dev" || showHeldout) writeFileSync(join(dir, "blind", `${d.id}-${d.filename}`), d.bytes);
  }

  const { deps, key } = openBench(join(dir, "data-blind"));
  const app = createApp(deps);
  const call = async (method: string, path: string, body?: FormData) => {
    const res = await app.handle(new Request(`http://localhost${path}`, { method, body, headers: { authorization: `Bearer ${key}` } }));
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${(await res.text()).slice(0, 200)}`);
    return res.json() as Promise<any>;
  };
  const ids = new Map<Item, string | null>();
  for (const d of items) {
    const form = new FormData();
    form.append("file", new Blob([d.bytes]), d.filename);
    try {
      ids.set(d, (await call("POST", "/api/v1/deals/analyze/upload", form)).deal_id);
    } catch {
      ids.set(d, null);
    }
  }
  const start = performance.now();
  const runner = startRunner(deps, runHandlers(deps), { pollMs: 60_000 });
  runner.pump();
  await runner.idle();
  await runner.stop();
  log(`Read ${items.length} decks through the upload path in ${((performance.now() - start) / 1000).toFixed(1)} s`);

  const verdicts = new Map<Group, { item: Item; labels: BlindLabels; verdict: Verdict }[]>();
  // Why analyses failed and how long runs took, per part: the run's own error (without the file's
  // name, so heldout stays unseen) and its wall-clock time, to tell a slow machine from a reader defect.
  const failures = new Map<Group, Map<string, number>>();
  const runSeconds = new Map<Group, number[]>();
  for (const [d, id] of ids) {
    const deal = id ? await call("GET", `/api/v1/deals/${id}?view=full`) : { analysis_status: "upload rejected" };
    const list = verdicts.get(d.group) ?? (verdicts.set(d.group, []), verdicts.get(d.group)!);
    list.push({ item: d, labels: d.labels, verdict: scoreDeck(d.labels, deal) });
    const run = id ? await call("GET", `/api/v1/deals/${id}/analysis`) : null;
    const seconds = run?.started_at && run?.finished_at ? (Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000 : null;
    if (seconds !== null) (runSeconds.get(d.group) ?? (runSeconds.set(d.group, []), runSeconds.get(d.group)!)).push(seconds);
    if (seconds !== null && seconds > 60 && (d.group === "dev" || d.group === "real dev" || showHeldout)) log(`  SLOW ${d.id} ${d.filename}: ${seconds.toFixed(1)} s`);
    if (deal.analysis_status !== "succeeded") {
      const reason = String(run?.error ?? deal.analysis_status ?? "unknown").split(d.filename).join("<file>").replace(/\d+(\.\d+)?/g, "#");
      const byReason = failures.get(d.group) ?? (failures.set(d.group, new Map()), failures.get(d.group)!);
      byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
      if (d.group === "dev" || d.group === "real dev" || showHeldout) log(`  FAILED ${d.id} ${d.filename}: ${run?.error ?? deal.analysis_status}`);
    }
  }

  const f = (x: number) => x.toFixed(3);
  const ratio = (n: number, of: number) => `${n}/${of}`.padStart(8);
  log("");
  log(`  part            decks  failed  company     kind    stage  amount exact  wrong amt  wrong pre  pre exact  team P  team R  team F1  not-team  scored w/o evidence`);
  for (const g of ["dev", "heldout", "real dev", "real heldout"] as Group[]) {
    const list = verdicts.get(g);
    if (!list?.length) continue;
    const s = summarize(list);
    blindWrongAmounts += s.wrongAmounts;
    blindWrongPreMoney += s.wrongPreMoney;
    log(`  ${g.padEnd(14)} ${String(s.decks).padStart(6)} ${String(s.failed).padStart(7)} ${ratio(s.company, s.decks)} ${ratio(s.kind, s.decks)} ${ratio(s.stage, s.decks)} ${ratio(s.amountExact, s.amountStated).padStart(13)} ${String(s.wrongAmounts).padStart(10)} ${String(s.wrongPreMoney).padStart(10)} ${ratio(s.preMoneyExact, s.preMoneyStated).padStart(10)} ${f(s.team.precision).padStart(7)} ${f(s.team.recall).padStart(7)} ${f(s.team.f1).padStart(8)} ${String(s.notTeamInTeam).padStart(9)} ${String(s.scoredWithoutEvidence).padStart(9)} (${s.decksScoredWithoutEvidence} decks)`);
  }
  log(`  (amount exact: over the decks that state a single amount; a null label answered with an amount is a wrong amount)`);
  for (const g of ["dev", "heldout", "real dev", "real heldout"] as Group[]) {
    const times = (runSeconds.get(g) ?? []).sort((a, b) => a - b);
    if (times.length) log(`  ${g}: run time median ${times[Math.floor(times.length / 2)].toFixed(1)} s, p90 ${times[Math.floor(times.length * 0.9)].toFixed(1)} s, max ${times[times.length - 1].toFixed(1)} s`);
    for (const [reason, n] of failures.get(g) ?? []) log(`  ${g}: ${n} failed: ${reason}`);
  }
  const wrongFigures = blindWrongAmounts + blindWrongPreMoney;
  log(`  wrong figures in the blind run: ${wrongFigures} (${blindWrongAmounts} amounts, ${blindWrongPreMoney} pre-money)${wrongFigures ? "  -> exit 1" : ""}`);

  const dev = verdicts.get("dev") ?? [];
  if (opts.verbose && dev.length) {
    // dev only: which traps the differing decks carry
    const byTrap = new Map<string, number[]>();
    for (const { labels, verdict: v } of dev)
      for (const t of labels.traps) {
        const row = byTrap.get(t) ?? (byTrap.set(t, [0, 0, 0, 0, 0, 0]), byTrap.get(t)!);
        row[0]++;
        if (v.amount.wrong) row[1]++;
        if (v.amount.missed) row[2]++;
        if (!v.stage.ok) row[3]++;
        if (v.team.fp || v.team.fn) row[4]++;
        if (v.scoredWithoutEvidence.length) row[5]++;
      }
    log("");
    log(`  dev decks by trap               decks  wrong amt  missed amt  stage  team  scored w/o evidence`);
    for (const [t, [n, w, m, st, tm, sw]] of [...byTrap].sort((a, b) => b[1][0] - a[1][0])) log(`  ${t.padEnd(30)} ${String(n).padStart(6)} ${String(w).padStart(10)} ${String(m).padStart(11)} ${String(st).padStart(6)} ${String(tm).padStart(5)} ${String(sw).padStart(6)}`);
  }

  for (const g of ["dev", "real dev", "heldout", "real heldout"] as Group[]) {
    const list = verdicts.get(g);
    if (!list?.length) continue;
    const secret = (g === "heldout" || g === "real heldout") && !showHeldout;
    const failing = list.filter((x) => describe(x.verdict).length);
    if (secret) {
      log(`  ${g}: ${failing.length} of ${list.length} decks differ somewhere (details hidden: heldout)`);
      continue;
    }
    log("");
    log(`  ${g}: ${failing.length} of ${list.length} decks differ somewhere${opts.verbose ? "" : " (--verbose lists them)"}`);
    for (const x of failing) {
      const lines = describe(x.verdict);
      if (!opts.verbose && !x.verdict.amount.wrong && !x.verdict.pre_money.wrong) continue;
      log(`  ${x.item.id} [${x.labels.style}/${x.labels.voice}] ${x.item.filename}`);
      for (const l of opts.verbose ? lines : lines.filter((l) => l.startsWith("WRONG"))) log(`      ${l}`);
    }
  }
}
