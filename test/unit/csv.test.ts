// The CSV reader every import file goes through: RFC 4180 quoting, BOM, line ends, the line each
// record starts on, and the header rules of CONTRACT.md.
import { describe, expect, test } from "bun:test";
import { cellReader } from "../../src/lib/csv-fields.ts";
import { parseCsv, readCsvTable, type ImportProblem } from "../../src/lib/csv.ts";
import { importError as failure } from "../helpers/book.ts";

const fields = (text: string) => parseCsv(text).map((r) => r.fields);
const lines = (text: string) => parseCsv(text).map((r) => r.line);

describe("parseCsv", () => {
  test("plain fields, LF, CRLF and CR line ends, a final newline or none", () => {
    expect(fields("a,b\n1,2\n")).toEqual([["a", "b"], ["1", "2"]]);
    expect(fields("a,b\r\n1,2\r\n")).toEqual([["a", "b"], ["1", "2"]]);
    expect(fields("a,b\r1,2")).toEqual([["a", "b"], ["1", "2"]]);
    expect(fields("a,b\n1,2")).toEqual([["a", "b"], ["1", "2"]]);
  });

  test("quoted fields keep commas, doubled quotes and newlines", () => {
    expect(fields('name,note\n"Acme, Inc.","said ""hi""\nthen left"\n')).toEqual([
      ["name", "note"],
      ["Acme, Inc.", 'said "hi"\nthen left'],
    ]);
  });

  test("a UTF-8 BOM is not part of the first column's name", () => {
    expect(fields("\uFEFFname,fund_name\nA,F\n")[0]).toEqual(["name", "fund_name"]);
  });

  test("empty fields, quoted or not, are fields; a blank line is no record", () => {
    expect(fields('a,b,c\n,,\n\n"",x,""\n')).toEqual([["a", "b", "c"], ["", "", ""], ["", "x", ""]]);
  });

  test("each record carries the line it starts on, counting newlines inside quotes", () => {
    // header on 1; a record spanning lines 2-3; a blank line 4; the next record on 5
    expect(lines('a,b\n"x\ny",1\n\nz,2\n')).toEqual([1, 2, 5]);
    expect(lines('a,b\r\n"x\r\ny",1\r\nz,2\r\n')).toEqual([1, 2, 4]);
  });

  test("line ends mixed in one file (rows pasted from another system), each counted once", () => {
    const text = 'a,b\n1,2\r\n"x\ry",3\r4,5\n\r\n6,7';
    expect(fields(text)).toEqual([["a", "b"], ["1", "2"], ["x\ry", "3"], ["4", "5"], ["6", "7"]]);
    expect(lines(text)).toEqual([1, 2, 3, 5, 7]);
  });

  test("doubled quotes anywhere in a quoted field; a trailing comma is one more empty field; no final newline", () => {
    expect(fields('a,b,c\n"""",x,\n"a""""b","""x"""')).toEqual([["a", "b", "c"], ['"', "x", ""], ['a""b', '"x"']]);
  });

  test("a quote inside an unquoted field is a character", () => {
    expect(fields('a\n5" screen\n')[1]).toEqual(['5" screen']);
  });

  test("an unterminated quote and text after a closing quote are errors on their line", () => {
    expect(failure(() => parseCsv('a,b\n1,2\n"open,3\n4,5', "f.csv")).problems).toEqual([
      { file: "f.csv", line: 3, message: "a quoted field is never closed" },
    ]);
    const after = failure(() => parseCsv('a,b\n"x"y,2\n', "f.csv"));
    expect(after.problems[0]).toMatchObject({ line: 2, message: expect.stringContaining("after a closing quote") });
  });
});

describe("readCsvTable", () => {
  const spec = { required: ["name", "fund_name"], optional: ["website"] };

  test("columns by trimmed, case-insensitive name; extra columns ignored; values trimmed", () => {
    const rows = readCsvTable(" Name ,EXTRA,Fund_Name\n  Acme ,x, Fund I \n", "p.csv", spec);
    expect(rows).toEqual([{ line: 2, values: new Map([["name", "Acme"], ["fund_name", "Fund I"]]) }]);
  });

  test("a missing required column is an error naming it, and what the header has", () => {
    const e = failure(() => readCsvTable("name,website\nA,a.com\n", "p.csv", spec));
    expect(e.message).toBe("p.csv: nothing imported: line 1: missing required column fund_name (the header has: name, website)");
  });

  test("an empty file, a repeated column, and rows of the wrong width are errors", () => {
    expect(failure(() => readCsvTable("", "p.csv", spec)).message).toContain("the file is empty");
    expect(failure(() => readCsvTable("name,name,fund_name\n", "p.csv", spec)).message).toContain("column name appears twice");
    const e = failure(() => readCsvTable("name,fund_name\nA\nB,F,x\nC,F\n", "p.csv", spec));
    expect(e.problems.map((p) => [p.line, p.message])).toEqual([
      [2, "1 field, the header has 2"],
      [3, "3 fields, the header has 2"],
    ]);
    expect(e.message).toStartWith("p.csv: 2 bad rows, nothing imported: line 2: 1 field, the header has 2; line 3:");
  });
});

describe("cellReader", () => {
  const read = (header: string, row: string) => {
    const problems: ImportProblem[] = [];
    const [r] = readCsvTable(`${header}\n${row}\n`, "f.csv", { required: [], optional: header.split(",") });
    return { c: cellReader("f.csv", problems)(r), problems };
  };

  test("numbers: plain decimals only; empty optional is null, never 0", () => {
    const { c, problems } = read("a,b,c,d,e", "1.5,-2,,1e3,1 000");
    expect([c.number("a"), c.number("b"), c.number("c"), c.number("d"), c.number("e")]).toEqual([1.5, -2, null, 1000, null]);
    expect(problems.map((p) => p.message)).toEqual(['e "1 000" is not a number']);
  });

  test("bounds, whole numbers and required cells", () => {
    const { c, problems } = read("a,b,c,d", "-1,2.5,0,");
    expect(c.number("a", { min: 0 })).toBeNull();
    expect(c.number("b", { integer: true })).toBeNull();
    expect(c.number("c", { positive: true })).toBeNull();
    expect(c.number("d", { required: true })).toBeNull();
    expect(problems.map((p) => p.message)).toEqual(["a must be at least 0, got -1", 'b "2.5" is not a whole number', "c must be greater than 0, got 0", "d is required"]);
  });

  test("dates are real calendar days; timestamps need a zone and become UTC", () => {
    const { c, problems } = read("a,b,c,d,e", "2024-02-29,2023-02-29,2024-01-31T09:30:00+01:00,2024-01-31T09:30:00,2024-03-01");
    expect(c.date("a")).toBe("2024-02-29");
    expect(c.date("b")).toBeNull();
    expect(c.timestamp("c")).toBe("2024-01-31T08:30:00.000Z");
    expect(c.timestamp("d")).toBeNull();
    expect(c.timestamp("e")).toBe("2024-03-01T00:00:00.000Z");
    expect(problems.map((p) => p.column)).toEqual(["b", "d"]);
  });

  test("enums (case-insensitive, with a stated default) and currencies (upper-cased)", () => {
    const { c, problems } = read("k,t,cur,bad", ",Budget,usd,US$");
    expect(c.oneOf("k", ["actual", "budget"], { otherwise: "actual" })).toBe("actual");
    expect(c.oneOf("t", ["actual", "budget"])).toBe("budget");
    expect(c.currency("cur")).toBe("USD");
    expect(c.currency("bad")).toBeNull();
    expect(problems).toEqual([{ file: "f.csv", line: 2, column: "bad", message: 'bad "US$" is not a three-letter currency code' }]);
  });
});
