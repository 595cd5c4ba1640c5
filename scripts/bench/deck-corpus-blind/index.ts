// The blind deck corpus: seeded decks in many styles and voices, with their labels, split into a dev
// part (about 40%) and a heldout part (about 60%) by a seeded hash of each deck's id.
//
//   import { generateBlindCorpus } from "./deck-corpus-blind/index.ts";
//   const decks = await generateBlindCorpus({ seed: 1, count: 240, part: "dev" });
//
// `count` is the size of the whole corpus before the split: the same seed and count always give the
// same decks, and a deck's part never depends on count.
import { companyDeck, fundDeck, type DeckDoc, type Voice } from "./content.ts";
import type { BlindFormat, BlindLabels, Part } from "./labels.ts";
import { DOCX_STYLES, PPTX_STYLES, renderDocx, renderPptx } from "./office.ts";
import { PDF_STYLES, renderPdf } from "./pdf.ts";
import { hash32, rand } from "./rng.ts";

export type { BlindLabels, Part } from "./labels.ts";
export const BLIND_STYLES = [...PDF_STYLES, ...PPTX_STYLES, ...DOCX_STYLES] as const;
export type BlindStyle = (typeof BLIND_STYLES)[number];
export type BlindDeck = { id: string; part: Part; filename: string; format: BlindFormat; style: BlindStyle; bytes: Uint8Array; labels: BlindLabels };

const VOICES: Voice[] = ["yc", "consultant", "european", "deeptech", "marketplace", "saas", "biotech", "fund"];

/** A deck's part: a seeded hash of its id, 40 of 100 buckets dev. */
export function partOf(id: string): Part {
  return hash32(`blind-split:${id}`, 0x5eed) % 100 < 40 ? "dev" : "heldout";
}

/** The deck at `index` of the corpus of `seed`, before rendering. */
export function blindDoc(seed: number, index: number): { doc: DeckDoc; style: BlindStyle } {
  const id = `blind-${seed}-${String(index).padStart(3, "0")}`;
  const r = rand(id);
  // Every voice and every style turns up in every stretch of the corpus: both cycle, offset.
  const voice = VOICES[(index + seed) % VOICES.length];
  const doc = voice === "fund" ? fundDeck(id, r) : companyDeck(id, r, voice);
  const style = BLIND_STYLES[(index * 5 + seed + Math.floor(index / BLIND_STYLES.length)) % BLIND_STYLES.length];
  return { doc, style };
}

const FILENAMES = (doc: DeckDoc, r: ReturnType<typeof rand>) => {
  const base = doc.labels.company_name.replace(/[^A-Za-z0-9]+/g, r.pick(["_", "-", " ", ""]));
  return r.pick([`${base} Pitch Deck`, `${base}_deck_v${r.int(2, 9)}`, `${base} - Investor Presentation ${2026}`, `${base}${doc.labels.kind === "fund" ? " LP Deck" : " Seed Deck"}`, `deck-final-FINAL`, `${base.toLowerCase()}`, `Pitchdeck ${base}`]);
};

export async function renderBlind(seed: number, index: number): Promise<BlindDeck> {
  const { doc, style } = blindDoc(seed, index);
  const r = rand(`${doc.id}:render`);
  const format: BlindFormat = style.startsWith("pptx") ? "pptx" : style.startsWith("docx") ? "docx" : "pdf";
  const bytes = format === "pdf" ? await renderPdf(doc, style as (typeof PDF_STYLES)[number], r) : format === "pptx" ? renderPptx(doc, style as (typeof PPTX_STYLES)[number], r) : renderDocx(doc, style as (typeof DOCX_STYLES)[number], r);
  const filename = `${FILENAMES(doc, r)}.${format}`;
  const traps = [...doc.labels.traps];
  if (style === "glyph-canva") traps.push("per-glyph-runs");
  if (style === "word-flow" || style === "dark-bold") traps.push("per-word-runs");
  if (style === "sidebar-rotated" || style === "pptx-tables") traps.push("rotated-text");
  if (style === "letterspaced-mono") traps.push("letterspaced-titles");
  if (doc.locale === "de" || doc.locale === "ch" || doc.locale === "fr") traps.push("european-number-format");
  return { id: doc.id, part: partOf(doc.id), filename, format, style, bytes, labels: { ...doc.labels, filename, format, style, traps } };
}

/** The decks of one part (or all) of the corpus of `count` decks. */
export async function generateBlindCorpus(opts: { seed?: number; count?: number; part?: Part | "all" }): Promise<BlindDeck[]> {
  const seed = opts.seed ?? 1;
  const count = opts.count ?? 240;
  const part = opts.part ?? "dev";
  const out: BlindDeck[] = [];
  for (let i = 0; i < count; i++) {
    const id = `blind-${seed}-${String(i).padStart(3, "0")}`;
    if (part !== "all" && partOf(id) !== part) continue;
    out.push(await renderBlind(seed, i));
  }
  return out;
}
