// Investor updates against the blind corpus (test/fixtures/updates-corpus): the dev part and the
// held-out part scored apart: precision of applied figures, recall, wrong applied figures, traps
// applied, ambiguous periods sent to review, and throughput in updates per second against a bare
// baseline (the same messages' MIME parsed by postal-mime alone) measured in the same run.
// The held-out part prints aggregate figures only: its messages stay unread by whoever tunes the
// reader. Exits 1 on any wrong applied figure or applied trap in either part.
//
//   bun scripts/bench/updates.ts [--part dev|heldout|both] [--misses]   (--misses: the dev part's, never held-out's)
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { CORPUS_DIR, runPart, scorePart, type Score } from "../../test/api/updates-corpus-run.ts";

const { values } = parseArgs({ options: { part: { type: "string", default: "both" }, misses: { type: "boolean", default: false } } });
const parts = (values.part === "both" ? ["dev", "heldout"] : [values.part]) as ("dev" | "heldout")[];

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
function print(s: Score) {
  console.log(
    [
      `${s.part}: ${s.messages} messages in ${s.seconds.toFixed(2)} s`,
      `  precision of applied figures ${pct(s.precision)} (${s.correct_applied}/${s.applied}), recall ${pct(s.recall)} (${s.correct_applied}/${s.expected_applied})`,
      `  wrong applied ${s.wrong_applied}, traps applied ${s.traps_applied}, non-updates read ${s.non_updates_read}`,
      `  ambiguous periods to review ${s.ambiguous_to_review}/${s.ambiguous}`,
      `  throughput ${s.updates_per_second.toFixed(1)} updates/s (bare postal-mime parse of the same messages: ${s.baseline_per_second.toFixed(0)}/s)`,
    ].join("\n"),
  );
}

let failed = false;
const scores: Score[] = [];
for (const part of parts) {
  if (!existsSync(join(CORPUS_DIR, part, "labels.json"))) {
    console.log(`${part}: no labels.json yet, skipped`);
    continue;
  }
  const s = scorePart(await runPart(part), part === "dev");
  if (part === "dev" && values.misses) for (const m of s.misses) console.log(`  ${m}`);
  print(s);
  scores.push(s);
  if (s.wrong_applied > 0 || s.traps_applied > 0) failed = true;
}
console.log(JSON.stringify(scores.map(({ misses: _, ...rest }) => rest)));
if (failed) {
  console.error("FAIL: a wrong figure or a trap was applied");
  process.exit(1);
}
