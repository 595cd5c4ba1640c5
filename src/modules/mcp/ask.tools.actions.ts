// Starting actions from a question: a deal analysis of a website or document link, a founder
// analysis, a research run. Each goes through the same submission as its REST endpoint, so it
// checks the same things and charges the same actions budget; the caller (ask.tools.ts)
// has already refused read-only keys.
import { createHash } from "node:crypto";
import { submitDealUrl } from "../deals/deals.submissions.ts";
import { foundersService } from "../founders/founders.service.ts";
import { researchService } from "../research/research.service.ts";
import { fold } from "../../lib/prose.ts";
import { str, type Answer, type AskContext, type AskFunction } from "./ask.context.ts";

const accepted = (ctx: AskContext, what: string, body: { status: string; status_url: string; result_url: string }, headers: Record<string, string>) => {
  const left = headers["X-Actions-Remaining"];
  const holder = ctx.principal.oauthClient === undefined ? "Your key" : "This app";
  return `${what} is ${body.status}. Follow it at ${body.status_url}; the result will be at ${body.result_url}.${left !== undefined ? ` ${holder} has ${left} action${left === "1" ? "" : "s"} left today.` : ""}`;
};

async function startDealAnalysis(ctx: AskContext, args: Record<string, unknown>): Promise<Answer> {
  const website_url = str(args.website_url);
  const document_url = str(args.document_url);
  const company_name = str(args.company_name)?.slice(0, 200);
  const base = { function: "start_deal_analysis", arguments: args };
  if (!website_url && !document_url) {
    return { ...base, links: [], data: null, text: "To analyse a deal I need its website (https://...) or a link to its deck." };
  }
  const { body, headers } = await submitDealUrl(ctx.deps, ctx.principal, website_url ? { website_url, company_name } : { document_url, company_name });
  const name = company_name ?? new URL(website_url ?? document_url!).hostname.replace(/^www\./, "");
  return {
    ...base,
    links: [body.result_url, body.status_url],
    data: { accepted: body, actions: headers },
    text: accepted(ctx, `The deal analysis of ${name} (deal ${body.deal_id})`, body, headers),
    entities: { deal: { id: body.deal_id, name } },
  };
}

async function startFounderAnalysis(ctx: AskContext, args: Record<string, unknown>): Promise<Answer> {
  const input = Object.fromEntries(
    (["name", "linkedin_url", "github_url", "company"] as const).map((k) => [k, str(args[k])]).filter(([, v]) => v !== undefined),
  );
  const base = { function: "start_founder_analysis", arguments: args };
  if (!input.name && !input.linkedin_url && !input.github_url) {
    return { ...base, links: [], data: null, text: "Which founder? Give a name (and their company), a LinkedIn profile URL or a GitHub profile URL." };
  }
  const { body, headers } = foundersService(ctx.deps).analyze(ctx.principal, input);
  const who = input.name ?? input.linkedin_url ?? input.github_url!;
  const text = body.existing
    ? `An analysis of ${who} already exists (${body.status}); nothing new was started and no action was charged. Read it at ${body.result_url}.`
    : accepted(ctx, `The founder analysis of ${who}${input.company ? ` (${input.company})` : ""}`, body, headers);
  return { ...base, links: [body.result_url], data: { accepted: body, actions: headers }, text, entities: { founder: { id: body.analysis_id, name: who } } };
}

/**
 * The same conversation asking the same question gets the same key, so a retried tool call finds
 * the run it started instead of paying for a second one; the n-th research run of one question
 * gets the n-th key. A run of that key that failed is not what the partner asks for again: the
 * key moves on (retry 1, 2, ...) past failed runs, to a queued, running or succeeded one, or to
 * a fresh key that starts a new run.
 */
export function researchKey(ctx: AskContext): string {
  const n = ctx.turn.researchCalls++;
  const research = researchService(ctx.deps);
  const question = fold(ctx.turn.question);
  for (let retry = 0; ; retry++) {
    const digest = createHash("sha256")
      .update(`${question}\n${n}${retry ? `\nretry ${retry}` : ""}`)
      .digest("hex")
      .slice(0, 32);
    const key = `mcp:${ctx.turn.conversationId}:${digest}`;
    // Each failed run was an action charged to this conversation's key: the walk is as long as those.
    if (research.statusOfKey(ctx.principal.orgId, key) !== "failed") return key;
  }
}

async function startResearch(ctx: AskContext, args: Record<string, unknown>): Promise<Answer> {
  const query = str(args.query);
  const base = { function: "start_research", arguments: args };
  if (!query) return { ...base, links: [], data: null, text: "What should I research? Say it in a sentence." };
  const { body, headers } = await researchService(ctx.deps).start(ctx.principal, { query, idempotency_key: researchKey(ctx) });
  const plan = body.plan.sub_questions.length ? `\nPlan:\n${body.plan.sub_questions.map((q, i) => `${i + 1}. ${q}`).join("\n")}` : "";
  const text = body.existing
    ? `This question already started research run ${body.research_id} in this conversation (${body.status}); nothing new was started and no action was charged. Follow it at ${body.result_url}.`
    : accepted(ctx, `The research run on "${query}" (research ${body.research_id})`, body, headers) + plan;
  return { ...base, links: [body.result_url], data: { accepted: body, actions: headers }, text, entities: { research: { id: body.research_id, query } } };
}

const text = (description: string) => ({ type: "string", description });

export const ACTION_FUNCTIONS: AskFunction[] = [
  {
    name: "start_deal_analysis",
    description: "Start a deal analysis of a company's website or a hosted deck link. Spends one action.",
    parameters: {
      type: "object",
      properties: { website_url: text("The company's website (http/https)"), document_url: text("A hosted deck link"), company_name: text("The company's name, if known") },
    },
    action: true,
    run: startDealAnalysis,
  },
  {
    name: "start_founder_analysis",
    description: "Start an analysis of a founder (name, LinkedIn or GitHub URL, company). Spends one action.",
    parameters: {
      type: "object",
      properties: { name: text("Founder's full name"), linkedin_url: text("LinkedIn profile URL"), github_url: text("GitHub profile URL"), company: text("Their company") },
    },
    action: true,
    run: startFounderAnalysis,
  },
  {
    name: "start_research",
    description: "Start a research run on a question or topic over the firm's documents and data. Spends one action.",
    parameters: { type: "object", properties: { query: text("What to research") }, required: ["query"] },
    action: true,
    run: startResearch,
  },
];
