// Text out of DOCX, PPTX and XLSX without LibreOffice: their XML parts read straight from the ZIP,
// after the ZIP passes the one check every container passes (zip.ts: the directory read strictly,
// every part inflated with a hard stop at its declared size). Runs in the document child process
// (document-child.ts), never in the server's own.
import { decodeEntities, htmlTokens } from "./html-scan.ts";
import { readZip, ZIP_LIMITS, ZipError, type ZipLimits } from "./zip.ts";

export class OfficeTextError extends Error {}

/** The parts `wanted` asks for, after the whole archive passes the ZIP check. */
export function readParts(bytes: Uint8Array, wanted: (name: string) => boolean, limits: ZipLimits = ZIP_LIMITS): Map<string, string> {
  let parts: Map<string, Uint8Array>;
  try {
    parts = readZip(bytes, wanted, limits);
  } catch (error) {
    if (error instanceof ZipError) throw new OfficeTextError(error.message);
    throw error;
  }
  const decoder = new TextDecoder();
  return new Map([...parts].map(([name, data]) => [name, decoder.decode(data)]));
}

/**
 * Paragraphs (`<w:p>` / `<a:p>`) as lines; a paragraph without closing punctuation gets a full
 * stop, so a heading stays its own sentence. The XML is read by the linear tokenizer (an uploaded
 * part may be hundreds of MB of hostile markup): only the runs' text (`<w:t>`/`<a:t>`) counts,
 * not field codes, properties or drawing XML; a paragraph inside another (a text box) is its own.
 */
function paragraphs(xml: string, ns: "w" | "a"): string[] {
  const out: string[] = [];
  const open: string[][] = [];
  const [p, t, tab, br] = [`${ns}:p`, `${ns}:t`, `${ns}:tab`, `${ns}:br`];
  let inText = false;
  const flush = (parts: string[] | undefined) => {
    const text = decodeEntities((parts ?? []).join("")).replace(/[ \t]+/g, " ").trim();
    if (text) out.push(/[.!?:;]$/.test(text) ? text : `${text}.`);
  };
  for (const tok of htmlTokens(xml)) {
    const current = open.at(-1);
    if (tok.kind === "text") {
      if (inText) current?.push(tok.text);
    } else if (tok.kind === "tag") {
      if (tok.name === p && !tok.selfClosing) tok.closing ? flush(open.pop()) : open.push([]);
      else if (tok.name === t) inText = !tok.closing && !tok.selfClosing;
      else if (!tok.closing && (tok.name === tab || tok.name === br)) current?.push(tok.name === tab ? "\t" : " ");
    }
  }
  while (open.length) flush(open.pop()); // a paragraph the part never closes
  return out;
}

function need(parts: Map<string, string>, name: string): string {
  const xml = parts.get(name);
  if (xml === undefined) throw new OfficeTextError(`The file has no ${name}; it is not a complete Office document`);
  return xml;
}

export function docxPages(bytes: Uint8Array, limits: ZipLimits = ZIP_LIMITS): string[] {
  const parts = readParts(bytes, (n) => n === "word/document.xml", limits);
  return [paragraphs(need(parts, "word/document.xml"), "w").join("\n")];
}

const slideNumber = (name: string) => Number(/slide(\d+)\.xml$/.exec(name)?.[1] ?? 0);

/** One page per slide, in slide order. */
export function pptxPages(bytes: Uint8Array, limits: ZipLimits = ZIP_LIMITS): string[] {
  const parts = readParts(bytes, (n) => n === "ppt/presentation.xml" || /^ppt\/slides\/slide\d+\.xml$/.test(n), limits);
  need(parts, "ppt/presentation.xml");
  const slides = [...parts.keys()].filter((n) => n.startsWith("ppt/slides/")).sort((a, b) => slideNumber(a) - slideNumber(b));
  return slides.map((n) => paragraphs(parts.get(n)!, "a").join("\n"));
}

/** Column index of a cell reference ("C7" -> 2). */
const columnOf = (ref: string) => [...(/^[A-Z]+/.exec(ref)?.[0] ?? "A")].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0) - 1;

/** One page per sheet: "Sheet: name." then each row as its cells joined by " | ", ended as a sentence. */
export function xlsxPages(bytes: Uint8Array, limits: ZipLimits = ZIP_LIMITS): string[] {
  const parts = readParts(
    bytes,
    (n) => n === "xl/workbook.xml" || n === "xl/_rels/workbook.xml.rels" || n === "xl/sharedStrings.xml" || /^xl\/worksheets\/[^/]+\.xml$/.test(n),
    limits,
  );
  const workbook = need(parts, "xl/workbook.xml");
  const rels = new Map<string, string>();
  for (const tok of htmlTokens(parts.get("xl/_rels/workbook.xml.rels") ?? "")) {
    if (tok.kind !== "tag" || tok.closing || tok.name !== "relationship") continue;
    const { id, target } = tok.attrs;
    if (id && target) rels.set(id, target.startsWith("/") ? target.slice(1) : `xl/${target}`);
  }
  const shared = sharedStrings(parts.get("xl/sharedStrings.xml") ?? "");
  const sheets: { name: string; part: string }[] = [];
  for (const tok of htmlTokens(workbook)) {
    if (tok.kind !== "tag" || tok.closing || tok.name !== "sheet") continue;
    const i = sheets.length;
    sheets.push({ name: tok.attrs.name ?? `Sheet${i + 1}`, part: rels.get(tok.attrs["r:id"] ?? "") ?? `xl/worksheets/sheet${i + 1}.xml` });
  }
  return sheets.map(({ name, part }) => [`Sheet: ${name}.`, ...sheetRows(parts.get(part) ?? "", shared)].join("\n"));
}

/** The shared strings (`<si>`), each the text of its `<t>` runs. */
function sharedStrings(xml: string): string[] {
  const out: string[] = [];
  let item: string[] | null = null;
  let inText = false;
  for (const tok of htmlTokens(xml)) {
    if (tok.kind === "text") {
      if (item && inText) item.push(tok.text);
    } else if (tok.kind === "tag") {
      if (tok.name === "si") {
        if (tok.closing && item) out.push(decodeEntities(item.join("")));
        item = tok.closing || tok.selfClosing ? null : [];
        if (tok.selfClosing) out.push("");
      } else if (tok.name === "t") inText = !tok.closing && !tok.selfClosing;
    }
  }
  return out;
}

/** A sheet's rows: each row's cells joined by " | ", ended as a sentence. */
function sheetRows(xml: string, shared: string[]): string[] {
  const rows: string[] = [];
  let cells: string[] = [];
  // The cell being read: its attributes, and the text of its <v> value and <t> inline-string runs.
  let cell: { ref: string | undefined; type: string | undefined; v: string[] | null; t: string[] } | null = null;
  let into: string[] | null = null;
  const endCell = () => {
    if (!cell) return;
    const v = cell.v === null ? undefined : cell.v.join("");
    let value: string | null;
    if (cell.type === "s") value = v !== undefined ? (shared[Number(v)] ?? null) : null;
    else if (cell.type === "inlineStr") value = decodeEntities(cell.t.join(""));
    else value = v !== undefined ? decodeEntities(v) : null;
    const ref = cell.ref;
    cell = null;
    if (value === null || value.trim() === "") return;
    const col = ref ? columnOf(ref) : cells.length;
    while (cells.length < col) cells.push("");
    cells[col] = value.trim();
  };
  for (const tok of htmlTokens(xml)) {
    if (tok.kind === "text") {
      into?.push(tok.text);
      continue;
    }
    if (tok.kind !== "tag") continue;
    if (tok.name === "row") {
      if (tok.closing || tok.selfClosing) {
        endCell();
        const text = cells.filter((c) => c !== "").join(" | ");
        if (text) rows.push(/[.!?]$/.test(text) ? text : `${text}.`);
      }
      cells = [];
    } else if (tok.name === "c") {
      endCell();
      if (!tok.closing) cell = { ref: tok.attrs.r, type: tok.attrs.t, v: null, t: [] };
      if (tok.selfClosing) endCell();
    } else if (cell && (tok.name === "v" || tok.name === "t")) {
      if (tok.closing || tok.selfClosing) into = null;
      else into = tok.name === "v" ? (cell.v ??= []) : cell.t;
    }
  }
  return rows;
}

/** CSV rows as sentences ("cell | cell | cell."), so each row can be quoted as evidence. */
export function csvPages(text: string): string[] {
  const first = text.split(/\r?\n/, 1)[0] ?? "";
  const delimiter = [",", ";", "\t"].map((d) => [d, first.split(d).length] as const).sort((a, b) => b[1] - a[1])[0][0];
  const rows: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const cells: string[] = [];
    let cell = "";
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      if (quoted) {
        if (ch === '"' && line[i + 1] === '"') (cell += '"'), i++;
        else if (ch === '"') quoted = false;
        else cell += ch;
      } else if (ch === '"') quoted = true;
      else if (ch === delimiter) (cells.push(cell.trim()), (cell = ""));
      else cell += ch;
    }
    cells.push(cell.trim());
    const row = cells.filter(Boolean).join(" | ");
    if (row) rows.push(/[.!?]$/.test(row) ? row : `${row}.`);
  }
  return [rows.join("\n")];
}
