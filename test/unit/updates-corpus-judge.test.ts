// The investor-updates corpus's judge on hand-made readings: a perfect reading scores 1, traps,
// wrong periods and figures from non-updates are counted, review is credited; and the committed dev
// labels are well formed.
import { describe, expect, test } from "bun:test";
import { judge, loadLabels, sameValue, type Label, type Result } from "../fixtures/updates-corpus/judge.ts";

const labels: Label[] = [
  {
    file: "a.eml",
    company_id: "c1",
    is_update: true,
    figures: [
      { metric: "arr", value: 1_200_000, currency: "USD", unit: null, period_end: "2026-10-31", expect: "applied" },
      { metric: "headcount", value: 25, currency: null, unit: "people", period_end: "2026-10-31", expect: "applied" },
      { metric: "monthly_burn", value: 118_000, currency: "USD", unit: null, period_end: "2026-10-31", expect: "needs_review", review_reason: "conflict", existing_actual: 100_000 },
    ],
    traps: [{ metric: "arr", value: 2_000_000, note: "a forecast" }],
  },
  {
    file: "b.mbox#2",
    message_id: "<b2@x>",
    company_id: "c2",
    is_update: true,
    figures: [{ metric: "mrr", value: 90_000, currency: "EUR", unit: null, period_end: null, expect: "needs_review", review_reason: "ambiguous_period", likely_period_end: "2026-09-30" }],
    traps: [],
  },
  { file: "c.eml", company_id: null, is_update: false, figures: [], traps: [] },
];

const ok = (metric: string, value: number, period_end: string | null, status = "applied", currency: string | null = null) => ({ metric, value, period_end, status, currency });

describe("judge", () => {
  test("a perfect reading", () => {
    const results: Result[] = [
      { file: "a.eml", figures: [ok("arr", 1_200_000, "2026-10-31", "applied", "USD"), ok("headcount", 25, "2026-10-31"), ok("monthly_burn", 118_000, "2026-10-31", "needs_review", "USD")] },
      { message_id: "<b2@x>", figures: [ok("mrr", 90_000, "2026-09-30", "needs_review", "EUR")] },
      { file: "c.eml", figures: [] },
    ];
    const s = judge(labels, results);
    expect(s).toMatchObject({ precision: 1, recall: 1, applied: 2, expected_applied: 2, ambiguous_expected: 1, ambiguous_to_review: 1, conflicts_expected: 1, conflicts_to_review: 1 });
    expect(s.wrong_applied).toEqual([]);
    expect(s.traps_applied).toEqual([]);
    expect(s.results_missing).toEqual([]);
  });

  test("traps, wrong periods, wrong currencies, review items applied and non-updates are counted", () => {
    const results: Result[] = [
      {
        file: "a.eml",
        figures: [
          ok("arr", 1_200_000, "2026-09-30", "applied", "USD"), // wrong period
          ok("headcount", 25, "2026-10-31T00:00:00.000Z"), // a timestamp is the same day
          ok("arr", 2_000_000, "2026-10-31", "applied", "USD"), // the forecast
          ok("monthly_burn", 118_000, "2026-10-31", "applied", "USD"), // a conflict applied
        ],
      },
      { file: "b.mbox#2", figures: [ok("mrr", 90_000, "2026-09-30", "applied", "EUR")] },
      { file: "c.eml", figures: [ok("headcount", 40, null, "needs_review")] },
    ];
    const s = judge(labels, results);
    expect(s.applied).toBe(5);
    expect(s.applied_correct).toBe(1);
    expect(s.precision).toBeCloseTo(0.2);
    expect(s.recall).toBeCloseTo(0.5);
    expect(s.wrong_applied.map((w) => w.why)).toEqual([
      "right value, wrong period or currency",
      "a trap: a forecast",
      "should have gone to review (conflict)",
      "should have gone to review (ambiguous_period)",
    ]);
    expect(s.traps_applied.length).toBe(1);
    expect(s.ambiguous_to_review).toBe(0);
    expect(s.conflicts_to_review).toBe(0);
    expect(s.non_updates_with_figures).toEqual(["c.eml"]);
  });

  test("a currency that differs is not a match; a missing reading counts as nothing read", () => {
    const s = judge(labels, [{ file: "a.eml", figures: [ok("arr", 1_200_000, "2026-10-31", "applied", "EUR")] }]);
    expect(s.applied_correct).toBe(0);
    expect(s.results_missing).toEqual(["b.mbox#2", "c.eml"]);
    expect(s.recall).toBe(0);
  });

  test("values agree to a millionth", () => {
    expect(sameValue(1.2 * 1_000_000, 1_200_000)).toBe(true);
    expect(sameValue(71.3, 71.3)).toBe(true);
    expect(sameValue(1_200_001, 1_200_000)).toBe(true);
    expect(sameValue(1_210_000, 1_200_000)).toBe(false);
    expect(sameValue(71, 0.71)).toBe(false);
  });
});

describe("the dev labels", () => {
  test("are well formed and score 1 against themselves", async () => {
    const dev = await loadLabels("dev");
    expect(dev.length).toBeGreaterThan(80);
    const metrics = new Set(["arr", "mrr", "revenue", "monthly_burn", "cash", "runway_months", "headcount", "customers", "gross_margin", "net_revenue_retention"]);
    for (const l of dev) {
      for (const f of l.figures) {
        expect(metrics.has(f.metric), `${l.file} ${f.metric}`).toBe(true);
        expect(f.expect === "applied" ? /^\d{4}-\d{2}-\d{2}$/.test(f.period_end ?? "") : true, `${l.file} ${f.metric}`).toBe(true);
        if (f.expect === "needs_review") expect(["ambiguous_period", "conflict"]).toContain(f.review_reason!);
      }
      if (!l.is_update) expect(l.figures).toEqual([]);
    }
    const self: Result[] = dev.map((l) => ({ file: l.file, figures: l.figures.map((f) => ({ ...f, period_end: f.period_end ?? f.likely_period_end ?? null, status: f.expect })) }));
    const s = judge(dev, self);
    expect(s).toMatchObject({ precision: 1, recall: 1, traps_applied: [], wrong_applied: [], non_updates_with_figures: [] });
    expect(s.ambiguous_to_review).toBe(s.ambiguous_expected);
  });
});
