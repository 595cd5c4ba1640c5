// Dates as partners say them, turned into calendar-day ranges with the caller's clock: "this
// month", "last quarter", "in the past 90 days", "since March", "in 2025", "Q3 2026", "June",
// "year to date", "between 2024-01-01 and 2024-06-30", halves ("H1 2025"), "since Q1", weekdays
// ("since last Monday"), days of a month ("since March 3"), open ends ("before June"). Weeks start on Monday; "last month" is the
// previous calendar month, "the past month" the last 30 days. All in UTC, like the records' dates.
import type { DateRange } from "../ask-engine.ts";

const DAY = 86_400_000;
const iso = (d: Date) => d.toISOString().slice(0, 10);
const utc = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d));
const endOfMonth = (y: number, m: number) => utc(y, m + 1, 0);

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const MONTH = String.raw`(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)`;
const monthIndex = (word: string) => MONTHS.findIndex((m) => m.startsWith(word.slice(0, 3)));

const NUMBER_WORDS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, couple: 2, few: 3, several: 3 };
const COUNT = String.raw`(\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|couple|few|several)(?: of)?`;
const countOf = (w: string) => (/^\d+$/.test(w) ? Number(w) : NUMBER_WORDS[w]);

/** A rule's range; `point`: one day said as a point ("as of 31 March 2025"), labelled by that day. */
type Rule = [RegExp, (m: RegExpExecArray, today: Date) => { from: Date | null; to: Date | null; point?: boolean } | null];

function quarterOf(q: number, year: number) {
  return { from: utc(year, (q - 1) * 3, 1), to: endOfMonth(year, q * 3 - 1) };
}

/** A month (or quarter) without a year: this year's, unless it has not begun yet (then last year's). */
const yearFor = (monthStart: number, today: Date) => (monthStart > today.getUTCMonth() ? today.getUTCFullYear() - 1 : today.getUTCFullYear());

const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const WEEKDAY = String.raw`(sunday|monday|tuesday|wednesday|thursday|friday|saturday)`;
/** The most recent such weekday before today ("since last Monday" on a Friday is four days ago: the answer states the day). */
const lastWeekday = (name: string, t: Date) => new Date(t.getTime() - ((t.getUTCDay() - WEEKDAYS.indexOf(name) + 7) % 7 || 7) * DAY);
/** A half of a year: H1 is January to June. */
const halfOf = (h: number, year: number) => ({ from: utc(year, h === 1 ? 0 : 6, 1), to: endOfMonth(year, h === 1 ? 5 : 11) });
const HALF = String.raw`(?:h([12])|(first|second|1st|2nd) half)(?: of)?`;
const DAY_OF_MONTH = String.raw`(?:(\d{1,2})(?:st|nd|rd|th)? (?:of )?${MONTH}|${MONTH} (\d{1,2})(?:st|nd|rd|th)?)(?:,? (20\d{2}))?`;
const dayOfMonth = (m: RegExpExecArray, at: number, t: Date) => {
  const month = monthIndex(m[at + 1] ?? m[at + 2]);
  const day = Number(m[at] ?? m[at + 3]);
  const year = m[at + 4] ? Number(m[at + 4]) : utc(t.getUTCFullYear(), month, day) > t ? t.getUTCFullYear() - 1 : t.getUTCFullYear();
  return utc(year, month, day);
};

const RULES: Rule[] = [
  // Part of a month: "the first half of September" (1st-15th), "second half of March 2026", "early/mid/late June" (thirds).
  [new RegExp(String.raw`\b(?:(first|second|1st|2nd) half of|(early|mid|late)[ -]?) ${MONTH}(?: (20\d{2}))?\b`), (m, t) => {
    const month = monthIndex(m[3]);
    const year = m[4] ? Number(m[4]) : yearFor(month, t);
    const last = endOfMonth(year, month).getUTCDate();
    const [from, to] = m[1] ? (/^(?:first|1st)$/.test(m[1]) ? [1, 15] : [16, last]) : m[2] === "early" ? [1, 10] : m[2] === "mid" ? [11, 20] : [21, last];
    return { from: utc(year, month, from), to: utc(year, month, to) };
  }],
  // Halves: "H1 2025", "the first half of 2025", "H2" (this year's when it has begun).
  [new RegExp(String.raw`\bsince ${HALF}(?: (20\d{2}))?\b`), (m, t) => {
    const h = m[1] ? Number(m[1]) : /^(?:first|1st)$/.test(m[2]) ? 1 : 2;
    const year = m[3] ? Number(m[3]) : yearFor(h === 1 ? 0 : 6, t);
    return { from: halfOf(h, year).from, to: t };
  }],
  [new RegExp(String.raw`\b${HALF}(?: (20\d{2}))?\b`), (m, t) => {
    const h = m[1] ? Number(m[1]) : /^(?:first|1st)$/.test(m[2]) ? 1 : 2;
    return halfOf(h, m[3] ? Number(m[3]) : yearFor(h === 1 ? 0 : 6, t));
  }],
  // "Since the end of last year", "since year end", "since the end of Q2": from that period's last day
  // (its closing statement is where the change starts); "since the start of the year": from its first.
  [/\bsince (?:the )?(?:end of (?:last year|the last year|the previous year|(20\d{2}))|(?:last )?year[- ]?end|ye)\b/, (m, t) => ({ from: utc(m[1] ? Number(m[1]) : t.getUTCFullYear() - 1, 11, 31), to: t })],
  [/\bsince (?:the )?end of q([1-4])(?: (20\d{2}))?\b/, (m, t) => ({ from: quarterOf(Number(m[1]), m[2] ? Number(m[2]) : yearFor((Number(m[1]) - 1) * 3, t)).to, to: t })],
  [/\bsince (?:the )?(?:start|beginning) of (?:the |this )?year\b/, (_m, t) => ({ from: utc(t.getUTCFullYear(), 0, 1), to: t })],
  [/\b(?:since|from) (?:the )?(?:start|beginning) of (20\d{2})\b/, (m, t) => ({ from: utc(Number(m[1]), 0, 1), to: t })],
  // "since Q1", "since Q3 2025": from the quarter's start to today.
  [/\bsince (?:the )?q([1-4])(?: of)?(?: (20\d{2}))?\b/, (m, t) => ({ from: quarterOf(Number(m[1]), m[2] ? Number(m[2]) : yearFor((Number(m[1]) - 1) * 3, t)).from, to: t })],
  // "since last Monday", "since Tuesday", "last Friday".
  [new RegExp(String.raw`\bsince (last |this )?${WEEKDAY}\b`), (m, t) => ({ from: lastWeekday(m[2], t), to: t })],
  [new RegExp(String.raw`\b(?:on )?(last |this |past )?${WEEKDAY}\b`), (m, t) => {
    const d = lastWeekday(m[2], t);
    return { from: d, to: d };
  }],
  // "since March 3", "before 1 June 2026", "after October 15".
  [new RegExp(String.raw`\b(?:since|after|from) ${DAY_OF_MONTH}\b`), (m, t) => ({ from: dayOfMonth(m, 1, t), to: t })],
  [new RegExp(String.raw`\b(?:before|until|till|up to) ${DAY_OF_MONTH}\b`), (m, t) => ({ from: null, to: new Date(dayOfMonth(m, 1, t).getTime() - DAY) })],
  // "before March", "before June 2025": up to the month's start; "after March": from the next month.
  [new RegExp(String.raw`\b(?:before|prior to|until|till) ${MONTH}(?: (20\d{2}))?\b`), (m, t) => {
    const month = monthIndex(m[1]);
    const year = m[2] ? Number(m[2]) : yearFor(month, t);
    return { from: null, to: new Date(utc(year, month, 1).getTime() - DAY) };
  }],
  [new RegExp(String.raw`\bafter ${MONTH}(?: (20\d{2}))?\b`), (m, t) => {
    const month = monthIndex(m[1]);
    const year = m[2] ? Number(m[2]) : yearFor(month, t);
    return { from: utc(year, month + 1, 1), to: t };
  }],
  // "between March and June", "from January to April 2026".
  [new RegExp(String.raw`\b(?:between|from) ${MONTH}(?: (20\d{2}))? (?:and|to|through|until|till) ${MONTH}(?: (20\d{2}))?\b`), (m, t) => {
    const y2 = m[4] ? Number(m[4]) : m[2] ? Number(m[2]) : yearFor(monthIndex(m[3]), t);
    const y1 = m[2] ? Number(m[2]) : monthIndex(m[1]) <= monthIndex(m[3]) ? y2 : y2 - 1;
    return { from: utc(y1, monthIndex(m[1]), 1), to: endOfMonth(y2, monthIndex(m[3])) };
  }],
  [/\b(?:in |over |during )?(?:the )?(?:last|past) fortnight\b/, (_m, t) => ({ from: new Date(t.getTime() - 14 * DAY), to: t })],
  [/\bearlier this year\b/, (_m, t) => ({ from: utc(t.getUTCFullYear(), 0, 1), to: t })],
  // "By end of 2025", "as of the end of Q3 2025": everything up to that day (what had been called by then, the figure then).
  [/\b(?:by|through|thru|until|till|up to|as at|as of) (?:the )?(?:(?:year[ -]end|end of(?: the)? year|eoy|end of)(?: of)? (20\d{2})|end of q([1-4])(?: of)? (20\d{2}))\b/, (m) => ({ from: null, to: m[1] ? utc(Number(m[1]), 11, 31) : quarterOf(Number(m[2]), Number(m[3])).to })],
  // "Each quarter-end of 2025", "the month-ends in 2026": every statement of that year (the quarter-ends among them).
  [/\b(?:(?:each|every|all|the) )?(?:quarter|month)[ -]?ends? (?:of|in|for|during) (20\d{2})\b/, (m) => ({ from: utc(Number(m[1]), 0, 1), to: utc(Number(m[1]), 11, 31) })],
  // "year end 2025", "end of 2025", "EOY 2025": the year's last quarter, whose last statement is the year's end.
  // (Its last month: a monthly figure is December's; a fund's year-end mark is dated December 31.)
  [/\b(?:(?:at )?(?:the )?year[ -]end|end of(?: the)? year|eoy|end of)(?: of)? (20\d{2})\b/, (m) => ({ from: utc(Number(m[1]), 11, 1), to: utc(Number(m[1]), 11, 31) })],
  [/\bbetween (\d{4}-\d{2}-\d{2}) and (\d{4}-\d{2}-\d{2})\b|\bfrom (\d{4}-\d{2}-\d{2}) (?:to|until|through) (\d{4}-\d{2}-\d{2})\b/, (m) => ({ from: new Date(m[1] ?? m[3]), to: new Date(m[2] ?? m[4]) })],
  [/\b(?:since|after|from) (\d{4}-\d{2}-\d{2})\b/, (m, t) => ({ from: new Date(m[1]), to: t })],
  [/\bbefore (\d{4}-\d{2}-\d{2})\b/, (m) => ({ from: null, to: new Date(Date.parse(m[1]) - DAY) })],
  [/\bon or after (\d{4}-\d{2}-\d{2})\b/, (m, t) => ({ from: new Date(m[1]), to: t })],
  [/\bon or before (\d{4}-\d{2}-\d{2})\b/, (m) => ({ from: null, to: new Date(m[1]) })],
  // One day, as an assistant writes it ("as of 2026-03-31", "at its 2025-12-31 mark", "2025-06-30 mark",
  // "as of 31 March 2025"): what stood on that day, so the range runs up to it ("on" a day is that day alone).
  [/\b(?:(on) )?(?:(?:as of|as at|at|per|by|through|thru|until|up to) )?(?:the |its |their )?(\d{4}-\d{2}-\d{2})\b/, (m) => (Number.isFinite(Date.parse(m[2])) ? { from: m[1] ? new Date(m[2]) : null, to: new Date(m[2]), point: true } : null)],
  [new RegExp(String.raw`\b(?:(on) )?(?:(?:as of|as at|at|per|by|through|thru|until|up to) )(?:the )?${DAY_OF_MONTH}\b`), (m, t) => {
    const day = dayOfMonth(m, 2, t);
    return { from: m[1] ? day : null, to: day, point: true };
  }],
  [new RegExp(String.raw`\bon (?:the )?${DAY_OF_MONTH}\b`), (m, t) => {
    const day = dayOfMonth(m, 1, t);
    return { from: day, to: day };
  }],
  [/\btoday\b/, (_m, t) => ({ from: t, to: t })],
  // "18 months ago" is that month, "two quarters ago" that quarter (their closing statement); "10 days ago" as of that day.
  [new RegExp(String.raw`\b${COUNT} (day|week|month|quarter|year|mo|wk|yr|qtr)s? ago\b`), (m, t) => {
    const n = countOf(m[1]);
    if (!n) return null;
    const unit = m[2];
    if (unit === "day" || unit === "week" || unit === "wk") return { from: null, to: new Date(t.getTime() - (unit === "day" ? 1 : 7) * n * DAY) };
    if (unit === "quarter" || unit === "qtr") {
      const q = Math.floor(t.getUTCMonth() / 3) - n;
      const year = t.getUTCFullYear() + Math.floor(q / 4);
      const start = ((q % 4) + 4) % 4;
      return { from: utc(year, start * 3, 1), to: endOfMonth(year, start * 3 + 2) };
    }
    const back = t.getUTCFullYear() * 12 + t.getUTCMonth() - n * (unit === "year" || unit === "yr" ? 12 : 1);
    return { from: utc(Math.floor(back / 12), back % 12, 1), to: endOfMonth(Math.floor(back / 12), back % 12) };
  }],
  [/\byesterday\b/, (_m, t) => ({ from: new Date(t.getTime() - DAY), to: new Date(t.getTime() - DAY) })],
  [
    new RegExp(String.raw`\b(?:in |over |during |within |for )?(?:the )?(?:last|past|previous|prior|trailing) ${COUNT} (day|week|month|quarter|year|mo|wk|yr)s?\b`),
    (m, t) => {
      const n = countOf(m[1]);
      if (!n) return null;
      const unit = ({ mo: "month", wk: "week", yr: "year", qtr: "quarter" } as Record<string, string>)[m[2]] ?? m[2];
      const from = new Date(t);
      if (unit === "day") from.setUTCDate(from.getUTCDate() - n);
      else if (unit === "week") from.setUTCDate(from.getUTCDate() - 7 * n);
      else if (unit === "month") from.setUTCMonth(from.getUTCMonth() - n);
      else if (unit === "quarter") from.setUTCMonth(from.getUTCMonth() - 3 * n);
      else from.setUTCFullYear(from.getUTCFullYear() - n);
      return { from, to: t };
    },
  ],
  [
    // "over the last month": a rolling window, not the calendar month before this one ("last quarter" is the calendar one).
    /\b(?:over|in|within|during) the (?:last|past) (week|month|year)\b/,
    (m, t) => {
      const from = new Date(t);
      if (m[1] === "week") from.setUTCDate(from.getUTCDate() - 7);
      else if (m[1] === "month") from.setUTCMonth(from.getUTCMonth() - 1);
      else if (m[1] === "quarter") from.setUTCMonth(from.getUTCMonth() - 3);
      else from.setUTCFullYear(from.getUTCFullYear() - 1);
      return { from, to: t };
    },
  ],
  [/\b(?:this|current) week\b|\bweek to date\b/, (_m, t) => ({ from: new Date(t.getTime() - ((t.getUTCDay() + 6) % 7) * DAY), to: t })],
  [
    /\b(?:last|previous|prior) week\b/,
    (_m, t) => {
      const monday = new Date(t.getTime() - ((t.getUTCDay() + 6) % 7) * DAY);
      return { from: new Date(monday.getTime() - 7 * DAY), to: new Date(monday.getTime() - DAY) };
    },
  ],
  [/\b(?:the )?past week\b/, (_m, t) => ({ from: new Date(t.getTime() - 7 * DAY), to: t })],
  [/\b(?:this|current) month\b|\bmonth to date\b|\bmtd\b|\bso far this month\b/, (_m, t) => ({ from: utc(t.getUTCFullYear(), t.getUTCMonth(), 1), to: t })],
  [/\b(?:last|previous|prior) month\b/, (_m, t) => ({ from: utc(t.getUTCFullYear(), t.getUTCMonth() - 1, 1), to: endOfMonth(t.getUTCFullYear(), t.getUTCMonth() - 1) })],
  [/\b(?:the )?past month\b/, (_m, t) => ({ from: new Date(t.getTime() - 30 * DAY), to: t })],
  [/\b(?:this|current) quarter\b|\bquarter to date\b|\bqtd\b/, (_m, t) => ({ from: quarterOf(Math.floor(t.getUTCMonth() / 3) + 1, t.getUTCFullYear()).from, to: t })],
  [
    /\b(?:last|previous|prior) quarter\b/,
    (_m, t) => {
      const q = Math.floor(t.getUTCMonth() / 3);
      return q === 0 ? quarterOf(4, t.getUTCFullYear() - 1) : quarterOf(q, t.getUTCFullYear());
    },
  ],
  [/\b(?:this|current) year\b|\byear to date\b|\bytd\b|\bso far this year\b/, (_m, t) => ({ from: utc(t.getUTCFullYear(), 0, 1), to: t })],
  [/\b(?:last|previous|prior) year\b/, (_m, t) => ({ from: utc(t.getUTCFullYear() - 1, 0, 1), to: utc(t.getUTCFullYear() - 1, 11, 31) })],
  [/\b(?:the )?past year\b|\blast twelve months\b|\bltm\b/, (_m, t) => ({ from: new Date(t.getTime() - 365 * DAY), to: t })],
  [/\bq([1-4])(?: of)? (20\d{2})\b/, (m) => quarterOf(Number(m[1]), Number(m[2]))],
  [/\b(?:in |during |for )?(?:the )?q([1-4])\b/, (m, t) => quarterOf(Number(m[1]), yearFor((Number(m[1]) - 1) * 3, t))],
  [new RegExp(String.raw`\bfrom ${MONTH}(?: (20\d{2}))? (?:on|onwards?|forwards?)\b`), (m, t) => ({ from: utc(m[2] ? Number(m[2]) : yearFor(monthIndex(m[1]), t), monthIndex(m[1]), 1), to: t })],
  [new RegExp(String.raw`\bsince ${MONTH}(?: (20\d{2}))?\b`), (m, t) => ({ from: utc(m[2] ? Number(m[2]) : yearFor(monthIndex(m[1]), t), monthIndex(m[1]), 1), to: t })],
  [/\bsince (20\d{2}|19\d{2})\b/, (m, t) => ({ from: utc(Number(m[1]), 0, 1), to: t })],
  [/\bbefore (20\d{2}|19\d{2})\b/, (m) => ({ from: null, to: utc(Number(m[1]) - 1, 11, 31) })],
  [/\bafter (20\d{2}|19\d{2})\b/, (m, t) => ({ from: utc(Number(m[1]) + 1, 0, 1), to: t })],
  [
    new RegExp(String.raw`\b${MONTH} (20\d{2})\b`),
    (m) => ({ from: utc(Number(m[2]), monthIndex(m[1]), 1), to: endOfMonth(Number(m[2]), monthIndex(m[1])) }),
  ],
  [
    // A month alone, after a preposition ("in June", "during may"): "may" alone is a verb; or set
    // against another ("june vs september").
    new RegExp(String.raw`\b(?:in|during|for|of|from) ${MONTH}\b|\b${MONTH}(?= (?:vs|versus|against|compared? (?:to|with)) (?:the )?(?:end of )?${MONTH}\b)|(?<=\b(?:vs|versus|against|compared to|compared with) (?:the )?(?:end of )?)${MONTH}\b`),
    (m, t) => {
      const month = monthIndex(m[1] ?? m[2] ?? m[4]);
      const year = yearFor(month, t);
      return { from: utc(year, month, 1), to: endOfMonth(year, month) };
    },
  ],
  [/\b(?:in|during|for|from|of) (?:the )?(?:(?:calendar|fiscal|financial) )?(?:year )?(20\d{2}|19\d{2})\b|\b(?:calendar|fiscal|financial) year (20\d{2}|19\d{2})\b|\bcy ?(20\d{2})\b/, (m) => {
    const year = Number(m[1] ?? m[2] ?? m[3]);
    return { from: utc(year, 0, 1), to: utc(year, 11, 31) };
  }],
  // A month said before a figure ("nimbus grid october burn", "sept numbers"); "may" and "march" alone are verbs.
  [/\b(january|february|april|june|july|august|september|october|november|december|jan|feb|apr|jun|jul|aug|sept|sep|oct|nov|dec)(?= (?:burn|arr|revenue|mrr|numbers?|figures?|headcount|runway|cash|margin|gross margin|updates?|reports?|reporting|metrics?|kpis?|actuals?|financials?|results?|nav|mark|marks|calls?|distributions?|deals?|statements?|close|month-end|month end|snapshot)\b)/, (m, t) => {
    const month = monthIndex(m[1]);
    const year = yearFor(month, t);
    return { from: utc(year, month, 1), to: endOfMonth(year, month) };
  }],
  // A year said after dated records or a figure, as a search box is typed ("capital calls 2025 total",
  // "ARR history 2026", "FY2025"): that calendar year (not a number: no unit or amount follows it).
  [/(?<=\b(?:(?:cash ?flows?|distributions?|calls?|drawdowns?|contributions?|deals?|exits?|marks?|investments?|activity|arr|mrr|burn|revenue|headcount|runway|margin|history|trend|nav|tvpi|dpi|irr|figures|numbers|metrics|statements?|updates?|totals?|received|paid|sent|called|distributed|invested|deployed|raised|reported|closed|booked|added) |fy ?))(20\d{2})\b(?! ?(?:people|employees|fte|usd|eur|gbp|k|m|mm|bn|x|%|months?|mos?|dollars|euros))/, (m) => ({ from: utc(Number(m[1]), 0, 1), to: utc(Number(m[1]), 11, 31) })],
  // A year said before dated records ("2025 distributions", "2026 cashflows"): that calendar year.
  [/\b(20\d{2})(?= (?:capital |quarterly |monthly |annual |yearly |quarter[- ]end |month[- ]end |year[- ]end )?(?:cash ?flows?|distributions?|calls?|drawdowns?|contributions?|deals?|inbound|exits?|write ?offs?|marks?|investments?|activity)\b)/, (m) => ({ from: utc(Number(m[1]), 0, 1), to: utc(Number(m[1]), 11, 31) })],
];

/** The patterns dates are read by (the said-back check counts their words as understood). */
export const DATE_PATTERNS = (): RegExp[] => RULES.map(([re]) => re);

export type DatesFound = { range: DateRange; matched: string };

/** The first date range a (folded) question speaks of, and the words that said it; null when it names none. */
export function datesIn(folded: string, today: Date): DatesFound | null {
  // The first range said; of two that overlap, the one that says more ("in jan 2025" over "in jan").
  let best: { at: number; end: number; found: DatesFound } | null = null;
  for (const [re, make] of RULES) {
    const m = re.exec(folded);
    if (!m) continue;
    const end = m.index + m[0].length;
    if (best) {
      const overlap = m.index < best.end && end > best.at;
      if (overlap ? end - m.index <= best.end - best.at : m.index > best.at) continue;
    }
    const r = make(m, today);
    if (!r) continue;
    // (A range that has not begun yet keeps its end: clipped to today it would end before it starts.)
    const to = r.to && r.to > today && !(r.from && r.from > today) ? today : r.to;
    const label = r.point && r.to ? iso(r.to) : m[0].trim().replace(/^(?:in|over|during|within|for|of|from|at|on|as of|as at)(?! or\b) (?:the )?/, "").replace(/^(?:of|the) /, "");
    best = { at: m.index, end, found: { range: { from: r.from ? iso(r.from) : null, to: to ? iso(to) : null, label }, matched: m[0] } };
  }
  return best?.found ?? null;
}

/** Words that set two points in time against each other ("end of 2024 vs today", "Q2 versus Q3"). */
const AGAINST = /^(?:,? )?(?:vs|versus|compared? (?:to|with)|against|and|to)\b/;
const NOW = /^(?:,? )?(?:(?:vs|versus|compared? (?:to|with)|against|and|to) )(?:right )?(?:now|today|currently|at present|these days|the latest|latest)\b/;

/**
 * Two points in time set against each other: "headcount end of 2024 vs today", "ARR at the end of
 * Q2 vs end of Q3". The range runs from the day after the first point's period to the end of the
 * second's, so a change over it starts at the first period's closing statement; null when the
 * question does not set a second point against the first.
 */
export function twoPointsIn(folded: string, first: DatesFound, today: Date): DatesFound | null {
  const at = folded.indexOf(first.matched);
  if (at < 0 || !first.range.to) return null;
  // (A point may be named with its kind of statement: "the Q1 2026 quarter-end to the Q3 2026 quarter-end".)
  const lead = /^ (?:quarter[ -]?end|month[ -]?end|year[ -]?end|mark|close|statement)s?\b/.exec(folded.slice(at + first.matched.length))?.[0].length ?? 0;
  const rest = folded.slice(at + first.matched.length + lead);
  // ("Now vs June", "today compared to the end of 2025": the present said first.)
  const nowFirst = /\b(?:now|today|currently|at present|these days)(?: \w+){0,3} (?:vs|versus|compared? (?:to|with)|against|and)(?: (?:in|at|on|back in|as of))?(?: the)? *$/.exec(folded.slice(0, at));
  // ("Grown since 6 months ago", "vs two quarters ago": that point against now.)
  const agoAgainstNow = / ago$/.test(first.matched) && /\bvs\b|\bversus\b|\bcompared?\b|\bagainst\b|\bsince\b|\bgr[eo]w|\bchang|\bfrom\b|\bthen\b|\bdifferen/.test(folded);
  const now = NOW.exec(rest) ?? (nowFirst || agoAgainstNow ? ([""] as unknown as RegExpExecArray) : null);
  const second = now ? null : AGAINST.test(rest) ? datesIn(rest, today) : null;
  // (The second point follows the comparing word: "vs the end of Q3", "against end of 2025".)
  if (!now && !(second && second.range.to && rest.indexOf(second.matched) <= rest.match(AGAINST)![0].length + 12)) return null;
  const secondTo = second?.range.to ?? iso(today);
  const [a, b] = [first.range.to, secondTo].sort();
  if (a === b) return null;
  const from = new Date(Date.parse(a) + 86_400_000);
  const matched = (nowFirst || agoAgainstNow) && !NOW.test(rest) ? first.matched : now ? `${first.matched}${now[0]}` : folded.slice(at, at + first.matched.length + lead + rest.indexOf(second!.matched) + second!.matched.length);
  return { range: { from: iso(from), to: b, label: `${first.range.label} vs ${second?.range.label ?? "now"}` }, matched };
}
