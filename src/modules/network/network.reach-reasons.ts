// Why a founder fits the firm, in sentences a partner can check against the firm's own records:
// each names the facts it rests on (the holdings and deals of a sector, the round on record, the
// proxy's figures) and says so when a fact is missing instead of guessing it.
import { normalizeDomain } from "../../lib/hosts.ts";
import { label } from "./network.scoring.ts";
import { sectorNoun, sectorsByMention, sectorTitle, stageIn, stageName } from "../../lib/sectors.ts";
import type { PersonCard } from "./network.queries.ts";
import type { BookDeal, FirmBook, Thesis } from "./network.thesis.ts";

/** Founder wording in a title. A CEO without it is a founder candidate only when the firm has their company's round on record. */
export const FOUNDER_TITLE = /\b(co-?founder|founder|founding (ceo|cto|partner))\b/i;
const CEO_TITLE = /\b(ceo|chief executive)\b/i;

/** A candidate's person, known by name. */
export type CandidatePerson = Pick<PersonCard, "title" | "company" | "domain"> & { display_name: string };

const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;
const day = (iso: string) => iso.slice(0, 10);
const listNames = (names: string[]) => (names.length <= 3 ? names.join(", ") : `${names.slice(0, 3).join(", ")} and ${names.length - 3} more`);
const fold = (s: string | null | undefined) => s?.trim().toLowerCase() ?? "";

/** Where a deal sits in the book's order (newest first): of two matches, the earlier one wins. */
type Placed = { deal: BookDeal; at: number };

/** The firm's company deals and holdings by domain and by name, built once per firm and run (not per candidate). */
export type BookIndex = {
  dealsByDomain: Map<string, Placed>;
  dealsByName: Map<string, Placed>;
  heldDomains: Set<string>;
  heldNames: Set<string>;
};

export function indexBook(book: FirmBook): BookIndex {
  const index: BookIndex = { dealsByDomain: new Map(), dealsByName: new Map(), heldDomains: new Set(), heldNames: new Set() };
  book.deals.forEach((deal, at) => {
    if (deal.kind !== "company") return;
    const domain = normalizeDomain(deal.domain);
    const name = fold(deal.name);
    if (domain && !index.dealsByDomain.has(domain)) index.dealsByDomain.set(domain, { deal, at });
    if (name && !index.dealsByName.has(name)) index.dealsByName.set(name, { deal, at });
  });
  for (const h of book.holdings) {
    const domain = normalizeDomain(h.website);
    if (domain) index.heldDomains.add(domain);
    if (fold(h.name)) index.heldNames.add(fold(h.name));
  }
  return index;
}

/** The firm's deal for the person's company (by email domain, else by company name), if it has one. */
export function dealOf(person: CandidatePerson, index: BookIndex): BookDeal | null {
  const domain = normalizeDomain(person.domain);
  const company = fold(person.company);
  const byDomain = domain ? index.dealsByDomain.get(domain) : undefined;
  const byName = company ? index.dealsByName.get(company) : undefined;
  if (byDomain && byName) return byDomain.at <= byName.at ? byDomain.deal : byName.deal;
  return (byDomain ?? byName)?.deal ?? null;
}

/** Whether the person's company is one the firm already holds (its founders are not sourcing candidates). */
export function isHeldCompany(person: CandidatePerson, index: BookIndex): boolean {
  const domain = normalizeDomain(person.domain);
  const company = fold(person.company);
  return (!!domain && index.heldDomains.has(domain)) || (!!company && index.heldNames.has(company));
}

/** The first reason (who they are), or null when the person is no founder candidate. */
export function founderReason(person: CandidatePerson, deal: BookDeal | null): string | null {
  const title = person.title ?? "";
  const at = person.company && !title.includes(person.company) ? ` at ${person.company}` : "";
  if (FOUNDER_TITLE.test(title)) return `${title}${at}`;
  // Without a company of their own on record, the deal matched by their email domain names it.
  if (CEO_TITLE.test(title) && deal) return `${title}${at || (deal.name ? ` at ${deal.name}` : "")}, a company in the firm's deal flow (stage: ${deal.pipelineStage})`;
  return null;
}

/** Sector fit (0-1, relative to the firm's biggest sector) and the sentence that says why. */
export function sectorFit(person: CandidatePerson, deal: BookDeal | null, thesis: Thesis): { fit: number; reason: string } {
  const fromTitle = sectorsByMention([person.title, person.company].filter(Boolean).join(" "));
  // A title that names no sector: their company's deal in the firm's pipeline may.
  const fromDeal = fromTitle.length === 0 && deal ? sectorsByMention(deal.sector) : [];
  const mine = fromTitle.length ? fromTitle : fromDeal;
  const source = fromTitle.length ? "from their title" : `from their deal${deal?.name ? ` (${deal.name})` : ""}`;
  const inBook = mine.filter((s) => thesis.sectors.has(s));
  if (inBook.length === 0) {
    return mine.length
      ? { fit: 0, reason: `${sectorTitle(mine[0])}, ${source}, is outside the sectors of the firm's holdings and deals` }
      : { fit: 0, reason: "No sector can be read from their title, so no sector fit is claimed" };
  }
  const weight = (s: string) => thesis.sectors.get(s)!.companies.length + thesis.sectors.get(s)!.deals;
  const top = Math.max(...[...thesis.sectors.keys()].map(weight));
  const best = inBook.reduce((a, b) => (weight(b) > weight(a) ? b : a));
  const facts = thesis.sectors.get(best)!;
  const noun = sectorNoun(best);
  const held = facts.companies.length
    ? `the firm has backed ${plural(facts.companies.length, `${noun} company`, `${noun} companies`)} (${listNames(facts.companies)})`
    : `the firm holds no ${noun} company`;
  const seen = facts.deals ? ` and has seen ${plural(facts.deals, `${noun} deal`)}${facts.inDiligence ? ` (${facts.inDiligence} in diligence or at IC)` : ""}` : "";
  return { fit: weight(best) / top, reason: `${sectorTitle(best)}, ${source}: ${held}${seen}` };
}

/** Stage fit (0-1, relative to the firm's most common stage) when their round is on record; 0 with a reason otherwise. */
export function stageFit(person: CandidatePerson, deal: BookDeal | null, thesis: Thesis): { fit: number; reason: string } {
  const fromDeal = deal ? stageIn(deal.roundStage) : null;
  const fromTitle = fromDeal ? null : stageIn([person.title, person.company].filter(Boolean).join(" "));
  // "Head of Growth" names no round: growth is read from a deal only.
  const stage = fromDeal ?? (fromTitle === "growth" ? null : fromTitle);
  if (!stage) return { fit: 0, reason: "No round of theirs is on record, so no stage fit is claimed" };
  const raising = `Raising a ${stageName(stage)} round (per ${fromDeal ? `their deal${deal!.name ? `, ${deal!.name}` : " in the firm's pipeline"}` : "their title"})`;
  const counts = thesis.stages.get(stage) ?? { holdings: 0, deals: 0 };
  if (thesis.holdingsWithStage + thesis.dealsWithStage === 0) return { fit: 0, reason: `${raising}: the firm's book records no stages to compare with` };
  const top = Math.max(...[...thesis.stages.values()].map((n) => n.holdings + n.deals));
  const parts = [
    thesis.holdingsWithStage ? `${counts.holdings} of the firm's ${plural(thesis.holdingsWithStage, "holding")}` : null,
    thesis.dealsWithStage ? `${counts.deals} of its ${plural(thesis.dealsWithStage, "deal")} with a known round` : null,
  ].filter(Boolean);
  return { fit: (counts.holdings + counts.deals) / top, reason: `${raising}: ${stageName(stage)} is the stage of ${parts.join(" and ")}` };
}

export type ProxyFacts = {
  name: string;
  strength: number;
  emailsSent: number;
  emailsReceived: number;
  meetings: number;
  firstTouchAt: string;
  lastTouchAt: string;
};

/** How well the user knows the proxy, in figures from the user's own mail and calendar. */
export function proxyReason(p: ProxyFacts): string {
  const emails = p.emailsSent + p.emailsReceived;
  const what = [emails ? plural(emails, "email") : null, p.meetings ? plural(p.meetings, "meeting") : null].filter(Boolean).join(" and ");
  return `Reachable through ${p.name} (${label(p.strength)}, strength ${Math.round(p.strength)}): ${what} with you since ${day(p.firstTouchAt)}, last on ${day(p.lastTouchAt)}`;
}

/** `via`: whose mail and calendar showed it, as possessives ("your", "Bob Baker's"). */
export type SharedFacts = { shared: number; meetings: number; lastShared: string; via: string[] };

/** How the proxy and the founder are in contact, and whose mail shows it. */
export function contactReason(proxy: string, founder: string, s: SharedFacts): string {
  const emails = s.shared - s.meetings;
  const what = [emails ? plural(emails, "email") : null, s.meetings ? plural(s.meetings, "meeting") : null].filter(Boolean).join(" and ");
  const whose = s.via.length === 1 ? s.via[0] : `${s.via.slice(0, -1).join(", ")} and ${s.via[s.via.length - 1]}`;
  return `${proxy} and ${founder} were on ${what} together in the last year, most recently on ${day(s.lastShared)} (seen in ${whose} mail and calendar)`;
}
