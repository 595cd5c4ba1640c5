// PDF renderers of the blind corpus: ten visual styles drawn with pdf-lib, each the way some deck
// tool or designer lays slides out (Keynote/PowerPoint exports, Canva's glyph-by-glyph runs,
// consultants' header bands, designers' rotated labels and letter-spaced logos, portrait one-pagers).
import { PDFDocument, StandardFonts, degrees, rgb, type PDFFont, type PDFPage, type RGB } from "pdf-lib";
import type { Block, DeckDoc, Person, Slide } from "./content.ts";
import type { Rand } from "./rng.ts";

export const PDF_STYLES = ["minimal-yc", "dark-bold", "consulting-serif", "glyph-canva", "word-flow", "sidebar-rotated", "photo-cards", "letterspaced-mono", "split-panel", "onepager-a4"] as const;
export type PdfStyle = (typeof PDF_STYLES)[number];

type Spec = {
  size: [number, number];
  bg: RGB;
  fg: RGB;
  accent: RGB;
  muted: RGB;
  body: StandardFonts;
  bold: StandardFonts;
  italic: StandardFonts;
  runs: "line" | "word" | "glyph";
  titleSize: number;
  bodySize: number;
  align: "left" | "center";
  margin: number;
  titleRuns?: "line" | "word" | "glyph";
  titleSpacing?: number;
};

const grey = (v: number) => rgb(v, v, v);
const SPECS: Record<PdfStyle, Spec> = {
  "minimal-yc": { size: [960, 540], bg: grey(1), fg: grey(0.08), accent: rgb(0.95, 0.4, 0.1), muted: grey(0.45), body: StandardFonts.Helvetica, bold: StandardFonts.HelveticaBold, italic: StandardFonts.HelveticaOblique, runs: "line", titleSize: 40, bodySize: 18, align: "left", margin: 60 },
  "dark-bold": { size: [960, 540], bg: rgb(0.07, 0.08, 0.14), fg: grey(0.96), accent: rgb(0.35, 0.85, 0.7), muted: grey(0.7), body: StandardFonts.Helvetica, bold: StandardFonts.HelveticaBold, italic: StandardFonts.HelveticaOblique, runs: "word", titleSize: 34, bodySize: 16, align: "left", margin: 50 },
  "consulting-serif": { size: [842, 595], bg: grey(1), fg: grey(0.1), accent: rgb(0.05, 0.2, 0.45), muted: grey(0.4), body: StandardFonts.TimesRoman, bold: StandardFonts.TimesRomanBold, italic: StandardFonts.TimesRomanItalic, runs: "line", titleSize: 24, bodySize: 13, align: "left", margin: 45 },
  "glyph-canva": { size: [1280, 720], bg: rgb(0.98, 0.96, 0.92), fg: grey(0.12), accent: rgb(0.6, 0.2, 0.5), muted: grey(0.4), body: StandardFonts.Helvetica, bold: StandardFonts.HelveticaBold, italic: StandardFonts.HelveticaOblique, runs: "glyph", titleSize: 46, bodySize: 22, align: "center", margin: 80 },
  "word-flow": { size: [1024, 576], bg: grey(1), fg: grey(0.15), accent: rgb(0.1, 0.45, 0.85), muted: grey(0.5), body: StandardFonts.Helvetica, bold: StandardFonts.HelveticaBold, italic: StandardFonts.HelveticaOblique, runs: "word", titleSize: 32, bodySize: 17, align: "left", margin: 55 },
  "sidebar-rotated": { size: [960, 540], bg: grey(1), fg: grey(0.1), accent: rgb(0.85, 0.15, 0.25), muted: grey(0.5), body: StandardFonts.Helvetica, bold: StandardFonts.HelveticaBold, italic: StandardFonts.HelveticaOblique, runs: "line", titleSize: 30, bodySize: 15, align: "left", margin: 110 },
  "photo-cards": { size: [960, 540], bg: rgb(0.96, 0.97, 1), fg: grey(0.1), accent: rgb(0.25, 0.3, 0.9), muted: grey(0.45), body: StandardFonts.Helvetica, bold: StandardFonts.HelveticaBold, italic: StandardFonts.HelveticaOblique, runs: "line", titleSize: 30, bodySize: 15, align: "center", margin: 50 },
  "letterspaced-mono": { size: [960, 540], bg: grey(0.99), fg: grey(0.1), accent: rgb(0.1, 0.55, 0.3), muted: grey(0.45), body: StandardFonts.Courier, bold: StandardFonts.CourierBold, italic: StandardFonts.CourierOblique, runs: "line", titleSize: 26, bodySize: 13, align: "left", margin: 55, titleRuns: "glyph", titleSpacing: 4 },
  "split-panel": { size: [960, 540], bg: grey(1), fg: grey(0.1), accent: rgb(0.05, 0.35, 0.35), muted: grey(0.45), body: StandardFonts.Helvetica, bold: StandardFonts.HelveticaBold, italic: StandardFonts.HelveticaOblique, runs: "line", titleSize: 48, bodySize: 15, align: "left", margin: 40 },
  "onepager-a4": { size: [595, 842], bg: grey(1), fg: grey(0.1), accent: rgb(0.2, 0.2, 0.5), muted: grey(0.4), body: StandardFonts.Helvetica, bold: StandardFonts.HelveticaBold, italic: StandardFonts.HelveticaOblique, runs: "line", titleSize: 12, bodySize: 9.5, align: "left", margin: 40 },
};

type Fonts = { body: PDFFont; bold: PDFFont; italic: PDFFont };
type Ctx = { page: PDFPage | null; fonts: Fonts; spec: Spec; r: Rand; style: PdfStyle };

const okChars = new Map<string, boolean>();
/** Drops what the standard fonts' WinAnsi encoding cannot draw (the text is chosen to need none). */
function safe(font: PDFFont, text: string): string {
  let out = "";
  for (const ch of text.replace(/[→⟶]/g, "->").replace(/[≈]/g, "~")) {
    const key = `${font.name}:${ch}`;
    if (!okChars.has(key)) {
      try {
        font.encodeText(ch);
        okChars.set(key, true);
      } catch {
        okChars.set(key, false);
      }
    }
    if (okChars.get(key)) out += ch;
  }
  return out;
}

function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const words = safe(font, text).split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = "";
  for (const w of words) {
    const next = line ? `${line} ${w}` : w;
    if (line && font.widthOfTextAtSize(next, size) > width) {
      lines.push(line);
      line = w;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

type RunOpts = { font: PDFFont; size: number; color: RGB; runs?: "line" | "word" | "glyph"; spacing?: number; rotate?: number; opacity?: number };
function textWidth(text: string, o: RunOpts): number {
  const t = safe(o.font, text);
  return o.font.widthOfTextAtSize(t, o.size) + (o.spacing ?? 0) * Math.max(0, t.length - 1);
}
/** One line of text, drawn as one run, one run per word, or one per glyph. */
function run(ctx: Ctx, text: string, x: number, y: number, o: RunOpts) {
  const page = ctx.page;
  if (!page) return;
  const t = safe(o.font, text);
  const mode = o.spacing ? "glyph" : (o.runs ?? "line");
  const base = { size: o.size, font: o.font, color: o.color, opacity: o.opacity, rotate: o.rotate ? degrees(o.rotate) : undefined };
  if (mode === "line") return page.drawText(t, { x, y, ...base });
  const rad = ((o.rotate ?? 0) * Math.PI) / 180;
  let dx = 0;
  const at = (s: string) => page.drawText(s, { x: x + dx * Math.cos(rad), y: y + dx * Math.sin(rad), ...base });
  if (mode === "word") {
    const space = o.font.widthOfTextAtSize(" ", o.size);
    for (const w of t.split(" ")) {
      if (w) at(w);
      dx += o.font.widthOfTextAtSize(w, o.size) + space;
    }
  } else {
    for (const ch of t) {
      if (ch !== " ") at(ch);
      dx += o.font.widthOfTextAtSize(ch, o.size) + (o.spacing ?? 0);
    }
  }
}

/** Paragraph in a box; returns the height used. */
function para(ctx: Ctx, text: string, x: number, y: number, width: number, o: RunOpts, align: "left" | "center" = "left"): number {
  const lines = wrap(o.font, text, o.size, width);
  const lh = o.size * 1.3;
  lines.forEach((l, i) => {
    const w = textWidth(l, o);
    run(ctx, l, align === "center" ? x + (width - w) / 2 : x, y - o.size - i * lh, o);
  });
  return lines.length * lh;
}

const rect = (ctx: Ctx, x: number, y: number, w: number, h: number, color: RGB, border?: RGB) => ctx.page?.drawRectangle({ x, y, width: w, height: h, color, borderColor: border, borderWidth: border ? 0.7 : 0 });
const line = (ctx: Ctx, x1: number, y1: number, x2: number, y2: number, color: RGB, t = 0.6) => ctx.page?.drawLine({ start: { x: x1, y: y1 }, end: { x: x2, y: y2 }, thickness: t, color });

function people(ctx: Ctx, b: Extract<Block, { t: "people" }>, x: number, y: number, width: number): number {
  const { spec, fonts } = ctx;
  let used = 0;
  const s = spec.bodySize;
  if (b.heading) {
    run(ctx, b.heading, x, y - s, { font: fonts.bold, size: s * 0.95, color: spec.accent, runs: spec.runs });
    used += s * 1.6;
  }
  const cols = Math.max(1, b.columns);
  const cw = width / cols;
  const photo = b.photos ? Math.min(cw * 0.55, ctx.style === "onepager-a4" ? 40 : 80) : 0;
  let rowH = 0;
  b.people.forEach((p: Person, i) => {
    const col = i % cols;
    const row = Math.floor(i / cols);
    if (col === 0 && row > 0) {
      used += rowH;
      rowH = 0;
    }
    const cx = x + col * cw;
    let cy = y - used;
    const center = spec.align === "center" || ctx.style === "photo-cards";
    if (photo) {
      const px = center ? cx + (cw - photo) / 2 : cx;
      if (ctx.style === "photo-cards") {
        rect(ctx, cx + 4, cy - photo - s * 5.2, cw - 8, photo + s * 5, grey(1), grey(0.85));
        ctx.page?.drawEllipse({ x: px + photo / 2, y: cy - photo / 2 - 4, xScale: photo / 2.4, yScale: photo / 2.4, color: grey(0.72) });
      } else rect(ctx, px, cy - photo, photo, photo, grey(0.75));
      cy -= photo + 6;
    }
    const name = { font: fonts.bold, size: s, color: spec.fg, runs: spec.runs };
    const title = { font: fonts.body, size: s * 0.85, color: spec.accent, runs: spec.runs };
    const bio = { font: fonts.body, size: s * 0.72, color: spec.muted, runs: spec.runs };
    let h = 0;
    // name and role are separate text runs, one above the other (as separate text boxes are)
    h += para(ctx, p.name, cx, cy - h, cw - 10, name, center ? "center" : "left");
    h += para(ctx, p.title, cx, cy - h, cw - 10, title, center ? "center" : "left");
    if (p.bio) h += para(ctx, p.bio, cx, cy - h, cw - 10, bio, center ? "center" : "left");
    rowH = Math.max(rowH, photo + 6 + h + s);
  });
  return used + rowH;
}

function table(ctx: Ctx, b: Extract<Block, { t: "table" }>, x: number, y: number, width: number): number {
  const { spec, fonts } = ctx;
  const s = Math.min(spec.bodySize * 0.85, 14);
  let used = 0;
  if (b.title) {
    run(ctx, b.title, x, y - s, { font: fonts.bold, size: s, color: spec.accent, runs: spec.runs });
    used += s * 1.7;
  }
  const cols = b.rows[0].length;
  const first = Math.min(width * 0.34, width / cols + 40);
  const cw = (width - first) / Math.max(1, cols - 1);
  const rh = s * 1.9;
  b.rows.forEach((row, i) => {
    const ry = y - used - rh * i;
    if (i === 0) rect(ctx, x, ry - rh, width, rh, ctx.style === "dark-bold" ? grey(0.25) : grey(0.9));
    line(ctx, x, ry - rh, x + width, ry - rh, grey(0.6), 0.4);
    row.forEach((cell, j) => {
      const cx = j === 0 ? x + 4 : x + first + (j - 1) * cw + 4;
      run(ctx, cell, cx, ry - rh + s * 0.6, { font: i === 0 || j === 0 ? fonts.bold : fonts.body, size: s, color: spec.fg, runs: spec.runs });
    });
  });
  return used + rh * b.rows.length + 6;
}

function chart(ctx: Ctx, b: Extract<Block, { t: "chart" }>, x: number, y: number, width: number): number {
  const { spec, fonts } = ctx;
  const s = Math.min(spec.bodySize * 0.75, 12);
  const h = Math.min(170, width * 0.4);
  run(ctx, b.title, x, y - s * 1.2, { font: fonts.bold, size: s * 1.1, color: spec.fg, runs: spec.runs });
  const top = y - s * 2.2;
  const ox = x + 50, oy = top - h;
  line(ctx, ox, oy, ox, top, spec.muted);
  line(ctx, ox, oy, x + width, oy, spec.muted);
  b.yTicks.forEach((t, i) => run(ctx, t, x + 4, oy + (h * i) / (b.yTicks.length - 1) - s / 3, { font: fonts.body, size: s * 0.85, color: spec.muted }));
  run(ctx, b.yLabel, x - 6, oy + 10, { font: fonts.body, size: s * 0.8, color: spec.muted, rotate: 90 });
  const max = Number(b.yTicks[b.yTicks.length - 1].replace(/[^0-9]/g, "")) || Math.max(...b.ys);
  const bw = (x + width - ox) / b.xs.length;
  b.ys.forEach((v, i) => {
    const bh = (v / max) * h;
    rect(ctx, ox + i * bw + bw * 0.2, oy, bw * 0.6, bh, spec.accent);
    run(ctx, b.labels[i], ox + i * bw + bw * 0.25, oy + bh + 3, { font: fonts.body, size: s * 0.85, color: spec.fg });
    run(ctx, b.xs[i], ox + i * bw + bw * 0.3, oy - s * 1.2, { font: fonts.body, size: s * 0.85, color: spec.muted });
  });
  return h + s * 4.5;
}

function block(ctx: Ctx, b: Block, x: number, y: number, width: number): number {
  const { spec, fonts } = ctx;
  const s = spec.bodySize;
  const align = spec.align;
  switch (b.t) {
    case "text": {
      const size = b.size === "lg" ? s * 1.3 : b.size === "sm" ? s * 0.8 : s;
      return para(ctx, b.text, x, y, width, { font: b.size === "lg" ? fonts.bold : fonts.body, size, color: b.size === "sm" ? spec.muted : spec.fg, runs: spec.runs }, align) + s * 0.6;
    }
    case "bullets": {
      let used = 0;
      const mark = ctx.style === "consulting-serif" ? "\u25aa" : ctx.style === "letterspaced-mono" ? ">" : "\u2022";
      for (const item of b.items) {
        const o = { font: fonts.body, size: s, color: spec.fg, runs: spec.runs };
        run(ctx, safe(fonts.body, mark) || "-", x, y - used - s, { ...o, color: spec.accent });
        used += para(ctx, item, x + s * 1.2, y - used, width - s * 1.2, o) + s * 0.35;
      }
      return used + s * 0.3;
    }
    case "people":
      return people(ctx, b, x, y, width);
    case "table":
      return table(ctx, b, x, y, width);
    case "chart":
      return chart(ctx, b, x, y, width);
    case "quote": {
      const h = para(ctx, `\u201c${b.text}\u201d`, x + 20, y, width - 40, { font: fonts.italic, size: s * 1.4, color: spec.fg, runs: spec.runs }, align);
      const by = `\u2014 ${b.by}`;
      const o = { font: fonts.body, size: s * 0.9, color: spec.muted, runs: spec.runs };
      run(ctx, by, x + width - 20 - textWidth(by, o), y - h - s * 1.6, o);
      return h + s * 3;
    }
    case "logos": {
      const o = { font: fonts.bold, size: s * 0.8, color: grey(0.35), runs: spec.runs };
      run(ctx, b.heading, x, y - s * 0.8, { ...o, color: spec.muted, font: fonts.body });
      const cw = width / b.names.length;
      b.names.forEach((n, i) => {
        rect(ctx, x + i * cw + 3, y - s * 4.2, cw - 6, s * 2.4, grey(0.88));
        const lines = wrap(fonts.bold, n, o.size, cw - 14);
        lines.forEach((l, k) => run(ctx, l, x + i * cw + 9, y - s * 2.6 - k * o.size * 1.1, o));
      });
      return s * 5;
    }
    case "kpis": {
      const cw = width / b.items.length;
      b.items.forEach((k, i) => {
        const big = { font: fonts.bold, size: s * 2.1, color: spec.accent, runs: spec.runs };
        const small = { font: fonts.body, size: s * 0.85, color: spec.muted, runs: spec.runs };
        const cx = x + i * cw;
        const bw = textWidth(k.value, big);
        run(ctx, k.value, align === "center" ? cx + (cw - bw) / 2 : cx, y - s * 2.1, big);
        run(ctx, k.label, align === "center" ? cx + (cw - textWidth(k.label, small)) / 2 : cx, y - s * 3.4, small);
      });
      return s * 4.4;
    }
    case "kv": {
      let used = 0;
      for (const [k, v] of b.rows) {
        run(ctx, k, x, y - used - s, { font: fonts.bold, size: s * 0.9, color: spec.fg, runs: spec.runs });
        run(ctx, v, x + Math.min(220, width * 0.4), y - used - s, { font: fonts.body, size: s * 0.9, color: spec.fg, runs: spec.runs });
        used += s * 1.45;
      }
      return used + s * 0.4;
    }
  }
}

function footer(ctx: Ctx, doc: DeckDoc, n: number, total: number) {
  const { spec, fonts } = ctx;
  const [w] = spec.size;
  const o = { font: fonts.body, size: 8.5, color: spec.muted };
  const num = ctx.style === "consulting-serif" ? `Page ${n} of ${total}` : ctx.style === "minimal-yc" ? `${n}` : `${n} / ${total}`;
  run(ctx, num, w - spec.margin / 2 - textWidth(num, o), 16, o);
  if (doc.domain && ctx.style !== "minimal-yc") run(ctx, ctx.style === "consulting-serif" ? `Strictly confidential | ${doc.domain}` : doc.domain, ctx.style === "sidebar-rotated" ? 110 : spec.margin / 2, 16, o);
}

function coverPage(ctx: Ctx, doc: DeckDoc) {
  const { spec, fonts } = ctx;
  const [w, h] = spec.size;
  const c = doc.cover;
  const center = spec.align === "center" || ctx.style === "dark-bold";
  const size = Math.min(72, (w - 2 * spec.margin) / Math.max(6, c.name.length * 0.62));
  const nameOpts: RunOpts = { font: fonts.bold, size, color: ctx.style === "split-panel" ? grey(1) : spec.fg, runs: spec.titleRuns ?? spec.runs };
  if (ctx.style === "split-panel") rect(ctx, 0, 0, w, h, spec.accent);
  let y = h * 0.6;
  if (c.logo === "none") {
    ctx.page?.drawEllipse({ x: w / 2, y: y + 20, xScale: 40, yScale: 40, color: spec.accent });
    ctx.page?.drawRectangle({ x: w / 2 - 18, y: y + 2, width: 36, height: 36, color: spec.bg, rotate: degrees(45) });
  } else {
    let o: RunOpts = c.logo === "letterspaced" ? { ...nameOpts, spacing: size * 0.45, runs: "glyph" as const } : nameOpts;
    const text = c.logo === "letterspaced" ? c.name.toUpperCase() : c.name;
    let tw = textWidth(text, o);
    if (tw > w - 2 * spec.margin) {
      const k = (w - 2 * spec.margin) / tw;
      o = { ...o, size: o.size * k, spacing: o.spacing ? o.spacing * k : undefined };
      tw = textWidth(text, o);
    }
    run(ctx, text, center || c.logo === "letterspaced" ? (w - tw) / 2 : spec.margin, y, o);
  }
  y -= size * 0.9;
  const tag = { font: fonts.body, size: Math.max(12, spec.bodySize * 1.1), color: ctx.style === "split-panel" ? grey(0.95) : spec.muted, runs: spec.runs };
  y -= para(ctx, c.tagline, center || c.logo !== "text" ? spec.margin : spec.margin, y, w - 2 * spec.margin, tag, center || c.logo !== "text" ? "center" : "left");
  const small = { ...tag, size: Math.max(9, spec.bodySize * 0.75) };
  c.lines.forEach((l, i) => {
    const lw = textWidth(l, small);
    run(ctx, l, center ? (w - lw) / 2 : spec.margin, 60 + (c.lines.length - 1 - i) * small.size * 1.6, small);
  });
  if (ctx.style === "sidebar-rotated") run(ctx, "CONFIDENTIAL", w * 0.3, h * 0.15, { font: fonts.bold, size: 60, color: grey(0.9), rotate: 30, opacity: 0.5 });
}

function slidePage(ctx: Ctx, doc: DeckDoc, slide: Slide, n: number, total: number) {
  const { spec, fonts } = ctx;
  const [w, h] = spec.size;
  let x = spec.margin;
  let width = w - 2 * spec.margin;
  let y = h - spec.margin * 0.8;
  const titleO: RunOpts = { font: fonts.bold, size: spec.titleSize, color: spec.fg, runs: spec.titleRuns ?? spec.runs, spacing: spec.titleSpacing };
  switch (ctx.style) {
    case "consulting-serif": {
      rect(ctx, 0, h - 62, w, 62, spec.accent);
      run(ctx, slide.title, spec.margin, h - 42, { ...titleO, color: grey(1) });
      const tracker = doc.slides.filter((s) => !["closing", "problem", "testimonial"].includes(s.key)).map((s) => s.title).slice(0, 6);
      let tx = w - spec.margin;
      for (const t of [...tracker].reverse()) {
        const o = { font: t === slide.title ? fonts.bold : fonts.body, size: 6.5, color: grey(0.85) };
        tx -= textWidth(t, o) + 10;
        run(ctx, t, tx, h - 14, o);
      }
      y = h - 90;
      break;
    }
    case "sidebar-rotated":
      rect(ctx, 0, 0, 70, h, spec.accent);
      run(ctx, slide.title.toUpperCase(), 46, 40, { font: fonts.bold, size: 22, color: grey(1), rotate: 90 });
      run(ctx, slide.title, x, y - spec.titleSize, titleO);
      y -= spec.titleSize * 1.8;
      break;
    case "split-panel": {
      rect(ctx, 0, 0, w * 0.36, h, spec.accent);
      const big = { ...titleO, color: grey(1), size: Math.min(spec.titleSize, (w * 0.36 - 50) / Math.max(4, Math.max(...slide.title.split(" ").map((s) => s.length)) * 0.58)) };
      slide.title.split(" ").forEach((word, i) => run(ctx, word, 28, h * 0.62 - i * big.size * 1.05, big));
      x = w * 0.36 + 36;
      width = w - x - spec.margin;
      y = h - 60;
      break;
    }
    case "photo-cards":
    case "glyph-canva": {
      const tw = textWidth(slide.title, titleO);
      run(ctx, slide.title, (w - tw) / 2, y - spec.titleSize, titleO);
      line(ctx, w / 2 - 30, y - spec.titleSize * 1.35, w / 2 + 30, y - spec.titleSize * 1.35, spec.accent, 2);
      y -= spec.titleSize * 1.9;
      break;
    }
    default:
      if (ctx.style === "letterspaced-mono") run(ctx, `0${n - 1}`.slice(-2), x, y + 6, { font: fonts.body, size: 10, color: spec.accent });
      run(ctx, ctx.style === "letterspaced-mono" ? slide.title.toUpperCase() : slide.title, x, y - spec.titleSize, titleO);
      y -= spec.titleSize * 1.8;
  }
  const side = slide.key === "team" && ["word-flow", "sidebar-rotated", "dark-bold", "letterspaced-mono"].includes(ctx.style) ? slide.blocks.filter((b) => b.t === "people" && b.heading) : [];
  if (side.length) {
    // advisors and investors beside the team, in a right-hand column of the same slide
    const sideW = width * 0.3;
    let sy = y;
    for (const b of side) sy -= block(ctx, b.t === "people" ? { ...b, columns: 1, photos: false } : b, x + width - sideW, sy, sideW) + spec.bodySize * 0.5;
    line(ctx, x + width - sideW - 12, y, x + width - sideW - 12, Math.max(40, sy), grey(0.8));
    width -= sideW + 24;
  }
  for (const b of slide.blocks) {
    if (side.includes(b)) continue;
    y -= block(ctx, b, x, y, width) + spec.bodySize * 0.5;
  }
  footer(ctx, doc, n, total);
}

/** The portrait one-pager: every slide as a headed section, flowing over as many A4 pages as needed. */
async function onePager(doc: DeckDoc, pdf: PDFDocument, fonts: Fonts, r: Rand): Promise<void> {
  const spec = SPECS["onepager-a4"];
  const [w, h] = spec.size;
  const ctx: Ctx = { page: null, fonts, spec, r, style: "onepager-a4" };
  const colW = (w - 2 * spec.margin - 20) / 2;
  let page = pdf.addPage(spec.size);
  ctx.page = page;
  const c = doc.cover;
  let y = h - spec.margin;
  if (c.logo !== "none") run(ctx, c.logo === "letterspaced" ? c.name.toUpperCase() : c.name, spec.margin, y - 22, { font: fonts.bold, size: 22, color: spec.accent, spacing: c.logo === "letterspaced" ? 5 : 0 });
  y -= 30;
  y -= para(ctx, `${c.tagline}${c.lines.length ? " | " + c.lines.join(" | ") : ""}`, spec.margin, y, w - 2 * spec.margin, { font: fonts.italic, size: 10, color: spec.muted });
  line(ctx, spec.margin, y - 4, w - spec.margin, y - 4, spec.accent, 1);
  y -= 14;
  const top = y;
  let col = 0;
  const pages: PDFPage[] = [page];
  for (const slide of doc.slides) {
    const x = spec.margin + col * (colW + 20);
    // measure
    const save: PDFPage | null = ctx.page;
    ctx.page = null;
    const need = 20 + slide.blocks.reduce((a, b) => a + block(ctx, b, x, y, colW) + 4, 0);
    ctx.page = save;
    if (y - need < 50) {
      if (col === 0) col = 1;
      else {
        page = pdf.addPage(spec.size);
        pages.push(page);
        ctx.page = page;
        col = 0;
      }
      y = col === 1 && pages.length === 1 ? top : col === 1 ? h - spec.margin : h - spec.margin;
    }
    const cx = spec.margin + col * (colW + 20);
    run(ctx, slide.title.toUpperCase(), cx, y - 11, { font: fonts.bold, size: 10.5, color: spec.accent });
    y -= 18;
    for (const b of slide.blocks) y -= block(ctx, b, cx, y, colW) + 4;
    y -= 6;
  }
  pages.forEach((p, i) => {
    ctx.page = p;
    footer(ctx, doc, i + 1, pages.length);
  });
}

export async function renderPdf(doc: DeckDoc, style: PdfStyle, r: Rand): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const spec = SPECS[style];
  pdf.setTitle(r.chance(0.5) ? `${doc.cover.name} - ${r.pick(["Pitch Deck", "Investor Presentation", "Deck"])}` : r.pick(["Presentation1", "deck_final_v7", "Untitled presentation"]));
  pdf.setAuthor(r.pick(["", "Keynote", "Microsoft Office User", "Canva"]));
  pdf.setCreationDate(new Date(Date.UTC(2025, 9, 1)));
  pdf.setModificationDate(new Date(Date.UTC(2025, 9, 1)));
  const fonts: Fonts = { body: await pdf.embedFont(spec.body), bold: await pdf.embedFont(spec.bold), italic: await pdf.embedFont(spec.italic) };
  if (style === "onepager-a4") {
    await onePager(doc, pdf, fonts, r);
    return pdf.save({ useObjectStreams: r.chance(0.5) });
  }
  const total = doc.slides.length + 1;
  const ctx: Ctx = { page: null, fonts, spec, r, style };
  const background = () => {
    const page = pdf.addPage(spec.size);
    ctx.page = page;
    if (spec.bg.red < 0.99 || spec.bg.green < 0.99) rect(ctx, 0, 0, spec.size[0], spec.size[1], spec.bg);
    return page;
  };
  background();
  coverPage(ctx, doc);
  doc.slides.forEach((s, i) => {
    background();
    slidePage(ctx, doc, s, i + 2, total);
  });
  return pdf.save({ useObjectStreams: r.chance(0.5) });
}
