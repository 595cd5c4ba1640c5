// How figures read on the pages: money with its currency (compact in boards, whole units in
// ledgers), multiples, percentages, scores. A missing figure is an em dash with its reason on hover,
// never a zero. Each figure cell also carries the exact number it shows (data-value), the same as
// the API's, so a reader (and the browser tests) can check one against the other.
import { html, type Html } from "../html.ts";

const NONE = html`<span class="muted">—</span>`;

/** An em dash saying why the figure is missing. */
export function missing(reason?: string | null): Html {
  return reason ? html`<span class="muted" title="${reason}">—</span>` : NONE;
}

const formatters = new Map<string, Intl.NumberFormat>();
function formatter(key: string, make: () => Intl.NumberFormat): Intl.NumberFormat {
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = make()));
  return f;
}

/** A three-letter code Intl knows; anything else is shown as the code after the number. */
function currencyFormat(currency: string, compact: boolean): Intl.NumberFormat | null {
  if (!/^[A-Z]{3}$/.test(currency)) return null;
  try {
    return formatter(`${currency}:${compact}`, () =>
      new Intl.NumberFormat("en-US", compact
        ? { style: "currency", currency, notation: "compact", maximumFractionDigits: 1 }
        : { style: "currency", currency, maximumFractionDigits: 0 }),
    );
  } catch {
    return null;
  }
}

const plain = (compact: boolean) =>
  formatter(`plain:${compact}`, () => new Intl.NumberFormat("en-US", compact ? { notation: "compact", maximumFractionDigits: 1 } : { maximumFractionDigits: 0 }));
/** Grouped, up to 2 decimals: 1,234,567.89. (A formatter made once: toLocaleString with options makes one per call.) */
const grouped = (value: number) => formatter("grouped", () => new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 })).format(value);

/** "$4M", "€12.5M"; with `compact: false` "$4,000,000". Without a currency: the number and "(currency unknown)". */
export function moneyText(value: number, currency: string | null, compact = true): string {
  if (currency) {
    const f = currencyFormat(currency, compact);
    return f ? f.format(value) : `${plain(compact).format(value)} ${currency}`;
  }
  return `${plain(compact).format(value)} (currency unknown)`;
}

export function money(value: number | null | undefined, currency: string | null, opts: { compact?: boolean; reason?: string } = {}): Html {
  if (value === null || value === undefined) return missing(opts.reason ?? "not in the records");
  const compact = opts.compact ?? true;
  const exact = currency ? `${grouped(value)} ${currency}` : `${value} (currency unknown)`;
  return html`<span data-value="${value}" title="${exact}">${moneyText(value, currency, compact)}</span>`;
}

export function multipleText(value: number): string {
  return `${value.toFixed(2)}x`;
}

export function multiple(value: number | null | undefined, reason?: string): Html {
  if (value === null || value === undefined) return missing(reason ?? "not computable from the records");
  return html`<span data-value="${value}" title="${value}">${multipleText(value)}</span>`;
}

/** A fraction (0.123) as "12.3%". */
export function percent(value: number | null | undefined, reason?: string): Html {
  if (value === null || value === undefined) return missing(reason ?? "not computable from the records");
  return html`<span data-value="${value}" title="${value}">${(value * 100).toFixed(1)}%</span>`;
}

/** A number already in percent (ownership 12.5) as "12.5%". */
export function percentOf100(value: number | null | undefined): Html {
  if (value === null || value === undefined) return NONE;
  return html`<span data-value="${value}">${grouped(value)}%</span>`;
}

export function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** A number as it was stated, grouped (a metric value, a headcount). */
export function figure(value: number | null | undefined): Html {
  if (value === null || value === undefined) return NONE;
  return html`<span data-value="${value}">${grouped(value)}</span>`;
}

/** A 0-100 score as a coloured pill; null says why in its title. */
export function scorePill(score: number | null | undefined, reason?: string | null, big = false): Html {
  const size = big ? " big" : "";
  if (score === null || score === undefined) {
    return html`<span class="score none${size}" title="${reason ?? "No score: the material does not support one"}">n/a</span>`;
  }
  const band = score >= 70 ? "high" : score >= 50 ? "mid" : "low";
  return html`<span class="score ${band}${size}" data-value="${score}" title="Score ${score} of 100">${Math.round(score)}</span>`;
}

/** Only http(s) addresses become links; anything else (javascript:, data:, ...) stays text. */
export function safeHref(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
  } catch {
    return null;
  }
}

/** A link out of the app (a company's website, a LinkedIn profile): new tab, no referrer. */
export function outLink(url: string | null | undefined, text?: string | null): Html {
  if (!url) return NONE;
  const href = safeHref(url);
  if (!href) return html`<span>${text ?? url}</span>`;
  return html`<a href="${href}" target="_blank" rel="noopener noreferrer nofollow">${text ?? url.replace(/^https?:\/\//, "").replace(/\/$/, "")}</a>`;
}

/** Bytes as "1.2 MB". */
export function size(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return "—";
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** snake_case and kebab-case labels as words: "business_model" -> "Business model". */
export function words(label: string | null | undefined): string {
  if (!label) return "";
  const s = label.replace(/[_-]+/g, " ").trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}
