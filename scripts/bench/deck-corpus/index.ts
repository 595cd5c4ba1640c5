// The labelled deck corpus for scripts/bench/deck-quality.ts: N decks over the templates in turn,
// each a real file (PDF, or PPTX/DOCX for LibreOffice to convert) with the labels a careful reader
// would write down. Deterministic for a seed. A measurement, not a test: nothing here is tuned to
// the reader, and the reader is never tuned to a single deck of it.
//
//   bun scripts/bench/deck-corpus/index.ts OUT_DIR [--count 240] [--seed 1]   writes the files and labels.json
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TEMPLATES } from "./layouts.ts";
import { deckModel, seeded, type Labels } from "./model.ts";
import { docxOf, pdfOf, pptxOf } from "./render.ts";

export type CorpusDeck = { id: string; template: string; format: "pdf" | "pptx" | "docx"; filename: string; bytes: Uint8Array; labels: Labels };

export async function generateCorpus(opts: { seed?: number; count?: number } = {}): Promise<CorpusDeck[]> {
  const seed = opts.seed ?? 1;
  const count = opts.count ?? 240;
  const decks: CorpusDeck[] = [];
  for (let i = 0; i < count; i++) {
    const template = TEMPLATES[i % TEMPLATES.length];
    const model = deckModel(seed, i);
    const built = template.build(model, seeded(seed * 31 + i));
    const bytes = Array.isArray(built) ? (template.format === "pptx" ? pptxOf(built) : await pdfOf(built)) : docxOf(built);
    decks.push({ id: model.id, template: template.name, format: template.format, filename: `${model.id}-${template.name}.${template.format}`, bytes, labels: model.labels });
  }
  return decks;
}

if (import.meta.main) {
  const [out] = process.argv.slice(2).filter((a) => !a.startsWith("--"));
  if (!out) throw new Error("usage: index.ts OUT_DIR [--count N] [--seed S]");
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : undefined;
  };
  const decks = await generateCorpus({ count: arg("count"), seed: arg("seed") });
  mkdirSync(out, { recursive: true });
  for (const d of decks) writeFileSync(join(out, d.filename), d.bytes);
  writeFileSync(join(out, "labels.json"), JSON.stringify(decks.map(({ bytes: _, ...d }) => d), null, 2));
  console.log(`${decks.length} decks from ${new Set(decks.map((d) => d.template)).size} templates in ${out}`);
}
