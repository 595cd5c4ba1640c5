// What the firm's records call things, for an engine to resolve a question against: deals (name,
// domain, id), portfolio companies and the firm's own funds, LP funds, sectors, metrics, research
// runs, analysed founders and people of the pooled network. Each list comes from the owning
// module's service with the caller's org (and network pool), read at most once per question.
import { ApiError } from "../../http/errors.ts";
import { websiteHost } from "../../lib/hosts.ts";
import { fold } from "../../lib/prose.ts";
import type { AskNames, DealName, HoldingName } from "../../engines/ask-engine.ts";
import { dealsService } from "../deals/deals.service.ts";
import { foundersService } from "../founders/founders.service.ts";
import { fundsService } from "../funds/funds.service.ts";
import { networkService } from "../network/network.service.ts";
import { portfolioService } from "../portfolio/portfolio.service.ts";
import { researchService } from "../research/research.service.ts";
import { perTurn, type AskContext } from "./ask.context.ts";

/**
 * How many of the org's newest deals a question's names are matched against. A deal older than
 * that is still found by its id, its domain, or by name through deal_status's search.
 */
const DEALS_READ = 5000;
const RESEARCH_READ = 200;

type Holding = ReturnType<ReturnType<typeof portfolioService>["list"]>["companies"][number];

/** Every holding of the org (a portfolio is small: a few pages at most), read once per question. */
export const allHoldings = perTurn((ctx: AskContext): Holding[] => {
  const portfolio = portfolioService(ctx.deps);
  const out: Holding[] = [];
  for (let offset = 0; ; offset += 200) {
    const page = portfolio.list(ctx.principal.orgId, { limit: 200, offset });
    out.push(...page.companies);
    if (offset + 200 >= page.total) return out;
  }
});

export const orgDeals = perTurn((ctx: AskContext): DealName[] =>
  dealsService(ctx.deps)
    .directory(ctx.principal.orgId, DEALS_READ)
    .map((d) => ({ id: d.deal_id, name: d.company_name ?? d.domain ?? d.deal_id, domain: d.domain ?? websiteHost(d.website) })),
);

/** The city of a location as an analysis writes it ("London, United Kingdom" -> "London"). */
export const cityOf = (location: string) => location.split(",")[0].trim();

export const pipelineDeals = perTurn((ctx: AskContext) => dealsService(ctx.deps).pipeline(ctx.principal.orgId));

/** The newest deal at a domain ("ledgerly.io", or a URL's host), by the key its submission was judged by. */
export function dealByDomain(ctx: AskContext, domainOrUrl: string): DealName | null {
  const domain = websiteHost(domainOrUrl);
  if (!domain) return null;
  const id = dealsService(ctx.deps).findByHost(ctx.principal.orgId, domain);
  return id ? (orgDeals(ctx).find((d) => d.id === id) ?? { id, name: domain, domain }) : null;
}

function notFoundAsNull<T>(read: () => T): T | null {
  try {
    return read();
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

const companies = perTurn((ctx: AskContext): HoldingName[] => {
  const byName = new Map<string, HoldingName>();
  for (const h of allHoldings(ctx)) {
    const seen = byName.get(h.name);
    if (seen) {
      seen.funds.push(h.fund_name);
      seen.active ||= h.status === "active";
    } else byName.set(h.name, { id: h.company_id, name: h.name, website: h.website, sector: h.sector, funds: [h.fund_name], active: h.status === "active" });
  }
  return [...byName.values()];
});

export function askNames(ctx: AskContext): AskNames {
  const { orgId } = ctx.principal;
  const once = <T>(read: () => T) => {
    let done = false;
    let value: T;
    return () => (done ? value! : ((done = true), (value = read())));
  };
  const lpFunds = once(() => fundsService(ctx.deps).fundNames(orgId));
  const research = once(() => researchService(ctx.deps).list(orgId, RESEARCH_READ).map((r) => ({ id: r.research_id, query: r.query })));
  const sectors = once(() => [...new Set([...allHoldings(ctx).map((h) => h.sector), ...pipelineDeals(ctx).flatMap((d) => (d.sector ? [d.sector] : []))])]);
  const metrics = once(() => [...new Set(allHoldings(ctx).flatMap((h) => Object.keys(h.metrics)))].sort());
  return {
    deals: () => orgDeals(ctx),
    dealById: (id) => {
      const d = notFoundAsNull(() => dealsService(ctx.deps).detail(orgId, id, "summary"));
      return d ? { id: d.deal_id, name: d.company_name ?? d.domain ?? id, domain: d.domain } : null;
    },
    dealByDomain: (domain) => dealByDomain(ctx, domain),
    holdings: () => companies(ctx),
    ownFunds: () => [...new Set(allHoldings(ctx).map((h) => h.fund_name))].sort(),
    lpFunds,
    sectors,
    cities: once(() => [...new Set(pipelineDeals(ctx).flatMap((d) => (d.location ? [cityOf(d.location)] : [])))]),
    metrics,
    research,
    researchById: (id) => {
      const r = notFoundAsNull(() => researchService(ctx.deps).read(orgId, id, "summary"));
      return r ? { id: r.research_id, query: r.query } : null;
    },
    personNamed: (fullNames) => {
      if (fullNames.length === 0) return null;
      const hit = networkService(ctx.deps).warmthLookup(ctx.principal, fullNames).results.find((r) => r.contact_id !== null);
      return hit ? { identifier: hit.name ?? hit.query, name: hit.name ?? hit.query } : null;
    },
    personsByFirstName: (first) => networkService(ctx.deps).namesByFirstName(ctx.principal, first),
    founderById: (id) => {
      const a = notFoundAsNull(() => foundersService(ctx.deps).read(orgId, id));
      return a ? { id: a.analysis_id, name: a.founder.name ?? id } : null;
    },
    foundersNamed: (text) => {
      const found = foundersService(ctx.deps).findByName(orgId, text, 10);
      const exact = found.filter((a) => a.founder.name && fold(a.founder.name) === fold(text));
      return (exact.length ? exact : found).map((a) => ({ id: a.analysis_id, name: a.founder.name ?? a.analysis_id }));
    },
  };
}
