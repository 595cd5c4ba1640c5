// Reading what actions produced, without starting anything: a founder's analysis (by id, or by the
// founder's name: the newest finished one) and a research run's status and summary (by id). The
// same reads as GET /founders/analyses/{id} and GET /research/{id}.
import { ApiError } from "../../http/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { foundersService } from "../founders/founders.service.ts";
import { researchService } from "../research/research.service.ts";
import { fold, listing, num } from "../../lib/prose.ts";
import { str, type Answer, type AskContext, type AskFunction } from "./ask.context.ts";

type FounderRecord = ReturnType<ReturnType<typeof foundersService>["read"]>;

function describeFounder(a: FounderRecord): string {
  const who = `${a.founder.name ?? a.founder.linkedin_url ?? a.founder.github_url ?? "This founder"}${a.founder.company ? ` (${a.founder.company})` : ""}`;
  if (a.status === "failed") return `The analysis of ${who} failed: ${a.error}. Nothing is scored.`;
  if (a.status !== "succeeded") return `The analysis of ${who} is ${a.status}${a.progress ? ` (stage: ${a.progress.stage})` : ""}; no score yet.`;
  const overall = a.overall_score === null ? "no overall score (no metric had evidence to score it)" : `an overall score of ${num(a.overall_score)}/100`;
  const metrics = a.metrics.map((m) => `${m.label} ${m.score === null ? "not scored" : num(m.score)}`);
  const parts = [`${who} got ${overall}${a.finished_at ? ` (analysis finished ${a.finished_at.slice(0, 10)})` : ""}.`];
  if (metrics.length) parts.push(`Metrics: ${metrics.join("; ")}.`);
  if (a.strengths.length) parts.push(`Strengths: ${a.strengths.join("; ")}.`);
  if (a.risks.length) parts.push(`Risks: ${a.risks.join("; ")}.`);
  return parts.join(" ");
}

async function founderAnalysis(ctx: AskContext, args: Record<string, unknown>): Promise<Answer> {
  const id = str(args.analysis_id);
  const name = str(args.founder);
  const base = { function: "founder_analysis", arguments: args };
  const founders = foundersService(ctx.deps);
  const { orgId } = ctx.principal;
  const answer = (a: FounderRecord, text = describeFounder(a)): Answer => ({
    ...base,
    links: [`/api/v1/founders/analyses/${a.analysis_id}`],
    data: { analysis: a },
    text,
    entities: { founder: { id: a.analysis_id, name: a.founder.name ?? a.analysis_id } },
  });
  if (id) {
    if (!isUuid(id)) return { ...base, links: [], data: null, text: `${id} is not a founder analysis id.` };
    try {
      return answer(founders.read(orgId, id, "summary"));
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return { ...base, links: [], data: null, text: `There is no founder analysis ${id} in your workspace.` };
      throw e;
    }
  }
  if (!name) return { ...base, links: [], data: null, text: "Which founder? Give their full name, or the analysis id." };
  const found = founders.findByName(orgId, name, 10);
  const exact = found.filter((a) => a.founder.name && fold(a.founder.name) === fold(name));
  const pick = exact.length ? exact : found;
  const names = [...new Set(pick.map((a) => a.founder.name ?? a.analysis_id))];
  if (names.length === 0) {
    return {
      ...base,
      links: [],
      data: { analyses: [], unavailable_reason: "founder_analysis_not_found" },
      text: `There is no finished founder analysis of ${name} in your workspace (finished analyses are searched by name). To start one, say "analyze founder ${name} of <company>" (it spends one action).`,
    };
  }
  if (names.length > 1) {
    return { ...base, links: [], data: { candidates: names }, text: `Several analysed founders match ${name}: ${listing(names)}. Which one?` };
  }
  const newest = pick[0];
  const older = pick.length > 1 ? ` (the newest of ${pick.length} analyses of ${names[0]})` : "";
  return answer(newest, describeFounder(newest) + older);
}

async function researchStatus(ctx: AskContext, args: Record<string, unknown>): Promise<Answer> {
  const id = str(args.research_id);
  const base = { function: "research_status", arguments: args };
  if (!id) {
    return { ...base, links: [], data: null, text: "Which research run? Give its research_id (the answer that started it has it), or ask in the conversation that started it." };
  }
  let r;
  try {
    r = researchService(ctx.deps).read(ctx.principal.orgId, id, "summary");
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return { ...base, links: [], data: null, text: `There is no research run ${id} in your workspace.` };
    throw e;
  }
  const parts = [`The research run on "${r.query}" is ${r.status}${r.progress ? ` (${r.progress.stage}${typeof r.progress.percent === "number" ? `, ${r.progress.percent}%` : ""})` : ""}.`];
  if (r.status === "failed") parts.push(`Error: ${r.error}.`);
  if (r.executive_summary) parts.push(`Summary: ${r.executive_summary}`);
  else if (r.status === "succeeded") parts.push("It has no summary.");
  parts.push(`The full report: /api/v1/research/${r.research_id}`);
  return {
    ...base,
    links: [`/api/v1/research/${r.research_id}`],
    data: { research: r },
    text: parts.join(" "),
    entities: { research: { id: r.research_id, query: r.query } },
  };
}

const text = (description: string) => ({ type: "string", description });

export const RUN_FUNCTIONS: AskFunction[] = [
  {
    name: "founder_analysis",
    description: "Read a founder analysis already made (score, metrics, strengths, risks, or its status): by the founder's name (newest finished one) or its id. Starts nothing.",
    parameters: { type: "object", properties: { founder: text("The founder's full name"), analysis_id: text("A founder analysis id") } },
    action: false,
    run: founderAnalysis,
  },
  {
    name: "research_status",
    description: "Read a research run's status and executive summary by its id. Starts nothing.",
    parameters: { type: "object", properties: { research_id: text("The research run's id") }, required: ["research_id"] },
    action: false,
    run: researchStatus,
  },
];
