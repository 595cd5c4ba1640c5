// What a portfolio company reported in its investor updates ("what did Acme report last month?"):
// the figures read from its updates and applied to the book, each with the sentence it came from
// and the update it was in, through the updates service. A figure waiting for review is not a
// reported figure yet, so only applied ones are said; none within the dates is said plainly.
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
  const figures = updatesService(ctx.deps).reportedFigures(ctx.principal.orgId, holding.company_id, { ...(since ? { since } : {}), ...(until ? { until } : {}) });
  const link = `/api/v1/portfolio/updates?company_id=${holding.company_id}`;
  const within = since || until ? ` for periods ${since ? `from ${since} ` : ""}${until ? `to ${until}` : "to now"}`.replace(/ $/, "") : "";
  if (figures.length === 0) {
    return { ...base, text: `No figure from ${holding.name}'s investor updates is in your records${within}: none was read and applied (figures waiting for review are not counted until accepted).\nSource: investor updates (${link}).`, data: { company_id: holding.company_id, figures: [] }, links: [link], entities: { holding: { id: holding.company_id, name: holding.name } } };
  }
  // The latest period first; each figure with its quote and the update it came from.
  const latest = figures[0].period_end;
  const shown = figures.filter((f) => f.period_end === latest || (since !== null && f.period_end !== null && f.period_end >= since));
  const lines = shown.map((f) => `- ${metricLabel(f.metric)}: ${metricValue({ value: f.value, currency: f.currency, unit: f.unit })} for the period ending ${f.period_end} ("${f.quote}", in "${f.subject ?? "an update"}" received ${String(f.received_at).slice(0, 10)})`);
  return {
    ...base,
    text: `${holding.name} reported${within}:\n${lines.join("\n")}\nSource: investor updates read from mail (${link}); each figure with the sentence it came from.`,
    data: { company_id: holding.company_id, figures: shown },
    links: [link],
    entities: { holding: { id: holding.company_id, name: holding.name } },
  };
}

export const UPDATES_FUNCTIONS: AskFunction[] = [
  {
    name: "investor_updates",
    description: "What a portfolio company reported in its investor updates read from mail: each applied figure with its period, the sentence it came from and the update it was in.",
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
];
