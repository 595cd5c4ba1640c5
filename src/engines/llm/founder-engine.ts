// The LLM founder engine (DEALGRAPH_LLM_BASE_URL set): the same evidence the built-in engine
// judges, numbered, handed to the model with a strict JSON shape to fill. The answer is checked
// field by field; sources are only ever the gathered rows (the model cites them by number), and
// the overall score is computed here, not by the model. Any model error fails the run with the reason.
import {
  FOUNDER_METRICS,
  metricLabel,
  overallScore,
  type FounderAssessment,
  type FounderEngine,
  type FounderEvidence,
  type FounderMetric,
} from "../founder-engine.ts";
import { llmClient, type LlmConfig } from "./client.ts";

const KEYS = FOUNDER_METRICS.map(([k]) => k) as string[];

type Answer = { metrics: FounderMetric[]; strengths: string[]; risks: string[]; cited: number[] };

const SYSTEM = `You assess a startup founder for a venture firm, using ONLY the evidence given (the firm's own network, deals, documents and, when present, a GitHub profile).
Answer with one JSON object:
{"metrics":[{"key":string,"score":number|null,"confidence":number,"reasoning":string,"missing_info":[string]}],"strengths":[string],"risks":[string],"sources":[number]}
- metrics: exactly one entry for each key of ${KEYS.join(", ")}.
- score: 0-100, or null when the evidence says nothing about that metric (then confidence 0). Never guess.
- confidence: 0-1, how much evidence stands behind the score.
- reasoning: name the evidence (by its number) that the score rests on.
- missing_info: what evidence would be needed to judge better.
- Credit the founder only with what the evidence says about them: in a document sentence, what it says about other people named beside them (a CEO they worked alongside, the person who introduced them) is not theirs.
- People listed under "Not the founder" share the founder's name but are someone else (or cannot be told apart): never use them as evidence; say so in missing_info when it matters.
- strengths, risks: short sentences derived from the evidence; where evidence is thin, say what is unknown.
- sources: the numbers of the evidence items you relied on.`;

function fail(msg: string): never {
  throw new Error(msg);
}

function strings(v: unknown, where: string, max: number): string[] {
  if (!Array.isArray(v)) fail(`${where} is not a list`);
  if (v.length > max) fail(`${where} has more than ${max} entries`);
  return v.map((s, i) => (typeof s === "string" && s.trim() ? s.trim() : fail(`${where}[${i}] is not a non-empty string`)));
}

/** Checks the model's JSON strictly; throws a precise message on the first problem. */
export function acceptFounderAnswer(value: unknown, sourceCount: number): Answer {
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail("the answer is not an object");
  const v = value as Record<string, unknown>;
  if (!Array.isArray(v.metrics)) fail("metrics is not a list");
  const metrics = new Map<string, FounderMetric>();
  for (const [i, raw] of v.metrics.entries()) {
    if (typeof raw !== "object" || raw === null) fail(`metrics[${i}] is not an object`);
    const m = raw as Record<string, unknown>;
    const key = typeof m.key === "string" && KEYS.includes(m.key) ? m.key : fail(`metrics[${i}].key is not one of ${KEYS.join(", ")}`);
    if (metrics.has(key)) fail(`metric ${key} is given twice`);
    const score = m.score === null ? null : typeof m.score === "number" && m.score >= 0 && m.score <= 100 ? Math.round(m.score * 10) / 10 : fail(`${key}.score is not null or 0-100`);
    const confidence = typeof m.confidence === "number" && m.confidence >= 0 && m.confidence <= 1 ? m.confidence : fail(`${key}.confidence is not 0-1`);
    const reasoning = typeof m.reasoning === "string" && m.reasoning.trim() ? m.reasoning.trim() : fail(`${key}.reasoning is empty`);
    metrics.set(key, {
      key,
      label: metricLabel(key),
      score,
      confidence: score === null ? 0 : Math.round(confidence * 100) / 100,
      reasoning,
      missing_info: strings(m.missing_info ?? [], `${key}.missing_info`, 10),
    });
  }
  const absent = KEYS.filter((k) => !metrics.has(k));
  if (absent.length) fail(`metrics ${absent.join(", ")} are missing`);
  const cited = (Array.isArray(v.sources) ? v.sources : fail("sources is not a list")).map((n, i) =>
    Number.isInteger(n) && (n as number) >= 1 && (n as number) <= sourceCount ? (n as number) : fail(`sources[${i}] is not an evidence number 1-${sourceCount}`),
  );
  return { metrics: KEYS.map((k) => metrics.get(k)!), strengths: strings(v.strengths, "strengths", 10), risks: strings(v.risks, "risks", 10), cited };
}

/** The evidence as the model reads it: every item numbered after its source. */
export function evidencePrompt(e: FounderEvidence): string {
  const n = (type: string, id: string) => e.sources.findIndex((s) => s.type === type && s.id === id) + 1;
  const lines: string[] = [];
  lines.push(`Founder: ${JSON.stringify({ ...e.founder, resolved_name: e.resolvedName })}`);
  lines.push("Evidence sources:");
  e.sources.forEach((s, i) => lines.push(`[${i + 1}] ${s.type}: ${s.title}`));
  for (const p of e.persons) lines.push(`[${n("person", p.id)}] network contact: title ${p.title ?? "unknown"}, company ${p.company ?? "unknown"}, matched by ${p.matchedBy}`);
  for (const p of e.paths) {
    lines.push(
      `[${n("person", p.personId)}] ${p.owner} knows them: ${p.relationship ?? "no touches"}, strength ${p.strength ?? "n/a"}, warmth ${p.warmth ?? "n/a"}, ` +
        `${p.emails} emails, ${p.meetings} meetings, last touch ${p.daysSinceLastTouch ?? "n/a"} days ago`,
    );
  }
  if (!e.paths.length) lines.push(`Network: no warm path (${e.pathsUnavailable})`);
  for (const d of e.deals) {
    const sections = d.sections.map((s) => `${s.key} ${s.score ?? "n/a"}${s.summary ? ` (${s.summary})` : ""}`).join("; ");
    lines.push(`[${n("deal", d.id)}] deal ${d.companyName ?? ""} (${d.matchedBy === "team" ? `lists them as ${d.teamTitle ?? "team member"}` : "their company"}), score ${d.score ?? "n/a"}; sections: ${sections || "none"}`);
  }
  for (const m of e.mentions) lines.push(`[${n("document", m.documentId)}] ${m.filename} page ${m.page}: "${m.quote}"`);
  if (e.github) {
    const own = e.github.repos.filter((r) => !r.fork);
    lines.push(
      `[${n("github", e.github.login)}] GitHub ${e.github.login}: ${e.github.followers} followers, ${own.length} own repos, bio ${JSON.stringify(e.github.bio)}; top repos: ` +
        own
          .sort((a, b) => b.stars - a.stars)
          .slice(0, 10)
          .map((r) => `${r.name} (${r.stars}★, ${r.language ?? "?"})`)
          .join(", "),
    );
  }
  if (e.githubError) lines.push(`GitHub: ${e.githubError}`);
  const why = { other_company: "at another company than the one given", other_linkedin: "another LinkedIn profile", unconfirmed: "nothing ties them to this founder" };
  for (const n of e.namesakes) lines.push(`Not the founder (namesake, not evidence): ${n.name} (${n.where || "no details"}): ${why[n.reason]}`);
  return lines.join("\n");
}

export function llmFounderEngine(config: LlmConfig): FounderEngine {
  const llm = llmClient(config);
  return {
    name: "llm",
    async assess(e: FounderEvidence): Promise<FounderAssessment> {
      const answer = await llm.json(
        [
          { role: "system", content: SYSTEM },
          { role: "user", content: evidencePrompt(e) },
        ],
        (v) => acceptFounderAnswer(v, e.sources.length),
      );
      const metrics = answer.metrics.map((m) => (e.githubError && m.key === "technical_depth" && !m.missing_info.includes(e.githubError) ? { ...m, missing_info: [...m.missing_info, e.githubError] } : m));
      const cited = [...new Set(answer.cited)].map((i) => e.sources[i - 1]);
      return {
        engine: `llm:${llm.model}`,
        metrics,
        overall_score: overallScore(metrics),
        strengths: answer.strengths,
        risks: answer.risks,
        sources: cited.length ? cited : e.sources,
      };
    },
  };
}
