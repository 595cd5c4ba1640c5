// Structured facts from a deck's text: the company, the round and the team. Each fact is read
// from a pattern a deck actually uses; what no pattern finds stays null.
import { sectorsIn } from "../../modules/network/network.thesis.ts";
import type { DealFacts, SourcePage } from "../deal-engine.ts";

const CURRENCY: Record<string, string> = { $: "USD", "US$": "USD", "€": "EUR", "£": "GBP", usd: "USD", eur: "EUR", gbp: "GBP", chf: "CHF" };
const SCALE: Record<string, number> = { k: 1e3, thousand: 1e3, m: 1e6, mm: 1e6, mn: 1e6, million: 1e6, b: 1e9, bn: 1e9, billion: 1e9 };

const MONEY = /(US\$|\$|€|£|\b(?:USD|EUR|GBP|CHF)\s?)\s?(\d+(?:[.,]\d+)?)\s?(k|thousand|mm|mn|m|million|bn|b|billion)?\b/i;

/** "$3.5M" -> { amount: 3500000, currency: "USD" }. */
export function parseMoney(text: string): { amount: number; currency: string } | null {
  const m = MONEY.exec(text);
  if (!m) return null;
  const currency = CURRENCY[m[1].trim().toLowerCase()] ?? CURRENCY[m[1].trim()] ?? null;
  const n = Number(m[2].replace(",", "."));
  if (!currency || !Number.isFinite(n)) return null;
  return { amount: Math.round(n * (m[3] ? SCALE[m[3].toLowerCase()] : 1)), currency };
}

export function moneyIn(amount: number, currency: string | null): string {
  const sym = currency === "USD" ? "$" : currency === "EUR" ? "€" : currency === "GBP" ? "£" : `${currency ?? ""} `;
  if (amount >= 1e9) return `${sym}${(amount / 1e9).toFixed(amount % 1e9 ? 1 : 0)}B`;
  if (amount >= 1e6) return `${sym}${(amount / 1e6).toFixed(amount % 1e6 ? 1 : 0)}M`;
  if (amount >= 1e3) return `${sym}${Math.round(amount / 1e3)}K`;
  return `${sym}${amount}`;
}

const STAGE = /\b(pre-?seed|seed|series\s+[a-e]|growth round|bridge)\b/i;
const TITLES = "CEO|CTO|COO|CFO|CPO|Co-?founder(?:\\s*&\\s*(?:CEO|CTO|COO))?|Founder(?:\\s*&\\s*(?:CEO|CTO))?|Chief [A-Z][a-z]+ Officer|VP [A-Z][a-z]+|Head of [A-Z][a-z]+|General Partner|Managing Partner|Partner|Principal";
const PERSON = "([A-Z][a-z]+(?:[-' ][A-Z][a-z]+){1,2})";
const TEAM_PATTERNS = [
  new RegExp(`${PERSON}\\s*[,—–:-]\\s*(${TITLES})\\b`, "g"),
  new RegExp(`${PERSON}\\s*\\((${TITLES})\\)`, "g"),
  new RegExp(`\\b(${TITLES})\\s*[,—–:-]?\\s+${PERSON}`, "g"),
];
const LINKEDIN = /(?:https?:\/\/)?(?:www\.)?linkedin\.com\/in\/[\w%-]+/gi;
const URL_RE = /\b(?:https?:\/\/)?(?:www\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|io|ai|co|app|dev|tech|health|vc|fund|capital|net|org|eu|de|fr|uk))\b/gi;

function firstMatch(pages: SourcePage[], re: RegExp): RegExpExecArray | null {
  for (const p of pages) {
    const m = re.exec(p.text);
    if (m) return m;
  }
  return null;
}

// A fund's "round" is the fund itself: its target size (else the hard cap); it has no round stage.
const FUND_SIZE = /\b(?:target(?: fund)? size|fund size|targeting|target of|raising)\b[^.\n]{0,30}?(?:US\$|\$|€|£|\b(?:USD|EUR|GBP)\s?)\s?\d[^.\n]*/i;
const HARD_CAP = /\bhard cap\b[^.\n]{0,20}?(?:US\$|\$|€|£|\b(?:USD|EUR|GBP)\s?)\s?\d[^.\n]*/i;

export function extractFacts(pages: SourcePage[], hints: { companyName?: string | null; website?: string | null; kind?: "company" | "fund" | null }): DealFacts {
  const all = pages.map((p) => p.text).join("\n");
  const firstLine = pages[0]?.text.split(/\n|\s{2,}|[.:!|]/).map((s) => s.trim()).find((s) => s.length >= 2 && s.length <= 40) ?? null;
  const name = hints.companyName?.trim() || firstLine;

  const urls = [...all.matchAll(URL_RE)].map((m) => m[1].toLowerCase()).filter((d) => !/linkedin\.com|docsend|google\.com|notion\.so/.test(d));
  const website = hints.website ?? (urls[0] ? `https://${urls[0]}` : null);
  const domain = website ? new URL(website.startsWith("http") ? website : `https://${website}`).hostname.replace(/^www\./, "") : null;

  const description = firstMatch(pages, /[^.!?\n]*\b(is (?:a|an|the)|helps|builds|enables|lets|makes it)\b[^.!?\n]*[.!?]/i)?.[0].trim() ?? null;
  const sector = sectorsIn(all)[0] ?? null;
  const location = firstMatch(pages, /\b(?:based in|headquartered in|hq:?|offices? in)\s+([A-Z][a-zA-Z]+(?:[ ,]+[A-Z][a-zA-Z]+)?)/)?.[1]?.trim() ?? null;
  const founded = firstMatch(pages, /\b(?:founded|established|started)\s+(?:in\s+)?((?:19|20)\d{2})\b/i);
  const foundedYear = founded ? Number(founded[1]) : null;

  const fund = hints.kind === "fund";
  const raising = fund
    ? (firstMatch(pages, FUND_SIZE) ?? firstMatch(pages, HARD_CAP))
    : firstMatch(pages, /\b(?:raising|raise|seeking|round of)\b[^.\n]{0,40}?(US\$|\$|€|£|\b(?:USD|EUR|GBP)\s?)\s?\d[^.\n]*/i);
  const money = raising ? parseMoney(raising[0]) : null;
  // A fund that "invests at seed" is not raising a seed round.
  const stage = fund ? null : (firstMatch(pages, STAGE)?.[1]?.replace(/\s+/g, " ").toLowerCase() ?? null);
  // "$16M pre-money" or "pre-money valuation of $16M": the figure next to the words.
  const preMoneyText =
    firstMatch(pages, /(?:US\$|\$|€|£|\b(?:USD|EUR|GBP)\s?)\s?\d+(?:[.,]\d+)?\s?(?:k|m|mm|mn|million|bn|b|billion)?\s+pre-?money/i)?.[0] ??
    firstMatch(pages, /pre-?money(?: valuation)?(?: of| at|:)?\s+(?:US\$|\$|€|£|\b(?:USD|EUR|GBP)\s?)\s?\d+(?:[.,]\d+)?\s?(?:k|m|mm|mn|million|bn|b|billion)?/i)?.[0];
  const preMoney = preMoneyText ? parseMoney(preMoneyText.replace(/^pre-?money(?: valuation)?(?: of| at|:)?\s+/i, "")) : null;

  const team = new Map<string, { name: string; title: string | null; linkedin_url: string | null }>();
  for (const re of TEAM_PATTERNS) {
    for (const m of all.matchAll(re)) {
      const [person, title] = re === TEAM_PATTERNS[2] ? [m[2], m[1]] : [m[1], m[2]];
      if (!team.has(person) && team.size < 12) team.set(person, { name: person, title, linkedin_url: null });
    }
  }
  const links = [...all.matchAll(LINKEDIN)].map((m) => (m[0].startsWith("http") ? m[0] : `https://${m[0]}`));
  for (const member of team.values()) {
    const slug = member.name.toLowerCase().replace(/[^a-z]+/g, "");
    member.linkedin_url = links.find((l) => l.toLowerCase().replace(/[^a-z]/g, "").includes(slug)) ?? null;
  }

  return {
    company: { name, domain, website: website && !website.startsWith("http") ? `https://${website}` : website, description, sector, location, founded_year: foundedYear },
    round: {
      stage,
      amount: money?.amount ?? null,
      currency: money?.currency ?? null,
      pre_money_valuation: preMoney && (!money || preMoney.currency === money.currency) ? preMoney.amount : null,
    },
    team: [...team.values()],
  };
}
