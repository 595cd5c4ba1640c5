// The built-in engine: deterministic, offline. It recognises what a partner asks by its words,
// finds what the question names (a person, a company, a fund, a deal) in the database through the
// same services as REST, and falls back to what the conversation last talked about for follow-ups
// ("how warm is she?", "and its runway?").
import { dealsService } from "../deals/deals.service.ts";
import { fundsService } from "../funds/funds.service.ts";
import { networkService } from "../network/network.service.ts";
import { portfolioService } from "../portfolio/portfolio.service.ts";
import { candidatePhrases, DOMAIN, EMAIL, fold, mentions, URL_IN_TEXT } from "./ask.text.ts";
import type { AskContext, Entities } from "./ask.types.ts";

export type Intent = { fn: string; args: Record<string, unknown> };

export const CAPABILITIES = [
  "who knows someone at a company, or a person (\"who knows someone at acme.com?\")",
  "how warm a contact is (\"how warm is Dana Scully?\")",
  "which of your relationships are going stale",
  "founders you can reach through people you know well",
  "a deal's status and score (\"what's the score of Ledgerly?\"), or the newest deals in the pipeline",
  "a portfolio company's runway, ARR and burn (\"what is Acme Robotics' runway?\")",
  "a fund's TVPI, DPI and IRR (\"TVPI of Alpha Fund I?\")",
  "with a read-and-write key: start a deal analysis of a website (\"analyze https://ledgerly.io\"), a founder analysis (\"analyze founder Jane Doe of Ledgerly\") or a research run (\"research payroll APIs in Europe\")",
];

export const HELP = `I did not understand that question. I can answer:\n${CAPABILITIES.map((c) => `- ${c}`).join("\n")}`;

const PERSON_PRONOUN = /\b(she|he|her|him|them|they|this person|that person)\b/i;
const DOCUMENT_HOSTS = /(docsend\.com|notion\.(so|site)|figma\.com|docs\.google\.com|drive\.google\.com|dropbox\.com|box\.com|onedrive|sharepoint\.com|pitch\.com|\.pdf$|\.pptx?$|\.docx?$)/i;

/** The first phrase that names a person in the pooled network (by email, LinkedIn or name). */
function findPerson(ctx: AskContext, question: string, phrases: string[]): string | null {
  const email = EMAIL.exec(question)?.[0];
  if (email) return email;
  const linkedin = /https?:\/\/(?:[\w-]+\.)?linkedin\.com\/in\/[^\s?#]+/i.exec(question)?.[0];
  if (linkedin) return linkedin;
  const tries = phrases.filter((p) => p.split(/\s+/).length <= 4).slice(0, 12);
  if (!tries.length) return null;
  const found = networkService(ctx.deps).warmthLookup(ctx.principal, tries).results.find((r) => r.contact_id !== null);
  return found ? found.query : null;
}

function findHolding(ctx: AskContext, phrases: string[]): string | null {
  const portfolio = portfolioService(ctx.deps);
  for (const p of phrases) {
    if (fold(p).length < 3) continue;
    const names = [...new Set(portfolio.list(ctx.principal.orgId, { q: fold(p), limit: 20, offset: 0 }).companies.map((c) => c.name))];
    const exact = names.find((n) => fold(n) === fold(p));
    if (exact) return exact;
    if (names.length === 1) return names[0];
  }
  return null;
}

function findDeal(ctx: AskContext, phrases: string[]): string | null {
  const deals = dealsService(ctx.deps);
  for (const p of phrases) {
    if (fold(p).length < 3) continue;
    const found = deals.list(ctx.principal.orgId, { q: p, limit: 20, offset: 0 }).deals;
    const exact = found.find((d) => d.company_name && fold(d.company_name) === fold(p));
    if (exact) return exact.deal_id;
    if (found.length === 1) return found[0].deal_id;
  }
  return null;
}

function findFund(ctx: AskContext, question: string): string | null {
  const names = fundsService(ctx.deps)
    .positions(ctx.principal.orgId)
    .positions.map((p) => p.fund_name)
    .sort((a, b) => b.length - a.length);
  return names.find((n) => mentions(question, n)) ?? null;
}

/** The company after "at/in/from/to" ("someone at Stripe"), or a domain as written. */
function companyOf(question: string, phrases: string[]): string | null {
  const domain = DOMAIN.exec(question.replace(EMAIL, " "))?.[1];
  if (domain) return domain;
  const after = /\b(?:at|in|from|to|into|with)\s+(?:the\s+)?([^?!.,;]+)/i.exec(question)?.[1]?.trim();
  if (after) {
    const named = phrases.find((p) => fold(after).startsWith(fold(p)));
    return named ?? after.split(/\s+/).slice(0, 3).join(" ");
  }
  return null;
}

const RE = {
  analyse: /\b(analy[sz]e|analysis of|evaluate|assess|screen|diligence on|review|look (?:at|into)|score)\b/i,
  founder: /\bfounders?\b|linkedin\.com\/in\/|github\.com\//i,
  research: /^(?:please\s+)?(?:(?:start|run|kick off|launch|begin|do|can you do)\s+(?:a\s+|an\s+|some\s+)?)?(?:research(?:\s+run)?|deep[- ]dive|investigation)\b\s*(?:on|into|about|of|for|:)?\s*/i,
  stale: /\b(stale|going cold|gone cold|lost touch|lose touch|losing touch|out of touch|overdue|reconnect|haven'?t (?:spoken|talked|written|emailed)|keep(?:ing)? in touch|neglect)/i,
  reach: /\b(reach candidates?|founders? (?:i|we) (?:can|could) reach|(?:can|could) (?:i|we) reach|reachable founders?|who should (?:i|we) (?:reach out to|contact|meet))\b/i,
  whoKnows: /\bwho (?:knows|can (?:intro|introduce|connect)|has (?:a |any )?(?:warm )?(?:path|intro|connection|relationship))|\bwarm (?:intro|introduction|path)s?\b|\bintro(?:duction)? to\b|\b(?:knows?|know) (?:anyone|someone|somebody|people)\b|\bpaths? (?:to|into)\b/i,
  warmth: /\b(how (?:warm|close|strong|good|well)|warmth|relationship (?:with|to)|how well do (?:i|we) know|strength of)\b/i,
  fund: /\b(tvpi|dpi|irr|rvpi|nav|distributions?|called capital|lp (?:book|positions?)|fund positions?|fund performance|funds?)\b/i,
  portfolio: /\b(runway|arr|revenue|burn|cash|metrics?|kpis?|valuation|portfolio|how is .+ doing)\b/i,
  deal: /\b(deals?|score[ds]?|analysis|pipeline|status|round)\b/i,
  dealList: /\b(deals|pipeline)\b/i,
  itself: /\b(it|its|it's|they|their|that company|this company|there)\b/i,
};

/** What the question asks, with its arguments; null when it is not understood. */
export function recognise(ctx: AskContext, question: string, memory: Entities, lastFunction: string | null): Intent | null {
  const phrases = candidatePhrases(question);
  const url = URL_IN_TEXT.exec(question)?.[0]?.replace(/[.,;:!?]+$/, "");

  // Actions first: their verbs ("analyze", "research") would otherwise read as questions.
  if (RE.founder.test(question) && RE.analyse.test(question)) {
    const linkedin_url = /https?:\/\/(?:[\w-]+\.)?linkedin\.com\/in\/[^\s?#]+/i.exec(question)?.[0];
    const github_url = /https?:\/\/(?:www\.)?github\.com\/[^\s?#/]+/i.exec(question)?.[0];
    const company = /\b(?:of|at|from)\s+([^?!.,;]+)/i.exec(question)?.[1]?.trim();
    const name = phrases.find((p) => !company || !fold(company).startsWith(fold(p)));
    return { fn: "start_founder_analysis", args: { name, linkedin_url, github_url, company } };
  }
  if (url && (RE.analyse.test(question) || /^\s*https?:\/\//i.test(question) || /\bdeal\b/i.test(question))) {
    const company_name = phrases.find((p) => !url.includes(p) && !/^https?:/i.test(p) && !/\./.test(p));
    const key = DOCUMENT_HOSTS.test(new URL(url).hostname + new URL(url).pathname) ? "document_url" : "website_url";
    return { fn: "start_deal_analysis", args: { [key]: url, company_name } };
  }
  const research = RE.research.exec(question.trim());
  if (research) {
    const query = question.trim().slice(research[0].length).trim();
    return { fn: "start_research", args: { query: query || question.trim() } };
  }

  if (RE.stale.test(question)) return { fn: "going_stale", args: {} };
  if (RE.reach.test(question)) return { fn: "reach_candidates", args: {} };

  if (RE.whoKnows.test(question)) {
    const domain = DOMAIN.exec(question.replace(EMAIL, " "))?.[1];
    if (domain) return { fn: "who_knows", args: { company: domain } };
    const person = findPerson(ctx, question, phrases);
    if (person) return { fn: "who_knows", args: { person } };
    const company = companyOf(question, phrases);
    if (company && !PERSON_PRONOUN.test(company) && !RE.itself.test(` ${company} `)) return { fn: "who_knows", args: { company } };
    if (PERSON_PRONOUN.test(question) && memory.person) return { fn: "who_knows", args: { person: memory.person.id ?? memory.person.name } };
    if (memory.company) return { fn: "who_knows", args: { company: memory.company.domain ?? memory.company.name } };
    return { fn: "who_knows", args: { company: phrases[0] } };
  }

  if (RE.warmth.test(question)) {
    const person = findPerson(ctx, question, phrases);
    if (person) return { fn: "contact_warmth", args: { contact: person } };
    if (memory.person && (PERSON_PRONOUN.test(question) || phrases.length === 0)) return { fn: "contact_warmth", args: { contact: memory.person.id ?? memory.person.name } };
    return { fn: "contact_warmth", args: { contact: phrases[0] } };
  }

  if (RE.fund.test(question)) {
    const fund = findFund(ctx, question) ?? (RE.itself.test(question) ? memory.fund?.name : undefined);
    return { fn: "fund_positions", args: { fund } };
  }

  if (RE.portfolio.test(question)) {
    const remembered = memory.holding?.name ?? memory.company?.name ?? memory.deal?.name;
    const company = findHolding(ctx, phrases) ?? (phrases.length === 0 || RE.itself.test(question) ? remembered : undefined) ?? phrases[0];
    return { fn: "portfolio_company", args: { company } };
  }

  if (RE.deal.test(question)) {
    const deal = findDeal(ctx, phrases);
    if (deal) return { fn: "deal_status", args: { deal } };
    if (RE.dealList.test(question) && !RE.itself.test(question)) return { fn: "list_deals", args: {} };
    if (memory.deal && (phrases.length === 0 || RE.itself.test(question))) return { fn: "deal_status", args: { deal: memory.deal.id } };
    return phrases[0] ? { fn: "deal_status", args: { deal: phrases[0] } } : { fn: "list_deals", args: {} };
  }

  // A follow-up that names only a new subject ("and Bolt Payments?"): the last question again.
  if (lastFunction && phrases.length) {
    switch (lastFunction) {
      case "portfolio_company":
        return { fn: lastFunction, args: { company: findHolding(ctx, phrases) ?? phrases[0] } };
      case "deal_status":
        return { fn: lastFunction, args: { deal: findDeal(ctx, phrases) ?? phrases[0] } };
      case "contact_warmth":
        return { fn: lastFunction, args: { contact: findPerson(ctx, question, phrases) ?? phrases[0] } };
      case "who_knows":
        return { fn: lastFunction, args: { company: companyOf(question, phrases) ?? phrases[0] } };
      case "fund_positions": {
        const fund = findFund(ctx, question);
        if (fund) return { fn: lastFunction, args: { fund } };
      }
    }
  }
  return null;
}
