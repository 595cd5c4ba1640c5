// Labels for real public decks, written by hand from each deck's own pages (pdftotext and page
// images), never from what any reader returned. Only these labels are committed: the decks stay in
// their repositories (fetched under /work/.mirror, read by blob id).
import type { BlindLabels, Part } from "./labels.ts";

export type RealLabel = BlindLabels & { repo: string; path: string; blob: string; part: Part };

export const REAL_LABELS: RealLabel[] = [];
