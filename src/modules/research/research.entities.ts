// Which of the org's own names a text mentions: portfolio companies and deals, LP fund
// commitments, people in the network, metric words. The planner adds facet questions for them and
// retrieval looks each one up. Only names the org's records hold are recognised: nothing is guessed.
import type { Deps } from "../../deps.ts";
import type { Entities } from "../../engines/research-engine.ts";
import { normalizeDomain } from "../../lib/hosts.ts";
import { dealsService } from "../deals/deals.service.ts";
import { fundsService } from "../funds/funds.service.ts";
import { networkService } from "../network/network.service.ts";
import { portfolioService } from "../portfolio/portfolio.service.ts";

const fold = (s: string) => s.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();

/** `needle` occurs in `hay` as whole words (letters and digits either side end a match). */
export function mentions(hay: string, needle: string): boolean {
  if (needle.length < 2) return false;
  let at = hay.indexOf(needle);
  while (at >= 0) {
    const before = hay[at - 1];
    const after = hay[at + needle.length];
    if ((!before || !/[\p{L}\p{N}]/u.test(before)) && (!after || !/[\p{L}\p{N}]/u.test(after))) return true;
    at = hay.indexOf(needle, at + 1);
  }
  return false;
}

/** Metric words a question may name, and the stored metric keys each one covers (by substring). */
export const METRIC_WORDS: Record<string, string[]> = {
  arr: ["arr"],
  mrr: ["mrr"],
  revenue: ["revenue", "arr", "mrr"],
  burn: ["burn"],
  runway: ["runway"],
  headcount: ["headcount"],
  employees: ["headcount"],
  cash: ["cash"],
  margin: ["margin"],
  churn: ["churn"],
  ebitda: ["ebitda"],
  customers: ["customers"],
};

const FUND_BOOK = /(?<![\p{L}])(tvpi|dpi|rvpi|irr|lps?|commitments?|fund book|distributions?|capital calls?|nav)(?![\p{L}])/iu;

// A run of two or three capitalised words: a candidate person name, checked against the network.
const NAME_RUN = /\b\p{Lu}[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]+){1,2}\b/gu;

export function entityFinder(deps: Deps) {
  const portfolio = portfolioService(deps);
  const deals = dealsService(deps);
  const funds = fundsService(deps);
  const network = networkService(deps);

  return function entitiesIn(orgId: string, text: string): Entities {
    const hay = fold(text);
    const companies = new Map<string, { name: string; domain: string | null }>();
    for (const h of portfolio.companyNames(orgId)) {
      const domain = normalizeDomain(h.companyKey);
      if (mentions(hay, fold(h.name)) || (domain && mentions(hay, domain))) companies.set(fold(h.name), { name: h.name, domain });
    }
    for (const d of deals.companyNames(orgId)) {
      const key = fold(d.name);
      const hit = mentions(hay, key) || (d.domain && mentions(hay, d.domain));
      if (!hit) continue;
      const known = companies.get(key);
      if (known) known.domain ??= d.domain;
      else companies.set(key, { name: d.name, domain: d.domain });
    }
    const fundNames = funds.fundNames(orgId).filter((name) => mentions(hay, fold(name)));
    const taken = [...companies.keys(), ...fundNames.map(fold)];
    const persons: string[] = [];
    for (const run of [...new Set(text.match(NAME_RUN) ?? [])].slice(0, 8)) {
      const key = fold(run).replace(/['’]s$/, "");
      if (taken.some((t) => t.includes(key) || key.includes(t))) continue;
      const found = network.displayNameOf(orgId, key);
      if (found && !persons.includes(found)) persons.push(found);
    }
    const metrics = Object.keys(METRIC_WORDS).filter((w) => mentions(hay, w));
    return { companies: [...companies.values()], funds: fundNames, persons, metrics, fundBook: FUND_BOOK.test(text) };
  };
}

export const NO_ENTITIES: Entities = { companies: [], funds: [], persons: [], metrics: [], fundBook: false };
