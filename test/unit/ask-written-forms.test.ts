// How the ask reader takes forms partners, assistants and dictation write: calendar days, spans back
// from the latest statement, dictated years and amounts, a negated act, and the spans it must not misread.
import { describe, expect, test } from "bun:test";
import { datesIn } from "../../src/engines/builtin/ask-dates.ts";
import { monthsAgo } from "../../src/engines/builtin/ask-history.ts";
import { negationScopes } from "../../src/engines/builtin/ask-sets.ts";
import { normalise, spokenForm } from "../../src/engines/builtin/ask-text.ts";

const today = new Date("2026-11-20T00:00:00Z");
const range = (q: string) => datesIn(normalise(q).folded, today)?.range ?? null;

describe("calendar days", () => {
  test.each([
    ["lumen gross margin at 2025-09-30", { from: null, to: "2025-09-30", label: "2025-09-30" }],
    ["nav as of 31 March 2025", { from: null, to: "2025-03-31", label: "2025-03-31" }],
    ["its 2025-12-31 mark", { from: null, to: "2025-12-31", label: "2025-12-31" }],
    ["deals created on 2026-10-15", { from: "2026-10-15", to: "2026-10-15", label: "2026-10-15" }],
    ["deals created on or after 2026-10-15", { from: "2026-10-15", to: "2026-11-20" }],
    ["between 2024-01-01 and 2024-06-30", { from: "2024-01-01", to: "2024-06-30" }],
  ])("%s", (q, want) => expect(range(q)).toMatchObject(want));

  test("a day stays one word, whatever punctuation follows it", () => {
    expect(normalise("burn at 2026-01-31, and now?").folded).toContain("2026-01-31");
  });
});

describe("years as typed and said", () => {
  test.each([
    ["capital calls 2025 total", "2025-01-01", "2025-12-31"],
    ["distributions received 2025", "2025-01-01", "2025-12-31"],
    ["during calendar year 2024", "2024-01-01", "2024-12-31"],
    ["the quarter-ends of 2025", "2025-01-01", "2025-12-31"],
    ["arr at the end of twenty twenty five", "2025-12-01", "2025-12-31"],
  ])("%s", (q, from, to) => expect(range(q)).toMatchObject({ from, to }));

  test("a year followed by a unit is a number, not a year", () => {
    expect(range("portcos with arr 2025 usd")).toBeNull();
  });

  test("a range that has not begun keeps its end (never ending before it starts)", () => {
    const r = range("headcount at the end of 2026")!;
    expect(r.from! <= r.to!).toBe(true);
  });
});

describe("dictation", () => {
  test.each([
    ["burning more than three hundred k a month", "burning more than 300k a month"],
    ["raising over two million", "raising over 2m"],
    ["one point five million burn", "1.5m burn"],
    ["two and a half million", "2.5m"],
    ["a hundred and twenty people", "120 people"],
    ["quill a r r in twenty nineteen", "quill arr in 2019"],
    ["two thousand and twenty three vintage", "2023 vintage"],
  ])("%s", (said, typed) => expect(spokenForm(said)).toBe(typed));

  test("words that are not an amount or an acronym stay", () => {
    expect(spokenForm("top five deals, one of them in a b testing")).toBe("top five deals, one of them in a b testing");
  });
});

describe("spans back from the latest statement", () => {
  test.each([
    ["what was it six months ago", 6],
    ["headcount two quarters ago", 6],
    ["arr 18 months ago", 18],
    ["burn half a year ago", 6],
    ["a year ago", 12],
  ])("%s", (q, months) => expect(monthsAgo(normalise(q).folded)).toBe(months));

  test("'since N months ago' is a calendar anchor, not a span back", () => {
    expect(monthsAgo(normalise("grown since 6 months ago").folded)).toBeNull();
  });
});

describe("a negated act", () => {
  test("negates the act, not the place said after it", () => {
    const s = negationScopes("deals that we did not pass on in fintech");
    expect(s.negated).toBe("not pass on");
    expect(s.positive).toContain("in fintech");
  });
  test("a date after it stays inside the negation", () => {
    expect(negationScopes("companies that haven t reported in the last 3 months").negated).toContain("last 3 months");
  });
  test("a copula's place is negated", () => {
    expect(negationScopes("deals that aren t in fintech").negated).toContain("fintech");
  });
});
