// Relative dates as partners say them, read into calendar-day ranges at a fixed "now" (Friday
// 2026-11-20): calendar periods, rolling windows, named months and quarters, years, explicit days.
import { expect, test } from "bun:test";
import { datesIn } from "../../src/engines/builtin/ask-dates.ts";

const NOW = new Date("2026-11-20T12:00:00.000Z");

const CASES: [string, string | null, string | null][] = [
  ["deals that came in today", "2026-11-20", "2026-11-20"],
  ["tvpi since the end of last year", "2025-12-31", "2026-11-20"],
  ["burn since year end", "2025-12-31", "2026-11-20"],
  ["arr since the end of q2", "2026-06-30", "2026-11-20"],
  ["headcount since the start of the year", "2026-01-01", "2026-11-20"],
  ["what came in yesterday", "2026-11-19", "2026-11-19"],
  ["this week", "2026-11-16", "2026-11-20"],
  ["last week", "2026-11-09", "2026-11-15"],
  ["the past week", "2026-11-13", "2026-11-20"],
  ["this month", "2026-11-01", "2026-11-20"],
  ["month to date", "2026-11-01", "2026-11-20"],
  ["last month", "2026-10-01", "2026-10-31"],
  ["over the last month", "2026-10-20", "2026-11-20"],
  ["this quarter", "2026-10-01", "2026-11-20"],
  ["last quarter", "2026-07-01", "2026-09-30"],
  ["this year", "2026-01-01", "2026-11-20"],
  ["ytd", "2026-01-01", "2026-11-20"],
  ["last year", "2025-01-01", "2025-12-31"],
  ["over the past year", "2025-11-20", "2026-11-20"],
  ["in the last 30 days", "2026-10-21", "2026-11-20"],
  ["the past 90 days", "2026-08-22", "2026-11-20"],
  ["last 6 months", "2026-05-20", "2026-11-20"],
  ["the last two weeks", "2026-11-06", "2026-11-20"],
  ["last couple of months", "2026-09-20", "2026-11-20"],
  ["in 2025", "2025-01-01", "2025-12-31"],
  ["in 2026", "2026-01-01", "2026-11-20"],
  ["since 2024", "2024-01-01", "2026-11-20"],
  ["before 2020", null, "2019-12-31"],
  ["since september", "2026-09-01", "2026-11-20"],
  ["since march 2025", "2025-03-01", "2026-11-20"],
  ["in june", "2026-06-01", "2026-06-30"],
  ["in december", "2025-12-01", "2025-12-31"],
  ["october 2024", "2024-10-01", "2024-10-31"],
  ["q3", "2026-07-01", "2026-09-30"],
  ["q4", "2026-10-01", "2026-11-20"],
  ["q1 2025", "2025-01-01", "2025-03-31"],
  ["between 2024-01-01 and 2024-06-30", "2024-01-01", "2024-06-30"],
  ["since 2026-10-15", "2026-10-15", "2026-11-20"],
];

for (const [text, from, to] of CASES) {
  test(`"${text}" is ${from ?? "the start"} to ${to}`, () => {
    const found = datesIn(text, NOW);
    expect(found?.range).toMatchObject({ from, to });
  });
}

test("no date: a question without one, a verb that looks like a month, a year that is a vintage", () => {
  for (const text of ["which deals are at ic", "may i see the pipeline", "top 5 deals by score", "what is the runway of acme"]) expect(datesIn(text, NOW), text).toBeNull();
});

test("the label is what the question said, without its preposition", () => {
  expect(datesIn("deals added over the last 6 months", NOW)!.range.label).toBe("last 6 months");
  expect(datesIn("calls in q3", NOW)!.range.label).toBe("q3");
});
