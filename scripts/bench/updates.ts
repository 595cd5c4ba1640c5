// Investor updates against the blind corpus (test/fixtures/updates-corpus), scored by the corpus's
// own judge (test/fixtures/updates-corpus/judge.ts), the dev part and the held-out part apart:
// precision of applied figures, recall, wrong applied figures, traps applied, ambiguous periods
// (and conflicts with the book) sent to review, and throughput in updates per second against
// reading the same messages' text alone (their MIME parsed by postal-mime, nothing read from it),
// measured in the same run. The held-out part prints aggregate figures only: its messages stay
// unread by whoever tunes the reader. Exits 1 on any wrong applied figure or applied trap.
//
//   bun scripts/bench/updates.ts [--part dev|heldout|both] [--misses]   (--misses: the dev part's, never held-out's)
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { CORPUS_DIR, devMisses, runPart, summarize, type Part, type Summary } from "../../test/api/updates-corpus-run.ts";

const { values } = parseArgs({ options: { part: { type: "string", default: "both" }, misses: { type: "boolean", default: false } } });
if (!["dev", "heldout", "both"].includes(values.part!)) {
  console.error(`--part must be dev, heldout or both (got ${JSON.stringify(values.part)})`);
  process.exit(2);
}
const parts: Part[] = values.part === "both" ? ["dev", "heldout"] : [values.part as Part];

const ratio = (n: number, d: number) => `${(d ? n / d : 1).toFixed(3)} (${n}/${d})`;
function print(s: Summary) {
  console.log(
    [
      `${s.part}: ${s.messages} messages in ${s.seconds.toFixed(2)} s`,
      `  precision of applied figures ${ratio(s.applied_correct, s.applied)}, recall ${ratio(s.expected_applied_found, s.expected_applied)}`,
      `  wrong applied figures ${s.wrong_applied}, traps applied ${s.traps_applied}, non-updates given figures ${s.non_updates_with_figures}`,
      `  ambiguous periods sent to review ${s.ambiguous_to_review}/${s.ambiguous_expected}, conflicts with the book sent to review ${s.conflicts_to_review}/${s.conflicts_expected}`,
      `  throughput ${s.updates_per_second.toFixed(1)} updates/s; the same messages' text alone (postal-mime parse) ${s.baseline_per_second.toFixed(0)}/s`,
    ].join("\n"),
  );
}

let failed = false;
const summaries: Summary[] = [];
for (const part of parts) {
  if (!existsSync(join(CORPUS_DIR, part, "labels.json"))) {
    console.log(`${part}: no labels.json, skipped`);
    continue;
  }
  console.error(`${part}: reading...`);
  const run = await runPart(part);
  if (part === "dev" && values.misses) for (const m of devMisses(run)) console.log(m);
  const s = summarize(run);
  print(s);
  summaries.push(s);
  if (s.wrong_applied > 0 || s.traps_applied > 0) failed = true;
}
console.log(JSON.stringify(summaries));
if (failed) {
  console.error("FAIL: a wrong figure or a trap was applied");
  process.exit(1);
}
