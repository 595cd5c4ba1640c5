// OCR of PDF pages without usable text (image-only exports, fonts without a usable encoding), with
// Tesseract when it is installed (Debian tesseract-ocr, optional like LibreOffice; /readyz says
// whether it is there). pdf.js draws the page on an in-memory canvas (pdf-canvas.ts), glyph
// outlines and images included, and the page goes to `tesseract stdin stdout` as a greyscale PGM:
// no files, no other program. Each run has a limit on its processor time and is killed past it
// (and past a wall-clock ceiling several times that, should it hang): at the lowest priority, a
// page may wait for a core on a busy machine far longer than Tesseract works on it.
import * as fs from "node:fs";
import type { getDocumentProxy } from "unpdf";
import { treeCpuMs, wallCeilingMs } from "../lib/cpu-time.ts";
import { installCanvasGlobals, RasterCanvas, RasterCanvasFactory } from "./pdf-canvas.ts";
import { layoutText, type PositionedText } from "./pdf-layout.ts";

/** Processor time one page's OCR may take. */
export const DEFAULT_OCR_TIMEOUT_MS = 60_000;
/**
 * Pages read by OCR per document at most (a scanned 300-page annex is not a deck): a file needing
 * more is refused with a reason (reader-child.ts), never cut. The action runner may lower it
 * (DEALGRAPH_OCR_PAGES_PER_UPLOAD, actions/ocr-budget.ts).
 */
export const OCR_MAX_PAGES = 30;
/** Processor time OCR of one document may take altogether (DEALGRAPH_OCR_SECONDS_PER_UPLOAD may change it). */
export const OCR_MAX_MS_PER_DOCUMENT = 180_000;
/** The rendered page's longer side: a slide's 10-point text some 20 pixels high, which Tesseract reads well. */
const TARGET_PIXELS = 1800;
// Languages decks come in, used when their Tesseract data is installed.
const WANTED_LANGUAGES = ["eng", "deu", "fra", "ita", "spa", "nld"];

export class OcrError extends Error {}

type PDFDocumentProxy = Awaited<ReturnType<typeof getDocumentProxy>>;

/** Tesseract's binary on the PATH as it is now (a server may gain or lose it while running). */
export function findTesseract(): string | null {
  return Bun.which("tesseract", { PATH: process.env.PATH ?? "" });
}

let languages: { binary: string; list: string } | null = null;
/** The installed languages among those decks come in, "eng+deu" style (Tesseract's default when it lists none). */
async function languagesOf(binary: string): Promise<string> {
  if (languages?.binary === binary) return languages.list;
  const proc = Bun.spawn([binary, "--list-langs"], { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const out = `${await new Response(proc.stdout).text()}\n${await new Response(proc.stderr).text()}`;
  await proc.exited;
  const have = new Set(out.split(/\s+/));
  const list = WANTED_LANGUAGES.filter((l) => have.has(l)).join("+") || "eng";
  languages = { binary, list };
  return list;
}

/** Options for reading PDFs so their pages can also be drawn: glyphs as paths, scratch canvases in memory. */
export const RENDERABLE = { disableFontFace: true, CanvasFactory: RasterCanvasFactory, isEvalSupported: false } as const;

/** A page drawn about 1800 pixels on its longer side, as a PGM. The document must have been opened with RENDERABLE. */
export async function renderPage(pdf: PDFDocumentProxy, pageNumber: number): Promise<Uint8Array> {
  installCanvasGlobals();
  const page = await pdf.getPage(pageNumber);
  const base = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: Math.min(4, TARGET_PIXELS / Math.max(base.width, base.height)) });
  const canvas = new RasterCanvas(viewport.width, viewport.height);
  // pdf.js's own render loop: the canvas answers its calls (see pdf-canvas.ts).
  await page.render({ canvas: canvas as never, canvasContext: canvas.getContext() as never, viewport, background: "#ffffff" }).promise;
  page.cleanup();
  return canvas.toPgm();
}

/**
 * Tesseract's words (its TSV: level, page, block, paragraph, line, word, left, top, width, height,
 * confidence, text) as positioned runs, each word on its line's baseline in the line's size: the
 * same items the PDF text layer gives, so a scanned page goes through the same layout.
 */
export function wordsOf(tsv: string): PositionedText[] {
  const lines = new Map<string, { bottom: number; height: number }>();
  const words: { line: string; left: number; width: number; text: string }[] = [];
  for (const row of tsv.split("\n").slice(1)) {
    const c = row.split("\t");
    if (c.length < 12) continue;
    const [level, , block, par, line] = c.slice(0, 5).map(Number);
    const [left, top, width, height] = c.slice(6, 10).map(Number);
    const key = `${block}.${par}.${line}`;
    if (level === 4) lines.set(key, { bottom: top + height, height });
    else if (level === 5 && c[11].trim() && Number(c[10]) >= 0) words.push({ line: key, left, width, text: c.slice(11).join("\t").trim() });
  }
  return words.flatMap((w) => {
    const line = lines.get(w.line);
    if (!line) return [];
    // A line's box runs from its ascenders to its descenders: about 1.25 of its font size.
    const size = line.height / 1.25;
    const baseline = line.bottom - 0.2 * size;
    return [{ str: `${w.text} `, transform: [size, 0, 0, size, w.left, -baseline], width: w.width, height: size }];
  });
}

let slots: string[] = [];
let nextSlot = Math.floor(Math.random() * 1024);
/**
 * The lock files that bound the server's Tesseract runs (reader.ts makes one per core but one: on
 * 2 cores, one run at a time across every reader, so OCR leaves a core to the server). Each run
 * holds one with `flock` (util-linux) while it works; where there is no flock, runs are not bounded.
 */
export function useOcrSlots(paths: string[]): void {
  slots = Bun.which("flock") ? paths : [];
}

/** Tesseract's text for one image, read from stdin and laid out like a PDF's text layer; killed past its processor time (or hung). */
export async function recognise(image: Uint8Array, timeoutMs = DEFAULT_OCR_TIMEOUT_MS): Promise<string> {
  const binary = findTesseract();
  if (!binary) throw new OcrError("Tesseract is not installed on this server");
  // Waiting for the slot costs no processor time; the wall-clock ceiling allows for it.
  const slot = slots.length ? [Bun.which("flock")!, slots[nextSlot++ % slots.length]] : [];
  const proc = Bun.spawn([...slot, binary, "stdin", "stdout", "-l", await languagesOf(binary), "--psm", "3", "tsv"], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
    // One thread per run: several documents may be read at once on a small machine.
    env: { ...process.env, OMP_THREAD_LIMIT: "1" },
  });
  let stopped: "cpu" | "wall" | null = null;
  const stop = (why: "cpu" | "wall") => ((stopped ??= why), proc.kill("SIGKILL"));
  const ceiling = setTimeout(() => stop("wall"), wallCeilingMs(timeoutMs));
  const sampler = setInterval(() => {
    const used = treeCpuMs(fs, proc.pid);
    if (used !== null && used > timeoutMs) stop("cpu");
  }, 100);
  try {
    proc.stdin.write(image);
    await proc.stdin.end();
    const [text, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (stopped === "cpu") throw new OcrError(`OCR of a page took more than ${Math.round(timeoutMs / 1000)} s of processor time and was stopped`);
    if (stopped === "wall") throw new OcrError(`OCR of a page did not finish within ${Math.round(wallCeilingMs(timeoutMs) / 1000)} s and was stopped`);
    if (code !== 0) throw new OcrError(`Tesseract could not read the page (exit ${code}: ${err.trim().split("\n").pop()?.slice(0, 200) ?? ""})`);
    return layoutText(wordsOf(text)).trim();
  } finally {
    clearTimeout(ceiling);
    clearInterval(sampler);
  }
}
