// CSV files as the importers read them (RFC 4180: quoted fields with embedded commas, quotes and
// newlines; a UTF-8 BOM; CRLF, LF or CR line ends), with the line each record starts on, so a bad
// row is reported where a person will find it in an editor.
//
// readCsvTable() adds what every import file shares (CONTRACT.md, "Import formats"): a header row,
// columns matched case-insensitively, extra columns ignored, a missing required column is an error
// naming it, and a record whose field count differs from the header's is a bad row.

export type CsvRecord = { line: number; fields: string[] };

/** A file handed to an importer: its name (for messages) and its text. */
export type ImportFile = { name: string; text: string };
/** What an import did: rows read, and how many were new, changed, or already so. */
export type ImportSummary = { file: string; rows: number; inserted: number; updated: number; unchanged: number };
export type Progress = (line: string) => void;

export const emptySummary = (file: string, rows: number): ImportSummary => ({ file, rows, inserted: 0, updated: 0, unchanged: 0 });

/** `line` null: the file as a whole; `header`: a problem of the header row, not of a data row. */
export type ImportProblem = { file: string; line: number | null; column?: string; header?: boolean; message: string };

/**
 * A file (or files, imported together) that cannot be imported. Nothing of it was written;
 * `problems` says where and why.
 */
export class ImportError extends Error {
  /** One error for several files' problems, or the single error when only one file failed. */
  static combine(errors: ImportError[]): ImportError {
    if (errors.length === 1) return errors[0];
    return new ImportError(errors.map((e) => e.file).join(", "), errors.flatMap((e) => e.problems));
  }

  constructor(
    readonly file: string,
    readonly problems: ImportProblem[],
  ) {
    super(describeProblems(file, problems));
  }
}

const SHOWN = 20;

function describeProblems(file: string, problems: ImportProblem[]): string {
  const rows = new Set(problems.filter((p) => p.line !== null && !p.header).map((p) => `${p.file}:${p.line}`)).size;
  const head = rows > 0 ? `${file}: ${rows} bad row${rows === 1 ? "" : "s"}, nothing imported` : `${file}: nothing imported`;
  const where = (p: ImportProblem) => `${p.file === file ? "" : `${p.file} `}${p.line === null ? "" : `line ${p.line}`}`.trim();
  const items = problems.slice(0, SHOWN).map((p) => (where(p) ? `${where(p)}: ${p.message}` : p.message));
  const more = problems.length > SHOWN ? `; and ${problems.length - SHOWN} more` : "";
  return `${head}: ${items.join("; ")}${more}`;
}

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

/** Line breaks in text[from, to): LF, CRLF and a lone CR each count once. */
function lineBreaks(text: string, from: number, to: number): number {
  let breaks = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === LF || (c === CR && text.charCodeAt(i + 1) !== LF)) breaks++;
  }
  return breaks;
}

/**
 * Splits CSV text into records. Throws ImportError on an unterminated or misplaced quote.
 *
 * Hand-written rather than csv-parse (issue 13 weighed it, scripts/bench/csv.ts measures both):
 * csv-parse is slower on the same file, counts a CRLF inside a quoted field as two lines (so every
 * later row would be reported on the wrong line), and cannot both take a quote inside an unquoted
 * field as a character (spreadsheets write `5" screen`) and refuse text after a closing quote.
 * Each field is cut out with one slice (runs of a quoted field between doubled quotes), not built
 * a character at a time.
 */
export function parseCsv(text: string, file = "input"): CsvRecord[] {
  const records: CsvRecord[] = [];
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  const fail = (at: number, message: string) => new ImportError(file, [{ file, line: at, message }]);
  while (i < n) {
    const first = text.charCodeAt(i);
    if (first === LF || first === CR) {
      // A blank line is no record (a final newline, or spacing a person left between rows).
      i += first === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
      line++;
      continue;
    }
    const recordLine = line;
    const fields: string[] = [];
    for (;;) {
      if (text.charCodeAt(i) === QUOTE) {
        const opened = line;
        let value = "";
        for (let from = i + 1; ; ) {
          const q = text.indexOf('"', from);
          if (q < 0) throw fail(opened, "a quoted field is never closed");
          line += lineBreaks(text, from, q);
          if (text.charCodeAt(q + 1) === QUOTE) {
            value += text.slice(from, q + 1); // a doubled quote is one quote
            from = q + 2;
          } else {
            value += text.slice(from, q);
            i = q + 1;
            break;
          }
        }
        const next = text.charCodeAt(i);
        if (i < n && next !== COMMA && next !== LF && next !== CR) {
          throw fail(line, 'unexpected text after a closing quote (a quote inside a quoted field is written twice: "")');
        }
        fields.push(value);
      } else {
        // A quote inside an unquoted field is taken as a character, as spreadsheets write it.
        let end = i;
        for (let c = text.charCodeAt(end); end < n && c !== COMMA && c !== LF && c !== CR; c = text.charCodeAt(++end));
        fields.push(text.slice(i, end));
        i = end;
      }
      if (i >= n) break;
      const sep = text.charCodeAt(i);
      if (sep === COMMA) {
        i++; // a comma that ends the input leaves one more (empty) field
        continue;
      }
      i += sep === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
      line++;
      break;
    }
    records.push({ line: recordLine, fields });
  }
  return records;
}

export type CsvRow = { line: number; values: Map<string, string> };

export type TableSpec = { required: readonly string[]; optional: readonly string[] };

/**
 * The records of a CSV file under its header, by column name (lower-cased, trimmed). Values are
 * trimmed; an absent optional column reads as "". Throws ImportError for a missing required column
 * or rows whose field count differs from the header's.
 */
export function readCsvTable(text: string, file: string, spec: TableSpec): CsvRow[] {
  const records = parseCsv(text, file);
  if (records.length === 0) throw new ImportError(file, [{ file, line: null, message: "the file is empty (a header row is required)" }]);
  const [header, ...body] = records;
  const names = header.fields.map((h) => h.trim().toLowerCase());
  const problems: ImportProblem[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    if (name && seen.has(name)) problems.push({ file, line: header.line, header: true, message: `column ${name} appears twice in the header` });
    seen.add(name);
  }
  const missing = spec.required.filter((c) => !seen.has(c));
  if (missing.length) {
    problems.push({
      file,
      line: header.line,
      header: true,
      message: `missing required column${missing.length === 1 ? "" : "s"} ${missing.join(", ")} (the header has: ${names.filter(Boolean).join(", ") || "nothing"})`,
    });
  }
  if (problems.length) throw new ImportError(file, problems);
  const wanted = new Map<string, number>();
  for (const c of [...spec.required, ...spec.optional]) if (seen.has(c)) wanted.set(c, names.indexOf(c));
  const rows: CsvRow[] = [];
  for (const r of body) {
    if (r.fields.length !== names.length) {
      problems.push({ file, line: r.line, message: `${r.fields.length} field${r.fields.length === 1 ? "" : "s"}, the header has ${names.length}` });
      continue;
    }
    const values = new Map<string, string>();
    for (const [c, idx] of wanted) values.set(c, r.fields[idx].trim());
    rows.push({ line: r.line, values });
  }
  if (problems.length) throw new ImportError(file, problems);
  return rows;
}
