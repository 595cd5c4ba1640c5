// The built-in planner: a deterministic decomposition of a research query into 2-6 sub-questions.
// The query is split where it asks several things (question marks, list items, semicolons, "and"
// between two full clauses); then facet questions are added for what it names that the firm's
// records know: companies (metrics, network), funds (TVPI/DPI/IRR), people (who knows them).
import { MAX_SUB_QUESTIONS, MIN_SUB_QUESTIONS, type Entities } from "../research-engine.ts";

const MAX_QUESTION_CHARS = 300;

const clean = (s: string) =>
  s
    .replace(/^\s*(?:[-*•]|\d+[.)])\s*/, "")
    .replace(/^(?:and|also|then|plus)\b[,\s]*/i, "")
    .replace(/\s+/g, " ")
    .replace(/^[,;:.\s]+|[,;:\s]+$/g, "")
    .trim();

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

function asQuestion(s: string): string {
  let q = s.length > MAX_QUESTION_CHARS ? `${s.slice(0, MAX_QUESTION_CHARS).replace(/\s+\S*$/, "")}…` : s;
  q = q.charAt(0).toUpperCase() + q.slice(1);
  return /[?…]$/.test(q) ? q : `${q.replace(/[.!]+$/, "")}?`;
}

/** The query's own parts: one per question, list item or clause it asks about. */
export function splitQuery(query: string): string[] {
  const parts = query
    .split(/\n+|(?<=\?)\s*|(?<=[.!])\s+(?=\p{Lu})|;\s+/u)
    .map(clean)
    .filter((p) => words(p) >= 2 || /\p{L}{3,}/u.test(p));
  const out: string[] = [];
  for (const part of parts) {
    // "and" joins two questions only when both sides are clauses of their own (4+ words).
    const halves = part.split(/,?\s+and\s+(?=(?:what|who|how|which|where|when|why|is|are|does|do|did|can)\b)/i);
    if (halves.length > 1 && halves.every((h) => words(h) >= 3)) out.push(...halves.map(clean));
    else out.push(part);
  }
  return out.filter(Boolean);
}

export function planQuestions(query: string, e: Entities): string[] {
  const plan: string[] = [];
  const add = (q: string) => {
    const question = asQuestion(q);
    if (!plan.some((p) => p.toLowerCase() === question.toLowerCase())) plan.push(question);
  };
  const parts = splitQuery(query);
  for (const part of parts.length ? parts : [clean(query) || query.trim()]) add(part);
  // Facets of what the query names, most specific first, while there is room.
  const named = e.metrics.map((m) => (["arr", "mrr", "ebitda"].includes(m) ? m.toUpperCase() : m));
  const metrics = named.length ? named.join(", ") : "ARR, burn and runway";
  const facets: string[] = [];
  for (const c of e.companies) {
    facets.push(`What are ${c.name.endsWith("s") ? `${c.name}'` : `${c.name}'s`} latest ${metrics} figures?`);
    if (c.domain) facets.push(`Who in the firm's network knows people at ${c.name}?`);
  }
  for (const f of e.funds) facets.push(`How is the firm's commitment to ${f} performing (TVPI, DPI, IRR)?`);
  if (e.fundBook && e.funds.length === 0) facets.push("How are the firm's fund commitments performing (TVPI, DPI, IRR)?");
  for (const p of e.persons) facets.push(`Who in the firm knows ${p}, and how warm is the relationship?`);
  if (e.companies.length === 0 && e.metrics.length) facets.push(`Which portfolio companies report ${metrics}, and at what latest values?`);
  // The query's own parts keep their place; facets fill what is left of the six.
  const own = plan.splice(0, plan.length);
  for (const q of own.slice(0, MAX_SUB_QUESTIONS - Math.min(facets.length, 2))) add(q);
  for (const f of facets) if (plan.length < MAX_SUB_QUESTIONS) add(f);
  for (const q of own) if (plan.length < MAX_SUB_QUESTIONS) add(q);
  if (plan.length < MIN_SUB_QUESTIONS) add(documentsQuestion(query));
  return plan.slice(0, MAX_SUB_QUESTIONS);
}

const SHORT_TOPIC = 120;
const QUESTION_START = /^(?:what|who|whom|whose|which|how|why|when|where|is|are|was|were|do|does|did|can|could|should|will|would|has|have)\b/i;

/**
 * The fallback sub-question about the documents, in plain English whatever the query's form:
 * "What is the outlook for X?" -> "...say about the outlook for X?"; another question is quoted
 * ("...say on the question "how is Ledgerly doing"?"); a topic is used as it is.
 */
export function documentsQuestion(query: string): string {
  let topic = clean(query).replace(/[?.!]+$/, "");
  if (topic.length > SHORT_TOPIC) topic = `${topic.slice(0, SHORT_TOPIC).replace(/\s+\S*$/, "")}…`;
  const stated = /^(?:what|which)\s+(?:is|are|was|were)\s+(.+)$/i.exec(topic) ?? /^(?:what about|tell me about|tell us about|describe|explain|research|summari[sz]e)\s+(.+)$/i.exec(topic);
  if (stated) return `What do the firm's documents and deal analyses say about ${stated[1]}?`;
  const lowered = /^[A-Z][a-z]+\b/.test(topic) && (QUESTION_START.test(topic) || /^(?:the|a|an|our|my|recent|latest|current)\b/i.test(topic)) ? topic.charAt(0).toLowerCase() + topic.slice(1) : topic;
  if (QUESTION_START.test(topic)) return `What do the firm's documents and deal analyses say on the question "${lowered}"?`;
  return `What do the firm's documents and deal analyses say about ${lowered}?`;
}
