// The firm's book, one record at a time: a deal in the pipeline (status, score, round, and a
// figure its deck states), a portfolio company (runway, ARR, burn, any imported metric, positions)
// and LP fund positions (TVPI, DPI, IRR). Same services as REST; a figure that is not in the
// database is said to be missing, with the reason and what the records hold instead, never estimated.
import { isUuid } from "../../lib/ids.ts";
import { ApiError } from "../../http/errors.ts";
import { DOMAIN_IN_TEXT as DOMAIN } from "../../lib/hosts.ts";
import { canon, nameForPhrase } from "../../lib/name-match.ts";
import { fold, listing, money, num, percent, times } from "../../lib/prose.ts";
import { dealsService } from "../deals/deals.service.ts";
import { fundsService } from "../funds/funds.service.ts";
import { portfolioService, type MetricValue } from "../portfolio/portfolio.service.ts";
import { str, type Answer, type AskContext, type AskFunction } from "./ask.context.ts";
import { allHoldings, dealByDomain, pipelineDeals } from "./ask.names.ts";
import { metricLabel } from "./ask.query.fields.ts";

type Evidence = { quote: string; document_id: string | null; page: number | null };
type Section = { key: string; evidence: Evidence[] };

/** Figures a deck may state, and the words its quotes state them in (a deal has no imported metrics). */
const DECK_FIGURES: Record<string, RegExp> = {
  arr: /\barr\b|annual(?:ized)? (?:recurring )?revenue|\brecurring revenue\b/i,
  mrr: /\bmrr\b|monthly recurring revenue/i,
  revenue: /\brevenue\b(?! retention)|\barr\b/i,
  monthly_burn: /\bburn\b/i,
  runway_months: /\brunway\b/i,
  headcount: /\bteam of\b|\bemployees\b|\bheadcount\b|\bpeople\b/i,
  gross_margin: /gross margin/i,
  customers: /\bcustomers?\b|\bclients?\b|\bpilots?\b/i,
  growth: /\bgrowing\b|\bgrowth\b/i,
  retention: /\bretention\b|\bchurn\b/i,
  valuation: /\bvaluation\b|\bpre-money\b/i,
  market: /\btam\b|\bmarket\b/i,
};

const DEAL_FIGURES = new Set(["valuation", "market", "team", "founders", "growth", "customers"]);

/** What a deal's analysis quotes from its material about a figure: the quote, and where it stands. */
function deckSays(analysis: { sections?: Section[] } | null, figure: string): { quote: string; where: string }[] {
  const re = DECK_FIGURES[figure];
  if (!re || !analysis?.sections) return [];
  const seen = new Set<string>();
  const out: { quote: string; where: string }[] = [];
  for (const s of analysis.sections) {
    for (const e of s.evidence) {
      if (!re.test(e.quote) || seen.has(e.quote)) continue;
      seen.add(e.quote);
      out.push({ quote: e.quote, where: e.page !== null ? `page ${e.page} of its material` : "its material" });
    }
  }
  return out.slice(0, 3);
}

async function dealStatus(ctx: AskContext, args: Record<string, unknown>): Promise<Answer> {
  const name = str(args.deal);
  const base = { function: "deal_status", arguments: args };
  const deals = dealsService(ctx.deps);
  const { orgId } = ctx.principal;
  if (!name) return { ...base, links: [], data: null, text: "Which deal? Give the company's name." };
  let id: string | undefined;
  if (isUuid(name)) id = name;
  else if (DOMAIN.test(name) && !/\s/.test(name)) id = dealByDomain(ctx, name)?.id;
  else {
    const found = deals.list(orgId, { q: name, limit: 20, offset: 0 }).deals;
    const exact = found.find((d) => d.company_name && fold(d.company_name) === fold(name));
    const names = [...new Set(found.map((d) => d.company_name ?? d.domain ?? d.deal_id))];
    if (!exact && names.length > 1) {
      return { ...base, links: [`/api/v1/deals?q=${encodeURIComponent(name)}`], data: { candidates: names }, text: `Several deals match ${name}: ${listing(names)}. Which one?` };
    }
    id = (exact ?? found[0])?.deal_id;
  }
  if (!id) {
    const domain = DOMAIN.test(name) && !/\s/.test(name);
    const start = domain ? ` To start a deal analysis of it, say "analyze https://${name.replace(/^https?:\/\//, "")}" (it spends one action).` : "";
    return { ...base, links: [], data: null, text: `There is no deal ${domain ? "at" : "called"} ${name} in your firm's pipeline.${start}` };
  }
  const figure = str(args.figure)?.toLowerCase();
  let detail;
  try {
    detail = deals.detail(orgId, id, figure ? "full" : "summary");
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return { ...base, links: [], data: null, text: `There is no deal ${name} in your firm's pipeline.` };
    throw e;
  }
  let status: ReturnType<typeof deals.analysisStatus> | null = null;
  try {
    status = deals.analysisStatus(orgId, id);
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 404)) throw e;
  }
  const title = detail.company_name ?? detail.domain ?? "This deal";
  // One fact a line, the stage first: a reader (or an assistant) finds each figure beside what it is.
  const parts = [`${title}${detail.domain ? ` (${detail.domain})` : ""} is at pipeline stage "${detail.stage}".`];
  if (!status) parts.push("It has no analysis.");
  else if (status.status === "failed") parts.push(`Its analysis failed: ${status.error}.`);
  else if (status.status !== "succeeded") parts.push(`Its analysis is ${status.status}${status.progress ? ` (stage: ${status.progress.stage})` : ""}${status.waiting_for ? `, waiting for ${status.waiting_for.replaceAll("_", " ")}` : ""}.`);
  else parts.push(`Its analysis succeeded${status.finished_at ? ` on ${status.finished_at.slice(0, 10)}` : ""}.`);
  const lines = [parts.join(" ")];
  if (detail.score !== null) lines.push(`Score: ${num(detail.score)}/100${detail.score_confidence !== null ? ` (confidence ${num(detail.score_confidence)}: the share of sections with evidence)` : ""}.`);
  else lines.push(status?.status === "succeeded" ? "Score: none, the material held no evidence to score." : "Score: none yet.");
  const r = detail.round;
  if (r.amount !== null) lines.push(`Round: ${r.stage ?? "stage unknown"}, raising ${money(r.amount, r.currency)}.`);
  else if (r.stage) lines.push(`Round: ${r.stage}; its material states no amount.`);
  if (r.pre_money_valuation !== null) lines.push(`Pre-money valuation: ${money(r.pre_money_valuation, r.currency)}.`);
  // (Post-money is the pre-money and the round together, both as its material states them, in one currency.)
  const postMoney = r.pre_money_valuation !== null && r.amount !== null ? r.pre_money_valuation + r.amount : null;
  if (postMoney !== null) lines.push(`Post-money valuation: ${money(postMoney, r.currency)} (the pre-money and the round's amount together).`);
  if (detail.company.sector || detail.company.location) lines.push(`Sector: ${detail.company.sector ?? "not stated"}${detail.company.location ? `; based in ${detail.company.location}` : ""}.`);
  if (detail.company.description) lines.push(`What it does: ${detail.company.description}`);
  const { analysis, ...summary } = detail;
  let deck: { quote: string; where: string }[] | null = null;
  // The figure asked for comes first; the deal's status after it.
  const headline = (line: string) => lines.unshift(line);
  if (figure === "team" || figure === "founders") {
    headline(detail.team.length ? `Team (from its material): ${detail.team.map((m) => `${m.name}${m.title ? ` (${m.title})` : ""}`).join("; ")}.` : "Its material names no team.");
  } else if (figure === "score") {
    headline(detail.score !== null ? `${title}'s score: ${num(detail.score)}/100.` : `${title} has no score: ${status?.status === "succeeded" ? "its material held no evidence to score" : "its analysis has not finished"}.`);
  } else if (figure === "round_amount" || figure === "round") {
    headline(r.amount !== null ? `${title} is raising ${money(r.amount, r.currency)}${r.stage ? ` (${r.stage})` : ""}.` : `How much ${title} is raising is not in your records: its material states no amount${r.stage ? ` (its round: ${r.stage})` : ""}.`);
  } else if (figure === "post_money") {
    headline(postMoney !== null ? `${title}'s post-money valuation: ${money(postMoney, r.currency)}, its pre-money and the round's amount below together.` : `${title}'s post-money valuation is not in your records: its material states ${r.pre_money_valuation === null ? "no pre-money valuation" : "no round amount"} to make it from.`);
  } else if ((figure === "valuation" || figure === "pre_money") && r.pre_money_valuation !== null) {
    headline(`${title}'s pre-money valuation: ${money(r.pre_money_valuation, r.currency)}.`);
  } else if (figure === "pre_money") {
    headline(`${title}'s pre-money valuation is not in your records: its material states none.`);
  } else if (figure === "founded") {
    headline(detail.company.founded_year !== null ? `${title} was founded in ${detail.company.founded_year} (as its material states).` : `When ${title} was founded is not in your records: its material states no founding year.`);
  } else if (figure) {
    // A deal is not a portfolio company: no metric of it is imported. What its own material states is what there is.
    deck = deckSays(analysis, figure);
    const label = metricLabel(figure);
    // Figures a deal's own analysis reads (its valuation, market, team) are a deal's; any other is a portfolio metric.
    const held = !DEAL_FIGURES.has(figure) ? ` ${title} is a deal in your pipeline, not a portfolio company: no ${label} is imported for it (metrics are imported for portfolio companies only).` : "";
    headline(
      deck.length
        ? `${held} What its analysed material states: ${deck.map((d) => `"${d.quote}" (${d.where})`).join("; ")}.`.trim()
        : `${held} Its analysed material states no ${label}${held ? " either" : ""}.`.trim(),
    );
  }
  return {
    ...base,
    links: [`/api/v1/deals/${id}`, `/api/v1/deals/${id}/analysis`],
    data: { deal: summary, analysis: status, ...(deck ? { material_says: deck } : {}) },
    text: lines.join("\n"),
    entities: { deal: { id, name: title }, company: { name: title, domain: detail.domain } },
  };
}

async function listDeals(ctx: AskContext, args: Record<string, unknown>): Promise<Answer> {
  const result = dealsService(ctx.deps).list(ctx.principal.orgId, { limit: 10, offset: 0 });
  const base = { function: "list_deals", arguments: args, links: ["/api/v1/deals"], data: { ...result, scope: "org_workspace" } };
  if (result.total === 0) return { ...base, text: "Your firm's pipeline has no deals yet." };
  const lines = result.deals.map(
    (d, i) => `${i + 1}. ${d.company_name ?? d.domain ?? d.deal_id}: ${d.stage}, analysis ${d.analysis_status ?? "none"}, score ${d.score === null ? "none" : num(d.score)}`,
  );
  return { ...base, text: `${result.total} deal${result.total === 1 ? "" : "s"} in the pipeline, newest first:\n${lines.join("\n")}` };
}

function metricText(label: string, m: MetricValue | undefined, missing: string): string {
  if (!m) return `${label}: not available (${missing}).`;
  const unit = m.currency ? money(m.value, m.currency) : `${num(m.value)}${m.unit ? ` ${m.unit}` : ""}`;
  return `${label}: ${unit} as of ${m.statement_date.slice(0, 10)}.`;
}

async function portfolioCompany(ctx: AskContext, args: Record<string, unknown>): Promise<Answer> {
  const name = str(args.company);
  const base = { function: "portfolio_company", arguments: args };
  if (!name) return { ...base, links: [], data: null, text: "Which portfolio company? Give its name." };
  const portfolio = portfolioService(ctx.deps);
  const { orgId } = ctx.principal;
  let rows: Holding[];
  let match: ReturnType<typeof nameForPhrase> | null = null;
  if (isUuid(name)) {
    try {
      const h = portfolio.mustGetHolding(orgId, name);
      rows = allHoldings(ctx).filter((c) => c.name === h.name);
    } catch {
      rows = [];
    }
  } else {
    // Case, accents and punctuation do not matter; a brand word alone ("acme") finds the one company it starts.
    const all = allHoldings(ctx);
    const found = nameForPhrase([...new Set(all.map((c) => c.name))], name);
    match = found;
    // ("Fathom Labs" beside Fathom AI, Fathom Grid and Fathom Robotics: a word none of them has makes it another company.)
    const said = canon(name).split(" ");
    const alike = found.kind === "several" ? found.names : found.kind === "one" && found.partial ? [found.name] : [];
    const another = alike.length > 0 && said.length > 1 && alike.every((n) => canon(n).split(" ")[0] === said[0] && !canon(n).split(" ").includes(said[1]));
    if (found.kind === "several" && !another) {
      return { ...base, links: ["/api/v1/portfolio/companies"], data: { candidates: found.names }, text: `Several portfolio companies match ${name}: ${listing(found.names)}. Which one?` };
    }
    rows = found.kind === "one" && !another ? all.filter((c) => c.name === found.name) : [];
  }
  if (rows.length === 0) {
    const deal = dealNamed(ctx, name);
    const fund = nameForPhrase(fundsService(ctx.deps).fundNames(ctx.principal.orgId), name);
    const instead = deal
      ? ` It is a deal in your pipeline (stage "${deal.stage}", score ${deal.score === null ? "none" : `${num(deal.score)}/100`}): ask "what is the status of ${deal.company_name}?"`
      : fund.kind === "one" && !fund.partial
        ? ` It is one of your LP funds: ask "how is ${fund.name} doing?"`
        : " Nor is it a deal in your pipeline or one of your LP funds.";
    const alike = match?.kind === "several" ? ` (held with a name like it: ${listing(match.names)})` : match?.kind === "one" ? ` (held with a name like it: ${match.name})` : "";
    return { ...base, links: ["/api/v1/portfolio/companies"], data: deal ? { deal } : null, text: `${name} is not in your firm's portfolio${alike}.${instead}` };
  }
  const company = rows[0];
  const m = company.metrics;
  const missing = (metric: string) => `no actual ${metric} has been imported for ${company.name}`;
  const runway = runwayOf(m);
  const lines = [
    runway.months !== null ? `Runway: ${num(runway.months)} months${runway.how}.` : `Runway: not available (${runway.reason ?? missing("runway_months")}).`,
    metricText("ARR", m.arr, missing("arr")),
    metricText("Monthly burn", m.monthly_burn ?? m.burn, missing("monthly_burn")),
  ];
  // Another metric asked for by name: its latest actual, or that it is not in the records and which are.
  const asked = str(args.metric)?.toLowerCase().replace(/\s+/g, "_");
  if (asked && !["arr", "runway_months", "monthly_burn", "burn"].includes(asked)) {
    const imported = Object.keys(m).sort();
    lines.push(
      m[asked]
        ? metricText(metricLabel(asked), m[asked], missing(asked))
        : `${metricLabel(asked)}: not in your records for ${company.name} (no actual ${asked} has been imported; its imported metrics: ${imported.length ? listing(imported) : "none"}).`,
    );
  }
  // The figures asked first: each metric's latest actual with its date, or that it is not in the records.
  const figures = Array.isArray(args.figures) ? (args.figures as unknown[]).filter((f): f is string => typeof f === "string") : [];
  let headline = "";
  if (figures.length) {
    const said = figures.map((f) => {
      const v = f === "runway_months" && !m[f] && runway.months !== null ? { value: runway.months, unit: "months", currency: null, statement_date: runway.date! } : (m[f] ?? (f === "monthly_burn" ? m.burn : undefined));
      if (!v) return `${metricLabel(f)} is not recorded for ${company.name}, so I can't give it (no actual ${f} is imported for it)`;
      const w = v.currency ? money(v.value, v.currency) : `${num(v.value)}${v.unit ? ` ${v.unit === "percent" ? "%" : v.unit}` : ""}`;
      return `${metricLabel(f)} ${w} (as of ${v.statement_date.slice(0, 10)})`;
    });
    headline = `${company.name}: ${said.join("; ")}.\n`;
  }
  const positions = rows.map(
    (c) =>
      `${c.fund_name}: ${c.holding_type.replaceAll("_", " ")}, ${c.stage}, ${c.status}, invested ${money(c.invested, c.currency) ?? "unknown"}${c.investment_date ? ` on ${c.investment_date.slice(0, 10)}` : ""}, valued ${money(c.current_valuation, c.currency) ?? "unknown"}${c.value_multiple !== null ? ` (${times(c.value_multiple)})` : ""}${c.ownership_percentage !== null ? `, ${num(c.ownership_percentage)}% owned` : ", ownership not recorded"}`,
  );
  const id = company.company_id;
  return {
    ...base,
    links: [`/api/v1/portfolio/companies?q=${encodeURIComponent(company.name)}`, `/api/v1/portfolio/companies/${id}/metrics?metric=arr`, `/api/v1/portfolio/companies/${id}/metrics?metric=runway_months`],
    data: { companies: rows, runway: { months: runway.months, statement_date: runway.date, unavailable_reason: runway.months === null ? (runway.reason ?? missing("runway_months")) : null } },
    text: `${headline}${company.name} (${company.sector}):\n${lines.join("\n")}\nPositions: ${positions.join("; ")}.${company.website ? `\nWebsite: ${company.website}.` : ""}`,
    entities: { holding: { id, name: company.name }, company: { name: company.name, domain: null } },
  };
}

type Holding = ReturnType<typeof allHoldings>[number];

/** The reported runway; else cash over monthly burn when both are reported for the same date. */
function runwayOf(m: Record<string, MetricValue>): { months: number | null; date: string | null; how: string; reason?: string } {
  const reported = m.runway_months;
  if (reported) return { months: reported.value, date: reported.statement_date, how: ` as of ${reported.statement_date.slice(0, 10)}` };
  const cash = m.cash ?? m.cash_balance;
  const burn = m.monthly_burn ?? m.burn;
  if (cash && burn && burn.value > 0 && cash.statement_date === burn.statement_date) {
    const months = Math.round((cash.value / burn.value) * 10) / 10;
    return { months, date: cash.statement_date, how: `, cash ${money(cash.value, cash.currency)} over monthly burn ${money(burn.value, burn.currency)} as of ${cash.statement_date.slice(0, 10)}` };
  }
  return { months: null, date: null, how: "", reason: cash || burn ? "the reported cash and monthly burn are not of the same date, and no runway_months was reported" : undefined };
}

/** The org's deal of exactly this name (case and accents aside), newest first; null when none. */
function dealNamed(ctx: AskContext, name: string) {
  return pipelineDeals(ctx).find((d) => d.company_name && fold(d.company_name) === fold(name)) ?? null;
}

async function fundPositions(ctx: AskContext, args: Record<string, unknown>): Promise<Answer> {
  const fund = str(args.fund);
  const funds = fundsService(ctx.deps);
  const { orgId } = ctx.principal;
  const base = { function: "fund_positions", arguments: args };
  // The names first (no ledger read); the positions, with their XIRR, once: the fund's, or all.
  const names = funds.fundNames(orgId);
  if (names.length === 0) return { ...base, links: ["/api/v1/funds/positions"], data: { scope: "org", ...funds.positions(orgId) }, text: "Your firm has no LP fund commitments imported." };
  // Case, accents and roman/arabic numerals do not matter; "Fund II" finds "Alpha Fund II" when no other fund has it.
  const match = fund ? nameForPhrase(names, fund) : null;
  if (match?.kind === "none") {
    // One of the firm's own funds is not an LP position: say what the records hold of it instead.
    const own = nameForPhrase([...new Set(allHoldings(ctx).map((h) => h.fund_name))], fund!);
    const ownFund = own.kind === "one" ? own.name : null;
    const instead = ownFund
      ? ` ${ownFund} is one of your own funds, holding ${allHoldings(ctx).filter((h) => h.fund_name === ownFund).length} portfolio positions: I can't give a TVPI, DPI or IRR of it, as your records keep those for LP positions only (not for the funds you manage). Ask "portfolio companies in ${ownFund}" for its holdings, what was invested and their valuations.`
      : "";
    return {
      ...base,
      links: ["/api/v1/funds/positions"],
      data: { candidates: names, unavailable_reason: "fund_not_found", ...(ownFund ? { own_fund: ownFund } : {}) },
      // (A bare "Fund II" names no fund of its own: the ones held are listed to choose from; a named fund the records lack is only said to be none of them.)
      text: `${fund} is not one of your LP funds: there is no LP position in a fund called that.${BARE_FUND.test(fund!.trim()) ? ` Your funds: ${listing(names)}.` : ` (You hold ${names.length} LP ${names.length === 1 ? "position" : "positions"}; ask for your LP funds to list them.)`}${instead}`,
    };
  }
  if (match?.kind === "several") {
    return { ...base, links: ["/api/v1/funds/positions"], data: { candidates: match.names }, text: `Several of your LP funds match ${fund}: ${listing(match.names)}. Which one?` };
  }
  const all = funds.positions(orgId, match?.name);
  const chosen = all.positions;
  const line = (p: (typeof all.positions)[number]) => {
    const flags = p.data_quality_flags.length ? ` Data quality: ${p.data_quality_flags.join(", ")}.` : "";
    const na = (v: string | null) => v ?? "not available";
    return `${p.fund_name} (${p.vintage_year ?? "vintage unknown"}, ${p.currency ?? "currency unknown"}): TVPI ${na(times(p.tvpi))}, DPI ${na(times(p.dpi))}, IRR ${na(percent(p.irr))}; committed ${money(p.commitment, p.currency) ?? "unknown"}, called ${money(p.called, p.currency) ?? "unknown"}, distributed ${money(p.distributed, p.currency) ?? "unknown"}, NAV ${money(p.nav, p.currency) ?? "not available"}${p.nav_date ? ` (${p.nav_date.slice(0, 10)})` : ""}.${flags}`;
  };
  const lines = chosen.map(line);
  const t = all.totals;
  const totals =
    chosen.length > 1
      ? `\nAll positions together${t.currency ? ` (${t.currency})` : ""}: TVPI ${times(t.tvpi) ?? "not available"}, DPI ${times(t.dpi) ?? "not available"}, IRR ${percent(t.irr) ?? "not available"}${t.currency === null ? " (not pooled across currencies)" : ""}.`
      : "";
  const one = chosen.length === 1 ? chosen[0] : null;
  // The figures asked of one fund first, each with its unit and date, then its whole position.
  const asked = Array.isArray(args.figures) ? (args.figures as unknown[]).filter((f): f is string => typeof f === "string" && f in POSITION_FIGURES) : [];
  if (one && asked.length) {
    const said = asked.map((f) => {
      const [label, value] = POSITION_FIGURES[f](one);
      return `${label} ${value ?? "not in your records (none can be computed from what is imported)"}`;
    });
    lines.unshift(`${one.fund_name}: ${said.join("; ")}${one.nav_date && asked.some((f) => ["nav", "tvpi", "rvpi"].includes(f)) ? ` (NAV as of ${one.nav_date.slice(0, 10)})` : ""}.`);
  }
  return {
    ...base,
    links: [one ? `/api/v1/funds/positions?fund_name=${encodeURIComponent(one.fund_name)}` : "/api/v1/funds/positions"],
    data: { scope: "org", ...all },
    text: (match?.kind === "one" && match.partial ? `(${fund} read as ${match.name}.)\n` : "") + lines.join("\n") + totals,
    entities: one ? { fund: { name: one.fund_name } } : undefined,
  };
}

type PositionRow = ReturnType<ReturnType<typeof fundsService>["positions"]>["positions"][number];
/** A position's figures by the names the query uses, as they are written. */
const POSITION_FIGURES: Record<string, (p: PositionRow) => [string, string | null]> = {
  tvpi: (p) => ["TVPI", times(p.tvpi)],
  dpi: (p) => ["DPI", times(p.dpi)],
  rvpi: (p) => ["RVPI", times(p.rvpi)],
  irr: (p) => ["IRR", percent(p.irr)],
  nav: (p) => ["NAV", money(p.nav, p.currency)],
  commitment: (p) => ["committed", money(p.commitment, p.currency)],
  called: (p) => ["called", money(p.called, p.currency)],
  distributed: (p) => ["distributed", money(p.distributed, p.currency)],
  unfunded: (p) => ["unfunded", money(p.unfunded, p.currency)],
  vintage: (p) => ["vintage", p.vintage_year === null ? null : String(p.vintage_year)],
  called_pct: (p) => ["called as a share of commitment", p.called !== null && p.commitment ? `${num(Math.round((p.called / p.commitment) * 1000) / 10)}%` : null],
  last_mark: (p) => ["last marked", p.last_mark_date ? `on ${p.last_mark_date.slice(0, 10)}` : null],
};

const text = (description: string) => ({ type: "string", description });

/** A fund said by its number alone ("Fund II"): no name of its own, so the funds held are offered. */
const BARE_FUND = /^(?:our |the )?funds? (?:[ivx]{1,4}|\d{1,2})$/i;

export const BOOK_FUNCTIONS: AskFunction[] = [
  {
    name: "deal_status",
    description: "A deal in the firm's pipeline: stage, analysis status and score, round, sector; with `figure`, what its analysed material states of it (a deal has no imported metrics).",
    parameters: {
      type: "object",
      properties: { deal: text("Company name, domain or deal id"), figure: text("A figure asked about: arr, monthly_burn, runway_months, headcount, gross_margin, customers, growth, valuation, market, team") },
      required: ["deal"],
    },
    action: false,
    run: dealStatus,
  },
  {
    name: "list_deals",
    description: "The firm's newest deals with their analysis status and score.",
    parameters: { type: "object", properties: {} },
    action: false,
    run: listDeals,
  },
  {
    name: "portfolio_company",
    description: "A portfolio company's runway, ARR, monthly burn and positions (latest actuals); with `metric`, that imported metric too (or which are imported).",
    parameters: { type: "object", properties: { company: text("Portfolio company name"), metric: text("Another metric asked about, e.g. headcount, gross_margin") }, required: ["company"] },
    action: false,
    run: portfolioCompany,
  },
  {
    name: "fund_positions",
    description: "LP fund positions: TVPI, DPI, IRR, called, distributed, NAV; one fund or all.",
    parameters: { type: "object", properties: { fund: text("Fund name; omit for every position"), figures: { type: "array", items: { type: "string" }, description: "Figures asked of one fund, said first: tvpi, dpi, rvpi, irr, nav, commitment, called, distributed, unfunded, vintage, last_mark" } } },
    action: false,
    run: fundPositions,
  },
];
