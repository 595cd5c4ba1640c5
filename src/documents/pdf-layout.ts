// A PDF page's text as its layout shows it. pdf.js hands out text runs in content-stream order,
// each with its position; concatenating them glues separately placed boxes together ("CHF 4.25
// millionSeed round") and interleaves columns. Here runs are put on lines by their baselines, a
// line is cut where a wide gap separates two boxes, the pieces are stacked into blocks (a text box,
// a column, a person's card), and the blocks are read in the order recursive cuts along the page's
// whitespace give (rows top to bottom, columns left to right). A grid of short cells in one font
// size that line up row by row (a table) is read row by row, its cells joined by
// " | " as the Office readers join table cells. Blocks are separated by a blank line, and so is a
// line that ends its paragraph well before the block's edge.

/** A pdf.js text item: its string, its text-space matrix (PDF user space) and its advance width. */
export type PositionedText = { str: string; transform: number[]; width: number; height: number };

type Run = { text: string; x0: number; x1: number; y: number; size: number; spaced: [boolean, boolean] };
type Segment = { text: string; x0: number; x1: number; y: number; size: number; line: number };
type Block = { segments: Segment[]; x0: number; x1: number; top: number; bottom: number; table?: string };

// In ems of the larger of two neighbours' font sizes.
const SPACE_GAP = 0.15; // wider than kerning, narrower than a word space
const BOX_GAP = 1.8; // wider than any word space in justified text: two boxes or two columns
const COLUMN_GAP = 0.8; // wider than a word space: two cells, when other lines start a piece there too
const GUTTER = 0.3; // wider than a word space: two boxes, where other lines start boxes at the same x
const CENTRED_GAP = 1.2; // two cards, where one other line is centred under the piece
const SAME_LINE = 0.45; // baselines closer than this are one line
const LINE_GAP = 1.2; // from one line's baseline to the next line's top, within a block
const ROW_GAP = 3; // from one table row's baseline to the next's, at most
const ALIGNED = 1; // cell edges this close line up
// A page cut into rows that run across it (rows of cards, a title band) reads row by row unless
// the whitespace between columns is clearly wider: slides are laid out in bands more often than
// in columns that run the whole height.
const ROWS_FIRST = 1.5;
const BAND = 1.5; // in ems: whitespace this high across the page separates bands
const BANDED_COLUMNS = 5;

type Matrix = [number, number, number, number, number, number];
const multiply = (m: Matrix, n: number[]): Matrix => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
];

/**
 * @param items the page's text items as pdf.js gives them
 * @param viewport the page viewport's transform at scale 1 (PDF space to top-down page space, the
 * page's /Rotate included); without it y is simply flipped
 */
export function layoutText(items: PositionedText[], viewport: number[] = [1, 0, 0, -1, 0, 0]): string {
  // Runs by the direction their text runs in: upright text, and each angle of turned text (an axis
  // label, a vertical banner) read on its own in its own frame, never spliced into upright lines.
  const frames = new Map<number, Run[]>();
  for (const item of items) {
    // "U S E": letters set apart (tracking) that pdf.js joined with spaces of its own are one word.
    const text = /^\s*(?:\S ){2,}\S\s*$|^\s*\p{Lu} \p{Lu}\s*$/u.test(item.str) ? item.str.replace(/(\S) (?=\S)/gu, "$1") : item.str.replace(/\s+/g, " ");
    if (!text.trim()) continue;
    const m = multiply(viewport as Matrix, item.transform);
    const size = Math.hypot(m[2], m[3]) || item.height || 1;
    const angle = Math.round((Math.atan2(m[1], m[0]) * 180) / Math.PI / 5) * 5;
    const key = ((angle % 360) + 360) % 360;
    // Positions turned back by the text's angle: in its own frame every run reads left to right.
    const [cos, sin] = [Math.cos((-key * Math.PI) / 180), Math.sin((-key * Math.PI) / 180)];
    const x = m[4] * cos - m[5] * sin;
    const y = m[4] * sin + m[5] * cos;
    const scale = Math.hypot(m[0], m[1]) / (Math.hypot(item.transform[0], item.transform[1]) || 1);
    const run: Run = { text: text.trim(), x0: x, x1: x + item.width * scale, y, size, spaced: [/^\s/.test(text), /\s$/.test(text)] };
    frames.set(key, [...(frames.get(key) ?? []), run]);
  }
  const read = (runs: Run[]) => {
    const { rest, tables } = tablesIn(segmentsOf(linesOf(runs)));
    return readingOrder([...stackBlocks(rest), ...tables]).map(blockText);
  };
  const out = read(frames.get(0) ?? []);
  for (const [key, runs] of [...frames].sort((a, b) => a[0] - b[0])) if (key !== 0) out.push(read(runs).join("\n"));
  return out.join("\n\n");
}

/** Runs grouped by baseline, top to bottom, each line's runs left to right. */
function linesOf(runs: Run[]): Run[][] {
  const sorted = [...runs].sort((a, b) => a.y - b.y || a.x0 - b.x0);
  const lines: Run[][] = [];
  for (const run of sorted) {
    const line = lines[lines.length - 1];
    if (line && Math.abs(run.y - line[0].y) <= SAME_LINE * Math.min(run.size, line[0].size)) line.push(run);
    else lines.push([run]);
  }
  return lines.map((line) => line.sort((a, b) => a.x0 - b.x0));
}

/**
 * Each line cut into the pieces a wide gap separates; within a piece, a space where the page
 * leaves one. A narrower gap also cuts where a piece starts on other lines too (a table column
 * whose cells nearly fill their width).
 */
function segmentsOf(lines: Run[][]): Segment[][] {
  const cut = (column: (run: Run, gap: number, em: number, line: number) => boolean) =>
    lines.map((line, index) => {
      const segments: Segment[] = [];
      let prev: Run | null = null;
      const tracking = trackingOf(line);
      for (const run of line) {
        const current = segments[segments.length - 1];
        const em = prev ? Math.max(prev.size, run.size) : run.size;
        const gap = prev ? run.x0 - prev.x1 : 0;
        // The same text drawn twice at nearly the same place (a fake bold, a shadow) is read once.
        if (prev && run.text === prev.text && Math.abs(run.x0 - prev.x0) < 0.3 * em) continue;
        if (!current || gap > BOX_GAP * em || column(run, gap, em, index)) {
          segments.push({ text: run.text, x0: run.x0, x1: run.x1, y: run.y, size: run.size, line: index });
        } else {
          // Two figures set edge to edge ("£10.5bn" against "£700m") or text in clearly different sizes are two words.
          const apart = /^[$€£]/.test(run.text) && /[\p{L}\d%)]$/u.test(current.text);
          const sizes = Math.max(prev!.size, run.size) / Math.min(prev!.size, run.size) > 1.3;
          const space = gap > tracking + SPACE_GAP * em || prev!.spaced[1] || run.spaced[0] || apart || sizes;
          current.text += (space ? " " : "") + run.text;
          current.x1 = Math.max(current.x1, run.x1);
          current.size = Math.max(current.size, run.size);
        }
        prev = run;
      }
      return segments;
    });
  const first = cut(() => false);
  const starts = first.map((segs) => segs.map((s) => s.x0));
  const startsElsewhere = (x: number, line: number, em: number) => starts.filter((xs, l) => l !== line && xs.some((s) => Math.abs(s - x) <= 0.5 * em)).length >= 2;
  // Text boxes set side by side with a narrow gutter (cards in a grid): where three or more other
  // lines start a box of their own at the same x, a gap wider than a word space is the gutter.
  const boxStarts = lines.map((line) => line.filter((r) => r.text.length >= 3).map((r) => r.x0));
  const boxesStartElsewhere = (x: number, line: number, em: number) => boxStarts.filter((xs, l) => l !== line && xs.some((s) => Math.abs(s - x) <= 0.25 * em)).length >= 3;
  // Cards centred in columns (a name over its role, each line centred on the card): a run of two
  // words or more whose centre is the centre of pieces on other lines is a card's own line (two
  // such lines past a gap wider than a word space; one, past a gap wider than a word space by half).
  const centres = first.map((segs) => segs.map((s) => (s.x0 + s.x1) / 2));
  const centredElsewhere = (run: Run, line: number, em: number) =>
    /\S\s\S/.test(run.text) ? centres.filter((cs, l) => l !== line && cs.some((c) => Math.abs(c - (run.x0 + run.x1) / 2) <= 0.25 * em)).length : 0;
  return cut((run, gap, em, line) => {
    if (gap > COLUMN_GAP * em && startsElsewhere(run.x0, line, em)) return true;
    if (run.text.length >= 3 && gap > GUTTER * em && boxesStartElsewhere(run.x0, line, em)) return true;
    const centred = gap > COLUMN_GAP * em ? centredElsewhere(run, line, em) : 0;
    return centred >= 2 || (centred === 1 && gap > CENTRED_GAP * em);
  });
}

/**
 * The spacing a line adds between its letters when it is drawn glyph by glyph (letter-spaced
 * titles, exporters that place every character): the lower quartile of the gaps between its
 * one- and two-letter runs, so a word space is a gap wider than that by a space's worth. 0 when the
 * line is drawn in words.
 */
function trackingOf(line: Run[]): number {
  const gaps: number[] = [];
  for (let i = 1; i < line.length; i++) if (line[i].text.length <= 2 && line[i - 1].text.length <= 2) gaps.push(line[i].x0 - line[i - 1].x1);
  if (gaps.length < 3) return 0;
  gaps.sort((a, b) => a - b);
  return Math.max(0, gaps[Math.floor(gaps.length / 4)]);
}

// A cell that ends a sentence, or holds the end of one and the start of the next, is prose laid out in columns.
// (Three words or more: "€3 Mio." or "Inc." alone ends no sentence.)
const PROSE_CELL = /(?:\S+\s+){2,}\S*[.!?]["”’)]?$|\p{Ll}{4}[.!?] \p{Lu}/u;
const WRAP_PITCH = 1.3; // a wrapped cell's next line follows this close; the next row is further down

/**
 * Tables: two or more consecutive lines of two or more pieces each, in one font size, whose
 * pieces line up column by column (left edges, right edges or centres), none of them prose. Each
 * is read row by row, its cells joined by " | " as the Office readers join table cells; a grid of
 * cards in one size (names over roles) reads the same way. Everything else goes on to be stacked.
 */
function tablesIn(lines: Segment[][]): { rest: Segment[][]; tables: Block[] } {
  const tables: Block[] = [];
  const used = new Set<number>();
  const row = (line: Segment[]) => line.length >= 2 && line.every((s) => !PROSE_CELL.test(s.text));
  const sameSize = (a: Segment[], b: Segment[]) => [...a, ...b].every((s) => Math.abs(s.size - a[0].size) <= 0.08 * a[0].size);
  const aligned = (a: Segment[], b: Segment[]) => {
    const em = a[0].size;
    const match = (s: Segment) => a.some((o) => Math.abs(o.x0 - s.x0) <= ALIGNED * em || Math.abs(o.x1 - s.x1) <= ALIGNED * em || Math.abs(o.x0 + o.x1 - s.x0 - s.x1) <= 2 * ALIGNED * em);
    return b.filter(match).length >= Math.min(2, b.length);
  };
  for (let i = 0; i < lines.length; i++) {
    if (!row(lines[i])) continue;
    // Rows, and the lines a wrapped cell continues on (fewer pieces, each under a column).
    const rows: Segment[][] = [lines[i].map((c) => ({ ...c }))];
    let full = 1;
    let j = i;
    while (j + 1 < lines.length) {
      const next = lines[j + 1];
      const last = rows[rows.length - 1];
      if (next[0].y - lines[j][0].y > ROW_GAP * lines[j][0].size || !sameSize(lines[i], next)) break;
      const wrapped = next.length < last.length && next[0].y - lines[j][0].y <= WRAP_PITCH * next[0].size && next.every((s) => last.some((c) => Math.abs(c.x0 - s.x0) <= ALIGNED * s.size));
      if (wrapped) {
        for (const s of next) {
          const cell = last.find((c) => Math.abs(c.x0 - s.x0) <= ALIGNED * s.size)!;
          cell.text += ` ${s.text}`;
        }
      } else if (row(next) && aligned(last, next)) {
        rows.push(next.map((c) => ({ ...c })));
        full++;
      } else break;
      j++;
    }
    if (full < 2) continue;
    const cells = rows.flat();
    // Cells are short; lines of prose set side by side are long, and their next lines go on mid-sentence.
    if (cells.reduce((n, c) => n + c.text.split(" ").length, 0) / cells.length >= 6) continue;
    // (A line that starts in lower case under a long line of the same column goes on with its sentence.)
    const goesOn = rows.slice(1).flatMap((r, k) => r.map((c) => /^\p{Ll}/u.test(c.text) && rows[k].some((a) => Math.abs(a.x0 - c.x0) <= ALIGNED * c.size && a.text.split(" ").length >= 4 && !/[.!?:;]$/.test(a.text))));
    if (goesOn.length && goesOn.filter(Boolean).length * 2 >= goesOn.length) continue;
    // A table has a column of plain cells (a name, a figure, a year, "yes"); two lists set side by
    // side ("<Name>, CEO" beside "<Name>, former CFO") have entries in every column.
    const width = Math.max(...rows.map((r) => r.length));
    const plainColumn = Array.from({ length: width }, (_, k) => rows.filter((r) => r.length === width).every((r) => !/,\s|\s[—–-]\s|:\s/.test(r[k].text)));
    if (!plainColumn.some(Boolean)) continue;
    tables.push({
      segments: cells,
      x0: Math.min(...cells.map((c) => c.x0)),
      x1: Math.max(...cells.map((c) => c.x1)),
      top: rows[0][0].y - rows[0][0].size,
      bottom: lines[j][0].y,
      table: rows.map((r) => r.map((c) => c.text).join(" | ")).join("\n"),
    });
    for (let k = i; k <= j; k++) used.add(k);
    i = j;
  }
  return { rest: lines.filter((_, k) => !used.has(k)), tables };
}

const overlap = (a: { x0: number; x1: number }, b: { x0: number; x1: number }) => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);

/** Pieces stacked into blocks: a piece continues the block whose last line sits just above it and overlaps it. */
function stackBlocks(lines: Segment[][]): Block[] {
  const blocks: Block[] = [];
  for (const line of lines) {
    const taken = new Set<Block>();
    for (const seg of line) {
      let best: Block | null = null;
      let bestOverlap = 0;
      for (const block of blocks) {
        const last = block.segments[block.segments.length - 1];
        if (taken.has(block) || last.line >= seg.line) continue;
        const em = Math.max(last.size, seg.size);
        if (seg.y - seg.size - last.y > LINE_GAP * em) continue;
        const o = overlap(seg, last);
        if (o > bestOverlap) (best = block), (bestOverlap = o);
      }
      if (best) {
        best.segments.push(seg);
        best.x0 = Math.min(best.x0, seg.x0);
        best.x1 = Math.max(best.x1, seg.x1);
        best.bottom = seg.y;
        taken.add(best);
      } else {
        const block = { segments: [seg], x0: seg.x0, x1: seg.x1, top: seg.y - seg.size, bottom: seg.y };
        blocks.push(block);
        taken.add(block);
      }
    }
  }
  return blocks;
}

/** Blocks cut in two at the widest gap (wider than `min`) along one axis (y: rows, x: columns); one group when there is none. */
function split(blocks: Block[], axis: "x" | "y", min: number): { groups: Block[][]; gap: number } {
  const [lo, hi] = axis === "x" ? (["x0", "x1"] as const) : (["top", "bottom"] as const);
  const sorted = [...blocks].sort((a, b) => a[lo] - b[lo]);
  let end = -Infinity;
  let best = { at: -1, gap: min };
  sorted.forEach((b, i) => {
    if (i > 0 && b[lo] - end > best.gap) best = { at: i, gap: b[lo] - end };
    end = Math.max(end, b[hi]);
  });
  return best.at < 0 ? { groups: [blocks], gap: 0 } : { groups: [sorted.slice(0, best.at), sorted.slice(best.at)], gap: best.gap };
}

const firstLine = (b: Block) => b.segments[0].line;

/** A column of one-line labels, each on the first line of a block of its own beside it (a sidebar of section names). */
function labelsBeside(columns: Block[][]): boolean {
  const [left, ...rest] = columns;
  const right = rest.flat();
  if (left.length < 2 || !left.every((l) => !l.table && l.segments.length === 1)) return false;
  const beside = left.map((l) => right.find((o) => firstLine(o) === firstLine(l)));
  return beside.every(Boolean) && beside.filter((o) => o!.segments.length >= 2 || o!.table).length * 2 >= beside.length;
}

/**
 * Reading order by recursive cuts (XY-cut): the page is cut in two at the widest whitespace that
 * runs across it, into rows (read top to bottom) or columns (left to right), then each part the
 * same way. A sidebar of labels is read label by label with its block, not as a column.
 */
function readingOrder(blocks: Block[]): Block[] {
  if (blocks.length <= 1) return blocks;
  const em = [...blocks.map((b) => b.segments[0].size)].sort((a, b) => a - b)[Math.floor(blocks.length / 2)];
  const rows = split(blocks, "y", 0);
  const columns = split(blocks, "x", em);
  if (columns.groups.length > 1 && labelsBeside(columns.groups)) {
    if (rows.groups.length > 1) return rows.groups.flatMap(readingOrder);
    return [...blocks].sort((a, b) => firstLine(a) - firstLine(b) || a.x0 - b.x0);
  }
  // A band of whitespace of a line or more across the page is a band; columns win only when far wider.
  const banded = rows.groups.length > 1 && rows.gap >= BAND * em;
  if (columns.groups.length > 1 && (rows.groups.length === 1 || columns.gap >= (banded ? BANDED_COLUMNS : ROWS_FIRST) * rows.gap)) return columns.groups.flatMap(readingOrder);
  if (rows.groups.length > 1) return rows.groups.flatMap(readingOrder);
  return [...blocks].sort((a, b) => a.top - b.top || a.x0 - b.x0);
}

/**
 * A block's lines: a line that ends well before the block's right edge, where the next line's first
 * word would still have fitted, ends its paragraph or list item there (a blank line after it);
 * any other line wraps into the next.
 */
function blockText(b: Block): string {
  if (b.table) return b.table;
  return b.segments
    .map((s, i) => {
      const next = b.segments[i + 1];
      if (!next) return s.text;
      const perChar = (s.x1 - s.x0) / Math.max(1, s.text.length);
      const word = next.text.split(" ")[0].length;
      // With a margin: a word of wide letters takes more than the line's average per character.
      return s.x1 + perChar * (word + 1) * 1.4 + s.size < b.x1 ? `${s.text}\n` : s.text;
    })
    .join("\n");
}

