// The period a figure is for, from what founders write: "October update", "Oct 2026", "Q3 2026",
// "Q3'26", "H1 2026", "FY2025", "as of 30 Sep", "30.09.2026", "September 30, 2026", "last month".
// A period without its year is the latest one that had begun when the mail was sent; a period
// given only relative to the date sent ("last month", "this quarter") is resolved but marked
// relative, so the reader can send it to review rather than guess at a founder's calendar.

export type PeriodKind = "day" | "month" | "quarter" | "half" | "year";

export type Period = {
  /** The period's last day, YYYY-MM-DD. */
  end: string;
  kind: PeriodKind;
  /** Resolved from the date sent (no year written, or "last month"): true when written relative. */
  relative: boolean;
  /** Year inferred from the date sent. */
  yearInferred: boolean;
  start: number;
  stop: number;
  text: string;
};

const MONTHS: [RegExp, number][] = [
  [/^(?:january|jan|januar|janvier|jänner|enero|gennaio)$/i, 0],
  [/^(?:february|feb|februar|février|fevrier|febrero|febbraio)$/i, 1],
  [/^(?:march|mar|märz|maerz|mars|mär|marzo)$/i, 2],
  [/^(?:april|apr|avril|abril|aprile)$/i, 3],
  [/^(?:may|mai|mayo|maggio)$/i, 4],
  [/^(?:june|jun|juni|juin|junio|giugno)$/i, 5],
  [/^(?:july|jul|juli|juillet|julio|luglio)$/i, 6],
  [/^(?:august|aug|août|aout|agosto)$/i, 7],
  [/^(?:september|sep|sept|septembre|septiembre|settembre)$/i, 8],
  [/^(?:october|oct|oktober|okt|octobre|octubre|ottobre)$/i, 9],
  [/^(?:november|nov|novembre|noviembre)$/i, 10],
  [/^(?:december|dec|dezember|dez|décembre|decembre|diciembre|dicembre)$/i, 11],
];
const MONTH_WORD = String.raw`(?:jan(?:uary|uar|vier)?|jänner|feb(?:ruary|ruar)?|février|mar(?:ch)?|märz|maerz|mars|apr(?:il)?|avril|may|mai|june?|juni|juin|july?|juli|juillet|aug(?:ust)?|août|sept?(?:ember|embre)?|o[ck]t(?:ober|obre)?|nov(?:ember|embre)?|de[cz](?:ember|embre)?|décembre)\.?`;
const YEAR = String.raw`(?:'|’)?(?:19|20)?\d{2}(?!\d)`;

const ORDINAL_QUARTER: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4 };

const pad = (n: number) => String(n).padStart(2, "0");
const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
const iso = (y: number, m: number, d: number) => `${y}-${pad(m + 1)}-${pad(d)}`;
export const monthEnd = (y: number, m: number) => {
  const at = new Date(Date.UTC(y, m + 1, 0));
  return iso(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
};

function monthIndex(word: string): number | null {
  const w = word.replace(/\.$/, "");
  for (const [re, i] of MONTHS) if (re.test(w)) return i;
  return null;
}

function yearOf(raw: string | undefined): number | null {
  if (!raw) return null;
  const digits = raw.replace(/['’]/g, "");
  const n = Number(digits);
  return digits.length === 2 ? 2000 + n : n;
}

/** The latest year in which the month (0-11) had begun by `sent`. */
function yearForMonth(month: number, sent: Date): number {
  const y = sent.getUTCFullYear();
  return month <= sent.getUTCMonth() ? y : y - 1;
}

type Found = Omit<Period, "start" | "stop" | "text">;

type Rule = { re: RegExp; read: (m: RegExpExecArray, sent: Date) => Found | null };

const rules: Rule[] = [
  // 2026-09-30, 30.09.2026, 30/09/2026 (day first unless the first number is over 12: 9/30/2026)
  {
    re: /(?<![\d.\/-])(20\d\d)-(\d\d)-(\d\d)(?![\d])/g,
    read: (m) => ({ end: `${m[1]}-${m[2]}-${m[3]}`, kind: "day", relative: false, yearInferred: false }),
  },
  {
    re: /(?<![\d.\/-])(\d{1,2})[.\/](\d{1,2})[.\/](20\d\d|\d\d)(?![\d.\/])/g,
    read: (m) => {
      let a = Number(m[1]);
      let b = Number(m[2]);
      const y = yearOf(m[3])!;
      // 03/04/2026 is April 3rd or March 4th: ambiguous unless one number cannot be a month.
      if (a <= 12 && b <= 12 && a !== b && m[0].includes("/")) return null;
      if (a <= 12 && b > 12) [a, b] = [b, a];
      if (b < 1 || b > 12 || a < 1 || a > lastDay(y, b - 1)) return null;
      return { end: iso(y, b - 1, a), kind: "day", relative: false, yearInferred: false };
    },
  },
  // 30 Sep 2026, 30th of September, September 30, 2026
  {
    re: new RegExp(String.raw`\b(\d{1,2})(?:st|nd|rd|th)?\.?\s+(?:of\s+)?(${MONTH_WORD})(?:,?\s+(${YEAR}))?(?![\w])`, "gi"),
    read: (m, sent) => dayOf(Number(m[1]), m[2], m[3], sent),
  },
  {
    re: new RegExp(String.raw`\b(${MONTH_WORD})\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(${YEAR}))?(?![\w%])`, "gi"),
    read: (m, sent) => (Number(m[2]) > 31 ? null : dayOf(Number(m[2]), m[1], m[3], sent)),
  },
  // Q3 2026, Q3'26, Q3/2026, Q3-26, 3Q26, Q3 FY26, third quarter of 2026
  {
    re: new RegExp(String.raw`\b(?:Q([1-4])|([1-4])Q)(?:\s*(?:FY)?[\s\/\-]*(${YEAR}))?(?![\w])`, "gi"),
    read: (m, sent) => quarterOf(Number(m[1] ?? m[2]), m[3], sent),
  },
  {
    re: new RegExp(String.raw`\b(first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter(?:\s+(?:of\s+)?(${YEAR}))?`, "gi"),
    read: (m, sent) => quarterOf(ORDINAL_QUARTER[m[1].toLowerCase()], m[2], sent),
  },
  {
    re: new RegExp(String.raw`\b(?:H([12])|([12])H)(?:\s*[\s\/\-]*(${YEAR}))?(?![\w])`, "g"),
    read: (m, sent) => {
      const h = Number(m[1] ?? m[2]);
      const y = yearOf(m[3]) ?? (h === 1 ? (sent.getUTCMonth() >= 6 ? sent.getUTCFullYear() : sent.getUTCFullYear() - 1) : sent.getUTCFullYear() - 1);
      return { end: monthEnd(y, h * 6 - 1), kind: "half", relative: false, yearInferred: !m[3] };
    },
  },
  {
    re: /\b(?:FY|full[- ]year|fiscal year|Geschäftsjahr|GJ)\s*['’]?((?:19|20)?\d\d)(?!\d)/gi,
    read: (m) => ({ end: `${yearOf(m[1])}-12-31`, kind: "year", relative: false, yearInferred: false }),
  },
  // October 2026, Oct '26, Oct-26, 10/2026, 2026-10; "October" alone
  {
    re: new RegExp(String.raw`\b(${MONTH_WORD})(?:[\s\-\/,]+(${YEAR}))?(?![\w])`, "gi"),
    read: (m, sent) => {
      const month = monthIndex(m[1]);
      if (month === null) return null;
      // "May" and "mar"/"jun" as words of a sentence: a month only when capitalised with a year, or after "in/for/of".
      if (/^(may|mar|jun|jul|aug|sep|oct|nov|dec|jan|feb|apr|mai)$/i.test(m[1]) && !m[2] && m[1] !== m[1][0].toUpperCase() + m[1].slice(1).toLowerCase()) return null;
      if (/^may$/i.test(m[1]) && !m[2] && m[1] !== "May") return null;
      const y = yearOf(m[2]) ?? yearForMonth(month, sent);
      return { end: monthEnd(y, month), kind: "month", relative: false, yearInferred: !m[2] };
    },
  },
  {
    re: /(?<![\d.\/-])(0?[1-9]|1[0-2])\/(20\d\d)(?![\d\/])|(?<![\d.\/-])(20\d\d)-(0[1-9]|1[0-2])(?![\d-])/g,
    read: (m) => {
      const y = Number(m[2] ?? m[3]);
      const month = Number(m[1] ?? m[4]) - 1;
      return { end: monthEnd(y, month), kind: "month", relative: false, yearInferred: false };
    },
  },
  // Relative to the date sent.
  {
    re: /\b(last|previous|past|this|current)\s+(month|quarter)\b|\b(MTD|QTD|month[- ]to[- ]date|quarter[- ]to[- ]date)\b|\bletzten?\s+(Monat|Quartal)\b/gi,
    read: (m, sent) => {
      const unit = (m[2] ?? m[4] ?? m[3] ?? "").toLowerCase();
      const last = /last|previous|past|letzt/i.test(m[1] ?? m[0]);
      const quarter = /quart|qtd/i.test(unit);
      const y = sent.getUTCFullYear();
      const mo = sent.getUTCMonth();
      if (!quarter) return { end: last ? monthEnd(y, mo - 1) : monthEnd(y, mo), kind: "month", relative: true, yearInferred: true };
      const q = Math.floor(mo / 3) - (last ? 1 : 0);
      return { end: monthEnd(y, q * 3 + 2), kind: "quarter", relative: true, yearInferred: true };
    },
  },
];

function dayOf(day: number, monthWord: string, yearRaw: string | undefined, sent: Date): Found | null {
  const month = monthIndex(monthWord);
  if (month === null) return null;
  const y = yearOf(yearRaw) ?? yearForMonth(month, sent);
  if (day < 1 || day > lastDay(y, month)) return null;
  return { end: iso(y, month, day), kind: "day", relative: false, yearInferred: !yearRaw };
}

function quarterOf(q: number, yearRaw: string | undefined, sent: Date): Found {
  const endMonth = q * 3 - 1;
  const y = yearOf(yearRaw) ?? (endMonth - 2 <= sent.getUTCMonth() ? sent.getUTCFullYear() : sent.getUTCFullYear() - 1);
  return { end: monthEnd(y, endMonth), kind: "quarter", relative: false, yearInferred: !yearRaw };
}

/** Every period written in a text, left to right; a span read by one rule is not read again by a later one. */
export function periodsIn(text: string, sent: Date): Period[] {
  const taken: [number, number][] = [];
  const out: Period[] = [];
  for (const rule of rules) {
    rule.re.lastIndex = 0;
    for (const m of text.matchAll(rule.re)) {
      const start = m.index!;
      const stop = start + m[0].length;
      if (taken.some(([a, b]) => start < b && stop > a)) continue;
      const found = rule.read(m as unknown as RegExpExecArray, sent);
      if (!found) continue;
      taken.push([start, stop]);
      out.push({ ...found, start, stop, text: m[0].trim() });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** A period's words for a reason or a page: "October 2026", "Q3 2026", "30 Sep 2026". */
export function describePeriod(end: string, kind: PeriodKind): string {
  const [y, m, d] = end.split("-").map(Number);
  const month = new Date(Date.UTC(y, m - 1, 1)).toLocaleString("en-US", { month: "long", timeZone: "UTC" });
  if (kind === "month") return `${month} ${y}`;
  if (kind === "quarter") return `Q${Math.ceil(m / 3)} ${y}`;
  if (kind === "half") return `H${m <= 6 ? 1 : 2} ${y}`;
  if (kind === "year") return `${y}`;
  return `${d} ${month.slice(0, 3)} ${y}`;
}
