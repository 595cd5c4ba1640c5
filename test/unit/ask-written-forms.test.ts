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

describe("days as much of the world writes them", () => {
  test.each([
    ["ARR of Acme Robotics at 31.03.2026?", { to: "2026-03-31" }],
    ["headcount at 30/06/2026", { to: "2026-06-30" }],
    ["headcount at 06/30/2026", { to: "2026-06-30" }],
    ["distributed until 30.06.2025", { to: "2025-06-30" }],
    ["margin WHERE date = '2025-12-31'", { to: "2025-12-31" }],
  ])("%s", (q, want) => expect(range(q)).toMatchObject(want));
  // Either a day or a month first: not read as one of them (said back instead).
  test.each(["headcount at 03/04/2026", "burn at 31.02.2026"])("%s: no day", (q) => expect(normalise(q).folded).not.toMatch(/\d{4}-\d{2}-\d{2}/));
});

describe("query and formula notation, and European amounts", () => {
  test.each([
    ["count of deals where sector != 'fintech' group by stage", "count of deals where sector not fintech by stage"],
    ["active holdings WHERE ownership_pct IS NULL", "active holdings WHERE with no ownership"],
    ["SELECT name FROM holdings WHERE sector NOT IN ('Robotics', 'Fintech') AND currency = 'USD'", "holdings WHERE sector not Robotics or Fintech AND currency is USD"],
    ["SELECT kind, COUNT(*) FROM deals GROUP BY kind", "count of deals by kind"],
    ["SELECT lead_investor FROM deals", "deals lead investor"],
    ["COUNT(*) FROM my_contacts WHERE location ends with 'Germany'", "count of my contacts WHERE location in Germany"],
    ["my contacts where domain = 'quillstack.ai' order by strength desc limit 3", "my contacts where domain is quillstack.ai by strength highest first top 3"],
    ["AVG(value_multiple) for Fund II", "average value multiple for Fund II"],
    ["startups raising not more than 2,5 Mio USD", "startups raising at most 2.5m USD"],
    ["deals which have not a round bigger than 5 Mio EUR", "deals which have a round at most 5m EUR"],
    ["ARR over 1.5 Mio EUR", "ARR over 1.5m EUR"],
  ])("%s", (q, want) => expect(spokenForm(q)).toBe(want));
  // English that only looks like a query is left as it is.
  test.each(["stale relationships not touched for more than 6 months", "select the deals from fintech", "companies like Stripe", "deals in (mostly) fintech", "email john_doe@acme.com", "1,234,567 USD raised"])("%s: unchanged", (q) => expect(spokenForm(q)).toBe(q));
  // A condition on another field ends the negation before it.
  test("not robotics or fintech and currency is usd", () => {
    const s = negationScopes("holdings where sector not robotics or fintech and currency is usd");
    expect(s.negated).toContain("fintech");
    expect(s.negated).not.toContain("usd");
  });
});
