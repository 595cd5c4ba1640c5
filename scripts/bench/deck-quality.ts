// How well decks are read, over the labelled corpus (scripts/bench/deck-corpus): every deck goes
// through the real upload path (POST /api/v1/deals/analyze/upload without a company name, the
// action runner, LibreOffice for the PPTX/DOCX ones, GET /api/v1/deals/{id}?view=full) and what
// comes back is held against its labels. Per field: precision, recall and F1 (company, stage,
// amount, currency, team members, each section's presence), the amount exact (value and currency)
// over the decks that state one, the count of wrong non-null amounts, and the sections scored that
// the deck does not address. Baseline: the same decks' bare text extraction (unpdf's own join),
// timed in the same run, so the reading's cost shows as a ratio.
//
//   bun scripts/bench/deck-quality.ts [--count 240] [--seed 1] [--keep DIR] [--verbose]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { extractText, getDocumentProxy } from "unpdf";
import { runHandlers } from "../../jobs/index.ts";
import { createApp } from "../../src/app.ts";
import { findLibreOffice } from "../../src/documents/convert.ts";
import { startRunner } from "../../src/modules/actions/runner.ts";
import { openBench } from "../lib/bench.ts";
import { generateCorpus, type CorpusDeck } from "./deck-corpus/index.ts";
import { SECTION_KEYS } from "./deck-corpus/model.ts";

const { values: opts } = parseArgs({ options: { count: { type: "string", default: "240" }, seed: { type: "string", default: "1" }, keep: { type: "string" }, verbose: { type: "boolean" } } });
const TARGET = { f1: 0.95, amountExact: 0.95 };
const dir = opts.keep ?? mkdtempSync(join(tmpdir(), "dealgraph-bench-deck-quality-"));
const log = (line: string) => console.log(line);

const generated = await generateCorpus({ count: Number(opts.count), seed: Number(opts.seed) });
const office = findLibreOffice();
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
if (!opts.keep) rmSync(dir, { recursive: true, force: true });
