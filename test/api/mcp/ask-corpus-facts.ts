// The figures the corpus's answers must carry, worked out independently of the `ask` tool: read
// through the REST API with the demo's read key and computed here in plain code (sorting,
// filtering, summing), so a wrong query layer cannot agree with itself.
export type Get = (path: string) => Promise<any>;

const int = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
export const moneyOf = (v: number, currency: string) => `${int.format(v)} ${currency}`;

type Company = { name: string; status: string; fund_name: string; sector: string; currency: string; invested: number | null; metrics: Record<string, { value: number; statement_date: string }> };
type Deal = { deal_id: string; company_name: string; stage: string; score: number | null; created_at: string; kind: string };
type Position = { fund_name: string; currency: string; nav: number | null; irr: number | null; tvpi: number | null; commitment: number; vintage_year: number };
type Cashflow = { fund_name: string; cashflow_date: string; type: string; amount: number; currency: string | null };

function sumsByCurrency<T>(rows: T[], value: (r: T) => number | null, currency: (r: T) => string | null): string[] {
  const by = new Map<string, number>();
  for (const r of rows) {
    const v = value(r);
    const c = currency(r);
    if (v === null || c === null) continue;
    by.set(c, (by.get(c) ?? 0) + v);
  }
  return [...by].map(([c, v]) => moneyOf(Math.round(v), c));
}

export async function readFacts(get: Get) {
  const holdings: Company[] = (await get("/api/v1/portfolio/companies?limit=200")).companies;
  const companies = [...new Map(holdings.map((h) => [h.name, h])).values()];
  const active = companies.filter((c) => c.status === "active");
  const byMetric = (metric: string, dir: 1 | -1) =>
    active.filter((c) => c.metrics[metric]).sort((a, b) => dir * (a.metrics[metric].value - b.metrics[metric].value)).map((c) => c.name);

  const dealList: Deal[] = (await get("/api/v1/deals?limit=200")).deals;
  const details = await Promise.all(dealList.map((d) => get(`/api/v1/deals/${d.deal_id}`)));
  const sectorOf = new Map(details.map((d: any) => [d.deal_id, d.company.sector as string | null]));
  const deals = (stage: string) => dealList.filter((d) => d.stage === stage);
  const inRange = (d: Deal, from: string, to: string) => d.created_at.slice(0, 10) >= from && d.created_at.slice(0, 10) <= to;

  const positions: Position[] = (await get("/api/v1/funds/positions")).positions;
  const cashflows: Cashflow[] = (await get("/api/v1/funds/cashflows")).cashflows;
  const mosaic = dealList.find((d) => d.company_name === "MosaicTreasury")!;
  const mosaicFull = await get(`/api/v1/deals/${mosaic.deal_id}?view=full`);
  const arrQuote = (mosaicFull.analysis.sections as { evidence: { quote: string }[] }[]).flatMap((s) => s.evidence).find((e) => /\bARR\b/.test(e.quote))!.quote;

  return {
    companyCount: companies.length,
    shortestRunway: byMetric("runway_months", 1),
    longestRunway: byMetric("runway_months", -1),
    highestBurn: byMetric("monthly_burn", -1),
    highestArr: byMetric("arr", -1),
    fundII: holdings.filter((h) => h.fund_name === "Northwind Fund II").map((h) => h.name),
    fundIII: holdings.filter((h) => h.fund_name === "Northwind Fund III").map((h) => h.name),
    totalInvested: sumsByCurrency(holdings, (h) => h.invested, (h) => h.currency),
    exited: companies.filter((c) => c.status === "exited").map((c) => c.name),
    dealCount: dealList.length,
    icDeals: deals("ic").map((d) => d.company_name),
    bestInDiligence: deals("diligence").filter((d) => d.score !== null).sort((a, b) => b.score! - a.score!)[0].company_name,
    fintechThisMonth: dealList.filter((d) => sectorOf.get(d.deal_id) === "fintech" && inRange(d, "2026-11-01", "2026-11-20")).map((d) => d.company_name),
    dealsLastWeek: dealList.filter((d) => inRange(d, "2026-11-09", "2026-11-15")).map((d) => d.company_name),
    topScore: [...dealList].sort((a, b) => (b.score ?? -1) - (a.score ?? -1))[0].company_name,
    mosaicArrQuote: arrQuote,
    /** A deal's score as the deals API states it, written as the answers write it ("Score: 72/100"). */
    scoreOf: (name: string) => `Score: ${dealList.find((d) => d.company_name === name)!.score}/100`,
    totalNav: sumsByCurrency(positions, (p) => p.nav, (p) => p.currency),
    highestIrr: [...positions].sort((a, b) => (b.irr ?? -9) - (a.irr ?? -9))[0].fund_name,
    highestTvpi: [...positions].sort((a, b) => (b.tvpi ?? -9) - (a.tvpi ?? -9))[0].fund_name,
    totalCommitted: sumsByCurrency(positions, (p) => p.commitment, (p) => p.currency),
    callsThisYear: sumsByCurrency(
      cashflows.filter((c) => c.type === "call" && c.cashflow_date >= "2026-01-01"),
      (c) => c.amount,
      (c) => c.currency ?? positions.find((p) => p.fund_name === c.fund_name)!.currency,
    ),
    distributionsLastQuarter: sumsByCurrency(
      cashflows.filter((c) => c.type === "distribution" && c.cashflow_date >= "2026-07-01" && c.cashflow_date <= "2026-09-30"),
      (c) => c.amount,
      (c) => c.currency ?? positions.find((p) => p.fund_name === c.fund_name)!.currency,
    ),
    largestDistribution: [...cashflows].filter((c) => c.type === "distribution").sort((a, b) => b.amount - a.amount)[0],
  };
}

export type Facts = Awaited<ReturnType<typeof readFacts>>;
