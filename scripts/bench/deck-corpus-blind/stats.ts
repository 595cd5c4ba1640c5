// Counts of the blind corpus per part: formats, styles, voices and traps. Labels only, no deck
// details: safe to print for heldout.
//
//   bun scripts/bench/deck-corpus-blind/stats.ts [--count 240] [--seed 1]
import { parseArgs } from "node:util";
import { blindDoc, partOf, BLIND_STYLES } from "./index.ts";
import { REAL_LABELS } from "./real-labels.ts";

const { values } = parseArgs({ options: { count: { type: "string", default: "240" }, seed: { type: "string", default: "1" } } });
const seed = Number(values.seed);
const count = Number(values.count);
type Tally = Map<string, { dev: number; heldout: number }>;
const tally = (): Tally => new Map();
const add = (t: Tally, key: string, part: "dev" | "heldout") => {
  const row = t.get(key) ?? (t.set(key, { dev: 0, heldout: 0 }), t.get(key)!);
  row[part]++;
};
const styles = tally(), voices = tally(), traps = tally(), formats = tally(), kinds = tally(), amounts = tally();
for (let i = 0; i < count; i++) {
  const { doc, style } = blindDoc(seed, i);
  const part = partOf(doc.id);
  add(styles, style, part);
  add(formats, style.startsWith("pptx") ? "pptx" : style.startsWith("docx") ? "docx" : "pdf", part);
  add(voices, doc.voice, part);
  add(kinds, doc.labels.kind, part);
  add(amounts, doc.labels.round.amount === null ? "amount null" : "amount stated", part);
  add(amounts, doc.labels.round.pre_money === null ? "pre-money null" : "pre-money stated", part);
  add(amounts, doc.labels.round.stage === null ? "stage null" : `stage ${doc.labels.round.stage}`, part);
  for (const t of doc.labels.traps) add(traps, t, part);
  if (style === "glyph-canva") add(traps, "per-glyph-runs", part);
  if (style === "word-flow" || style === "dark-bold") add(traps, "per-word-runs", part);
  if (style === "sidebar-rotated" || style === "pptx-tables") add(traps, "rotated-text", part);
  if (style === "letterspaced-mono") add(traps, "letterspaced-titles", part);
  if (doc.locale === "de" || doc.locale === "ch" || doc.locale === "fr") add(traps, "european-number-format", part);
}
const show = (title: string, t: Tally, order?: readonly string[]) => {
  console.log(`\n${title.padEnd(32)}   dev  heldout`);
  const keys = order ? order.filter((k) => t.has(k)) : [...t.keys()].sort((a, b) => t.get(b)!.dev + t.get(b)!.heldout - (t.get(a)!.dev + t.get(a)!.heldout));
  for (const k of keys) console.log(`  ${k.padEnd(30)} ${String(t.get(k)!.dev).padStart(5)} ${String(t.get(k)!.heldout).padStart(8)}`);
};
const total = { dev: 0, heldout: 0 };
for (const v of formats.values()) (total.dev += v.dev), (total.heldout += v.heldout);
console.log(`Blind corpus, seed ${seed}, ${count} decks: dev ${total.dev}, heldout ${total.heldout}`);
show("format", formats);
show("style", styles, BLIND_STYLES);
show("voice", voices);
show("kind", kinds);
show("round labels", amounts);
show("trap", traps);
const real = { dev: REAL_LABELS.filter((l) => l.part === "dev").length, heldout: REAL_LABELS.filter((l) => l.part === "heldout").length };
console.log(`\nReal decks labelled: ${REAL_LABELS.length} (dev ${real.dev}, heldout ${real.heldout}) from ${new Set(REAL_LABELS.map((l) => l.repo)).size} repositories`);
