// What a portfolio company reported in its investor updates ("what did Acme report last month?"):
// the figures read from its updates and applied to the book, each with the sentence it came from
// and the update it was in, through the updates service. A figure waiting for review is what the
// founders said but not yet in the book: said apart, with why it waits, never mixed with the applied ones.
import { nameForPhrase } from "../../lib/name-match.ts";
import { listing } from "../../lib/prose.ts";
import { updatesService } from "../updates/updates.service.ts";
import type { Answer, AskContext, AskFunction } from "./ask.context.ts";
import { allHoldings } from "./ask.names.ts";
import { metricLabel, metricValue } from "./ask.query.fields.ts";

const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);
const DAY = /^\d{4}-\d{2}-\d{2}$/;

async function investorUpdates(ctx: AskContext, args: Record<string, unknown>): Promise<Answer> {
  const base = { function: "investor_updates", arguments: args };
  const name = str(args.company);
  if (!name) return { ...base, text: "Which portfolio company's updates? Give its name.", data: null, links: [] };
  const since = str(args.since);
  const until = str(args.until);
  if ((since && !DAY.test(since)) || (until && !DAY.test(until))) return { ...base, text: "since and until must be calendar days (YYYY-MM-DD).", data: null, links: [] };
  const all = allHoldings(ctx);
  const match = nameForPhrase([...new Set(all.map((h) => h.name))], name);
  if (match.kind === "several") return { ...base, text: `Several portfolio companies match ${name}: ${listing(match.names)}. Which one?`, data: null, links: [] };
  if (match.kind === "none") return { ...base, text: `${name} is not in your firm's portfolio, so it sends you no investor updates.`, data: null, links: [] };
  const holding = all.find((h) => h.name === match.name)!;
  const updates = updatesService(ctx.deps);
  const figures = updates.reportedFigures(ctx.principal.orgId, holding.company_id, { ...(since ? { since } : {}), ...(until ? { until } : {}) });
  // Waiting figures within the dates asked; one with no period said is within any dates of the update's arrival.
  const within = (day: string | null) => (!since || (day !== null && day >= since)) && (!until || (day !== null && day <= until));
  const waiting = updates.figuresForReview(ctx.principal.orgId, holding.company_id).filter((f) => within(f.period_end ?? String(f.received_at).slice(0, 10)));
  const link = `/api/v1/portfolio/updates?company_id=${holding.company_id}`;
  const dates = since || until ? ` for periods ${since ? `from ${since} ` : ""}${until ? `to ${until}` : "to now"}`.replace(/ $/, "") : "";
  const waitingText = waiting.length ? `${figures.length ? "\n" : ""}Waiting for your review, so not in the book yet:\n${waiting.map(waitingLine).join("\n")}\n` : "";
  if (figures.length === 0) {
    const none = `No figure from ${holding.name}'s investor updates is in your book${dates}: none was read and applied${waiting.length ? "." : " (figures waiting for review are not counted until accepted)."}\n`;
    // (What the company reported through the imported actuals is still what it reported: said, with its dates.)
    const actuals = Object.entries(holding.metrics).filter(([, m]) => within(m.statement_date.slice(0, 10)) || (!since && !until));
    const book = actuals.length ? `Its latest actuals in your book (imported, not read from an update): ${actuals.map(([k, m]) => `${metricLabel(k)} ${metricValue(m)} (${m.statement_date.slice(0, 10)})`).join("; ")}.\n` : "";
    return { ...base, text: `${none}${waitingText}${book}Source: investor updates (${link})${book ? ` and the portfolio book (/api/v1/portfolio/companies/${holding.company_id}/metrics)` : ""}.`, data: { company_id: holding.company_id, figures: [], waiting_for_review: waiting }, links: [link], entities: { holding: { id: holding.company_id, name: holding.name } } };
  }
  // The latest period first; each figure with its quote and the update it came from.
  const latest = figures[0].period_end;
  const shown = figures.filter((f) => f.period_end === latest || (since !== null && f.period_end !== null && f.period_end >= since));
  const lines = shown.map((f) => `- ${metricLabel(f.metric)}: ${metricValue({ value: f.value, currency: f.currency, unit: f.unit })} for the period ending ${f.period_end} ("${f.quote}", in "${f.subject ?? "an update"}" received ${String(f.received_at).slice(0, 10)})`);
  return {
    ...base,
    text: `${holding.name} reported${dates}:\n${lines.join("\n")}\n${waitingText}Source: investor updates read from mail (${link}); each figure with the sentence it came from.`,
    data: { company_id: holding.company_id, figures: shown, waiting_for_review: waiting },
    links: [link],
    entities: { holding: { id: holding.company_id, name: holding.name } },
  };
}

type Waiting = ReturnType<ReturnType<typeof updatesService>["figuresForReview"]>[number];

function waitingLine(f: Waiting): string {
  const period = f.period_end ? `for the period ending ${f.period_end}` : "with no period said";
  return `- ${metricLabel(f.metric)}: ${metricValue({ value: f.value, currency: f.currency, unit: f.unit })} ${period} ("${f.quote}", in "${f.subject}" received ${String(f.received_at).slice(0, 10)}): waits because ${f.reason ?? "it was held for review"}`;
}

/** "Anything from founder updates still waiting on review?": every figure the book holds back, by company. */
async function updatesForReview(ctx: AskContext, args: Record<string, unknown>): Promise<Answer> {
  const base = { function: "updates_for_review", arguments: args };
  const waiting = updatesService(ctx.deps).figuresForReview(ctx.principal.orgId);
  const link = "/api/v1/portfolio/updates?status=needs_review";
  if (waiting.length === 0) return { ...base, text: `None: no figure from your investor updates is waiting for review.\nSource: investor updates (${link}).`, data: { figures: [] }, links: [link] };
  const nameOf = new Map(allHoldings(ctx).map((h) => [h.company_id, h.name]));
  const byCompany = new Map<string, Waiting[]>();
  for (const f of waiting) {
    const name = nameOf.get(f.holding_id) ?? f.holding_id;
    byCompany.set(name, [...(byCompany.get(name) ?? []), f]);
  }
  const blocks = [...byCompany].map(([name, list]) => `${name}:\n${list.map(waitingLine).join("\n")}`);
  return {
    ...base,
    text: `${waiting.length} figure${waiting.length === 1 ? "" : "s"} from ${byCompany.size === 1 ? "one company's" : `${byCompany.size} companies'`} investor updates ${waiting.length === 1 ? "is" : "are"} waiting for your review (not in the book until accepted):\n${blocks.join("\n")}\nSource: investor updates (${link}).`,
    data: { figures: waiting.map((f) => ({ ...f, company_name: nameOf.get(f.holding_id) ?? null })) },
    links: [link],
  };
}

export const UPDATES_FUNCTIONS: AskFunction[] = [
  {
    name: "investor_updates",
    description: "What a portfolio company reported in its investor updates read from mail: each applied figure with its period, the sentence it came from and the update it was in; figures still waiting for review said apart.",
    parameters: {
      type: "object",
      properties: {
        company: { type: "string", description: "The portfolio company" },
        since: { type: "string", description: "Periods ending on or after this day (YYYY-MM-DD)" },
        until: { type: "string", description: "Periods ending on or before this day (YYYY-MM-DD)" },
      },
      required: ["company"],
    },
    action: false,
    run: investorUpdates,
  },
  {
    name: "updates_for_review",
    description: "Figures read from portfolio companies' investor updates that wait for review (not applied to the book yet), each with why it waits.",
    parameters: { type: "object", properties: {} },
    action: false,
    run: updatesForReview,
  },
];
