// One update's figures with their period, currency and status as far as the message alone can
// decide: the update's period (from its subject or its opening lines), each figure's own period
// when its statement names one, the currency the update writes, and the reasons a figure must be
// reviewed (no period, a period relative to the date sent or after it, no currency, two values).
// Whether an actual already exists for the period is decided when it is applied (updates.apply.ts).
import { KIND, UNIT, type Metric } from "./updates.metrics.ts";
import { describePeriod, periodsIn, type Period } from "./updates.periods.ts";
import { joinStacked, readTables } from "./updates.read-tables.ts";
import { readProse, type ReadFigure } from "./updates.read-text.ts";

export type Draft = {
  metric: Metric;
  value: number;
  unit: string | null;
  currency: string | null;
  periodEnd: string | null;
  status: "applied" | "needs_review";
  reason: string | null;
  quote: string;
  documentId: string | null;
  page: number | null;
};

export type Page = { documentId: string | null; page: number | null; lines: string[] };

const INTRO_WORDS = /(?:update|bericht|\b(?:report|recap|summary|results|numbers|metrics|kpis?|month|quarter|as of|as at|closing|investor|Monat|Quartal|Zahlen|Stand|bilan|mois|trimestre)\b)/i;

const SIGN_OFF = /^\s*(?:best|thanks|thanks again|thank you|many thanks|cheers|regards|best regards|kind regards|warm regards|warmly|all the best|talk soon|speak soon|onwards|viele grüße|beste grüße|liebe grüße|mit (?:besten|freundlichen) grüßen|herzliche grüße|cordialement|bien à vous|bien cordialement|merci|à bientôt|saludos|un abrazo|--|—\s*[A-ZÀ-Ý][\wÀ-ÿ.-]*(?:\s+[A-ZÀ-Ý][\wÀ-ÿ.-]*)?)\s*[,.!]*\s*$/i;

/**
 * The body up to its sign-off ("Best,", "Viele Grüße", "— Aiko"): what follows is a signature,
 * whose taglines ("care coordination for 1,200 clinics", "$2B assets administered") are no
 * figures of the update. Table rows (an HTML part's tables, added after the text) are kept.
 */
export function withoutSignature(lines: string[]): string[] {
  const at = lines.findIndex((l, i) => i > 0 && SIGN_OFF.test(l));
  if (at < 0) return lines;
  return [...lines.slice(0, at), ...lines.slice(at).filter((l) => /^\s*\|.*\|\s*$/.test(l))];
}

/** Whether a message calls itself an update, report or the like in its subject or opening lines. */
export function looksLikeUpdate(subject: string, lines: string[]): boolean {
  const opening = lines.filter((l) => l.trim()).slice(0, 5).join(" ");
  return INTRO_WORDS.test(subject) || /(?:update|bericht|\b(?:report|recap|numbers|metrics|kpis?|figures|Zahlen|Kennzahlen|chiffres)\b)/i.test(opening);
}

/** The update's period: the subject's, else the opening lines'; both written and different: none (ambiguous). */
export function updatePeriod(subject: string, lines: string[], sent: Date): { period: Period | null; reason: string | null } {
  const distinct = (ps: Period[]) => [...new Map(ps.map((p) => [p.end, p])).values()];
  // A reply's subject is its thread's ("Re: December update" over March numbers): the text says the period.
  const reply = /^\s*(?:re|aw|sv|antw)\s*:/i.test(subject);
  const fromSubject = reply ? [] : distinct(periodsIn(subject.replace(/^(?:\s*(?:fwd?|fw|wg|tr)\s*:\s*)+/i, ""), sent));
  const opening = lines.filter((l) => l.trim()).slice(0, 4).filter((l) => INTRO_WORDS.test(l) && !l.includes(" | "));
  const fromBody = distinct(opening.flatMap((l) => periodsIn(l, sent))).slice(0, 2);
  if (fromSubject.length > 1) return { period: null, reason: `the subject names several periods (${fromSubject.map((p) => p.text).join(", ")})` };
  const s = fromSubject[0];
  const b = fromBody.length === 1 ? fromBody[0] : null;
  if (s && b && b.end !== s.end && !(s.kind === "quarter" && b.kind !== "quarter" && b.end === s.end)) {
    // "Q3 update" with "as of 30 Sep" agrees; "October update" with "September numbers" does not.
    return { period: null, reason: `the subject says ${s.text} and the text ${b.text}` };
  }
  if (s) return { period: s, reason: null };
  if (b) return { period: b, reason: null };
  if (fromBody.length > 1) return { period: null, reason: `the opening names several periods (${fromBody.map((p) => p.text).join(", ")})` };
  return { period: null, reason: "the update names no period" };
}

/** The figures of the update's text and attachments' pages, with their status as the message decides it. */
export function readUpdate(subject: string, pages: Page[], sent: Date, bookCurrency: string | null = null): { period: Period | null; figures: Draft[] } {
  pages = pages.map((p) => (p.documentId === null ? { ...p, lines: withoutSignature(p.lines) } : p));
  const body = pages.find((p) => p.documentId === null)?.lines ?? [];
  const { period, reason: periodReason } = updatePeriod(subject, body, sent);
  const read: ReadFigure[] = [];
  for (const p of pages) {
    const where = { sent, documentId: p.documentId, page: p.page };
    const { figures, prose } = readTables(joinStacked(p.lines), where, "");
    read.push(...readProse(prose.join("\n"), where), ...figures);
  }
  // The currency an update writes when it writes one only: its bare money figures are in it.
  const written = new Set(read.filter((f) => KIND[f.metric] === "money" && f.currency).map((f) => f.currency!));
  // The currency an update writes when it writes one only; else, when it writes none, the book's for the company.
  const defaultCurrency = written.size === 1 ? [...written][0] : written.size === 0 ? bookCurrency : null;
  const sentDay = sent.toISOString().slice(0, 10);

  const drafts: Draft[] = read.map((f) => {
    const own = f.period;
    const p = own ?? period;
    let reason = f.review;
    if (!p) reason ??= own ? null : periodReason ?? "the update names no period";
    else if (p.relative) reason ??= `the period is written relative to the date sent ("${p.text}": ${describePeriod(p.end, p.kind)} assumed)`;
    else if (p.end > sentDay && p.kind === "day") reason ??= `the date ${p.end} is after the mail was sent`;
    else if (p.end > sentDay && monthStart(p) > sentDay) reason ??= `${describePeriod(p.end, p.kind)} had not begun when the mail was sent`;
    if (own && period && own.end !== period.end && own.kind === "month" && period.kind === "month" && own.end > period.end) reason ??= `the statement says ${own.text}, after the update's ${period.text}`;
    let currency = f.currency;
    if (KIND[f.metric] === "money" && !currency) {
      currency = defaultCurrency;
      if (!currency) reason ??= written.size > 1 ? "no currency beside the figure, and the update uses several" : "no currency written";
    }
    // A company's money figure under 1,000 is a figure in thousands or millions whose scale was not found.
    if (KIND[f.metric] === "money" && Math.abs(f.value) < 1000) reason ??= "a money figure under 1,000: its scale (thousands? millions?) is not written beside it";
    if (f.metric === "revenue" && p && p.kind === "day") reason ??= "revenue at a day: the period it was earned over is not said";
    const unit = f.metric === "revenue" ? (p && p.kind !== "day" ? p.kind : null) : (UNIT[f.metric] ?? null);
    return {
      metric: f.metric,
      value: f.value,
      unit,
      currency: KIND[f.metric] === "money" ? currency : null,
      periodEnd: p?.end ?? null,
      status: reason ? "needs_review" : "applied",
      reason,
      quote: f.quote,
      documentId: f.documentId,
      page: f.page,
    };
  });
  return { period, figures: settleRepeats(drafts) };
}

/** The first day of a period, to tell a period still running when the mail was sent from one not begun. */
function monthStart(p: Period): string {
  const [y, m] = p.end.split("-").map(Number);
  const months = p.kind === "quarter" ? 3 : p.kind === "half" ? 6 : p.kind === "year" ? 12 : 1;
  const start = new Date(Date.UTC(y, m - months, 1));
  return start.toISOString().slice(0, 10);
}

/**
 * One figure per metric and period: the same value written twice (the body and its table, the
 * mail and its attachment) is kept once; different values for one metric and period all go to review.
 */
function settleRepeats(drafts: Draft[]): Draft[] {
  const groups = new Map<string, Draft[]>();
  for (const d of drafts) {
    const key = `${d.metric}\u0000${d.periodEnd ?? ""}`;
    const g = groups.get(key);
    if (g) g.push(d);
    else groups.set(key, [d]);
  }
  const out: Draft[] = [];
  for (const g of groups.values()) {
    const values = new Set(g.map((d) => `${d.value}\u0000${d.currency ?? ""}`));
    if (values.size === 1) {
      out.push(g.find((d) => d.status === "applied") ?? g[0]);
      continue;
    }
    for (const d of uniqueBy(g)) out.push({ ...d, status: "needs_review", reason: d.reason ?? `the update gives ${values.size} different values for this metric and period` });
  }
  return out;
}

function uniqueBy(g: Draft[]): Draft[] {
  const seen = new Set<string>();
  return g.filter((d) => {
    const k = `${d.value}\u0000${d.currency ?? ""}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
