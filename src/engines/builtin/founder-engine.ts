// The built-in founder engine: deterministic, offline and explainable. Every point of a score
// comes from a named piece of evidence (a sentence of a document, a title in a deal's team list,
// a section score of the company's deal analysis, a GitHub figure, a teammate's relationship);
// a metric with no evidence is null with what would be needed, never a guess. A document sentence
// counts only for its clauses about the founder (founder-clauses.ts); namesakes the gatherer did
// not take as the founder are named in the reasoning, never scored.
import {
  FOUNDER_METRICS,
  metricLabel,
  overallScore,
  type FounderAssessment,
  type FounderEngine,
  type FounderEvidence,
  type FounderMetric,
  type MetricKey,
  type Namesake,
  type SourceRef,
} from "../founder-engine.ts";
import { founderClauses } from "./founder-clauses.ts";

type TextMetric = Exclude<MetricKey, "network_strength">;

/** A phrase that says something about one metric, and how much. */
type Rule = { metric: TextMetric; re: RegExp; points: number | ((m: RegExpExecArray) => number); says: string | ((m: RegExpExecArray) => string) };

// "her co-founder", "his CEO": a role of someone else.
const NOT_THEIRS = String.raw`(?<!\b(?:her|his|their|whose|its|our|my)\s+)`;
const role = (words: string, flags = "i") => new RegExp(String.raw`${NOT_THEIRS}\b(${words})\b`, flags);

const RULES: Rule[] = [
  { metric: "technical_depth", re: role("CTO|chief technology officer"), points: 15, says: "a CTO role" },
  { metric: "technical_depth", re: /\b(engineer(?:s|ing)?|developers?|programmers?)\b/i, points: 10, says: "an engineering background" },
  { metric: "technical_depth", re: /\b(Ph\.?D|doctorate)\b/i, points: 10, says: "a PhD" },
  {
    metric: "technical_depth",
    re: /\b(machine learning|deep learning|distributed systems|compilers?|cryptography|robotics|computer science|data science)\b/i,
    points: 8,
    says: (m) => `work in ${m[1].toLowerCase()}`,
  },
  { metric: "technical_depth", re: /\b(architected|built|wrote|open[- ]source)\b/i, points: 6, says: "systems they built" },
  {
    metric: "domain_expertise",
    re: /\b(\d{1,2})\+?\s*(?:years|yrs)\b/i,
    points: (m) => Math.min(25, 2 * Number(m[1])),
    says: (m) => `${m[1]} years of experience`,
  },
  { metric: "domain_expertise", re: /\b(formerly|former|previously|prior to)\b|\bex-\w/i, points: 8, says: "prior roles in the field" },
  { metric: "domain_expertise", re: /\b(expert|specialist|veteran|authority)\b/i, points: 8, says: "recognised expertise" },
  { metric: "domain_expertise", re: /\b(Ph\.?D|professor|researcher)\b/i, points: 8, says: "research credentials" },
  { metric: "domain_expertise", re: /\b(head of|VP|vice president|director|principal)\b/i, points: 6, says: "a senior role" },
  { metric: "execution_track_record", re: /\b(co-?founded|founded|started)\b/i, points: 12, says: "a company they founded" },
  { metric: "execution_track_record", re: /\b(exited|exit|acquired|acquisition|sold(?: \w+){0,3} to|sold the|IPO)\b/i, points: 18, says: "an exit" },
  { metric: "execution_track_record", re: /\b(serial entrepreneur|second[- ]time founder|repeat founder)\b/i, points: 15, says: "repeat founding" },
  { metric: "execution_track_record", re: /\b(scaled|grew|launched|shipped)\b/i, points: 8, says: "something they scaled or launched" },
  { metric: "execution_track_record", re: /\b(shut down|wound down|went bankrupt|failed)\b/i, points: -12, says: "a venture that failed or shut down" },
  { metric: "leadership", re: role("CEO|chief executive"), points: 15, says: "a CEO role" },
  { metric: "leadership", re: role("co-?founder|founder"), points: 10, says: "a founder role" },
  { metric: "leadership", re: role("COO|CPO|CFO|CTO", ""), points: 8, says: "a C-level role" },
  {
    metric: "leadership",
    re: /\b(?:led|leads|managed|manages|leading|managing) (?:a |an |the )?(?:\d+[- ]person )?(?:team|org|organi[sz]ation|group|department)|\bteam of \d+/i,
    points: 12,
    says: "teams they led",
  },
  { metric: "leadership", re: /\b(head of|VP|vice president|director)\b/i, points: 6, says: "a management role" },
  // A junior role is evidence too: of not having led yet.
  { metric: "leadership", re: /\b(intern|internship|junior|trainee|apprentice|entry[- ]level)\b/i, points: -10, says: (m) => `a junior role (${m[1].toLowerCase()})` },
];

/** Which deal-analysis sections say something about which metric, and how strongly. */
const SECTION_WEIGHTS: { section: string; metric: TextMetric; divisor: number }[] = [
  { section: "team", metric: "leadership", divisor: 4 },
  { section: "team", metric: "domain_expertise", divisor: 5 },
  { section: "traction", metric: "execution_track_record", divisor: 4 },
  { section: "market", metric: "domain_expertise", divisor: 6 },
];

const BASE = 40;

type Signal = { points: number; text: string; sources: SourceRef[] };

const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, n));
const round1 = (n: number) => Math.round(n * 10) / 10;
const round2 = (n: number) => Math.round(n * 100) / 100;
const cite = (s: SourceRef) => `${s.type} "${s.title}"`;

/** The texts that describe the founder, each with the row it came from: of a document sentence, only the founder's clauses. */
function texts(e: FounderEvidence): { text: string; source: SourceRef }[] {
  const find = (type: SourceRef["type"], id: string) => e.sources.find((s) => s.type === type && s.id === id)!;
  const out: { text: string; source: SourceRef }[] = [];
  for (const m of e.mentions) {
    const theirs = founderClauses(m.quote, e.resolvedName ?? "");
    if (theirs.length) out.push({ text: theirs.join(" … "), source: find("document", m.documentId) });
  }
  for (const d of e.deals) if (d.teamTitle) out.push({ text: d.teamTitle, source: find("deal", d.id) });
  for (const p of e.persons) if (p.title) out.push({ text: p.title, source: find("person", p.id) });
  if (e.github?.bio) out.push({ text: e.github.bio, source: find("github", e.github.login) });
  return out.filter((t) => t.source);
}

function textSignals(e: FounderEvidence): Map<TextMetric, Signal[]> {
  const byMetric = new Map<TextMetric, Signal[]>();
  const add = (metric: TextMetric, s: Signal) => byMetric.set(metric, [...(byMetric.get(metric) ?? []), s]);
  const all = texts(e);
  for (const rule of RULES) {
    // A rule counts once (its strongest match); every text that says it is cited.
    let best: Signal | null = null;
    for (const { text, source } of all) {
      const m = rule.re.exec(text);
      if (!m) continue;
      const points = typeof rule.points === "function" ? rule.points(m) : rule.points;
      const says = typeof rule.says === "function" ? rule.says(m) : rule.says;
      if (!best) best = { points, text: says, sources: [source] };
      else {
        if (Math.abs(points) > Math.abs(best.points)) Object.assign(best, { points, text: says });
        if (!best.sources.some((s) => s.type === source.type && s.id === source.id)) best.sources.push(source);
      }
    }
    if (best) add(rule.metric, best);
  }
  for (const deal of e.deals) {
    const source = e.sources.find((s) => s.type === "deal" && s.id === deal.id);
    if (!source) continue;
    for (const w of SECTION_WEIGHTS) {
      const section = deal.sections.find((s) => s.key === w.section);
      if (section?.score == null) continue;
      add(w.metric, {
        points: Math.round((section.score - 50) / w.divisor),
        text: `the ${w.section} section of ${deal.companyName ?? "the company"}'s deal analysis scored ${section.score}`,
        sources: [source],
      });
    }
  }
  const gh = e.github;
  if (gh) {
    const own = gh.repos.filter((r) => !r.fork);
    const stars = own.reduce((s, r) => s + r.stars, 0);
    const languages = [...new Set(own.map((r) => r.language).filter((l): l is string => !!l))];
    const years = gh.createdAt ? (Date.parse(e.asOf) - Date.parse(gh.createdAt)) / (365.25 * 86_400_000) : 0;
    const points =
      Math.min(20, 2 * own.length) +
      Math.min(20, Math.round(7 * Math.log10(1 + stars))) +
      Math.min(8, 2 * languages.length) +
      Math.min(8, Math.round(3 * Math.log10(1 + gh.followers))) +
      (years >= 5 ? 4 : 0) -
      (own.length === 0 ? 15 : 0);
    const text = own.length
      ? `GitHub shows ${own.length} public repositor${own.length === 1 ? "y" : "ies"} of their own with ${stars} star${stars === 1 ? "" : "s"}` +
        `${languages.length ? ` (${languages.slice(0, 4).join(", ")})` : ""} and ${gh.followers} follower${gh.followers === 1 ? "" : "s"}`
      : "GitHub shows no public repositories of their own";
    add("technical_depth", { points, text, sources: [e.sources.find((s) => s.type === "github")!] });
  }
  return byMetric;
}

function distinctSources(signals: Signal[]): number {
  return new Set(signals.flatMap((s) => s.sources.map((r) => `${r.type}:${r.id}`))).size;
}

function textMetric(e: FounderEvidence, key: TextMetric, signals: Signal[]): FounderMetric {
  const label = metricLabel(key);
  const missing = missingFor(e, key);
  let confidence = signals.length ? Math.min(0.9, 0.2 + 0.2 * distinctSources(signals)) : 0;
  if (key === "technical_depth" && e.githubError) confidence *= 0.75;
  if (!signals.length) {
    return {
      key,
      label,
      score: null,
      confidence: 0,
      reasoning: `No evidence about ${label.toLowerCase()} in the firm's network, deals or documents${e.founder.githubUrl ? " or on GitHub" : ""}.`,
      missing_info: missing,
    };
  }
  const score = clamp(BASE + signals.reduce((s, x) => s + x.points, 0), 0, 100);
  const parts = signals.map((s) => `${s.text} (${s.points >= 0 ? "+" : ""}${s.points}; ${s.sources.map(cite).join(", ")})`);
  return {
    key,
    label,
    score,
    confidence: round2(confidence),
    reasoning: `From a base of ${BASE}: ${parts.join("; ")}.`,
    missing_info: confidence < 0.6 || (key === "technical_depth" && e.githubError) ? missing : [],
  };
}

function missingFor(e: FounderEvidence, key: MetricKey): string[] {
  const out: string[] = [];
  switch (key) {
    case "domain_expertise":
      out.push("Prior roles and years in the field (a deck's team page, a CV or notes that name the founder)");
      break;
    case "execution_track_record":
      out.push("Companies founded or scaled before, and how they ended");
      if (!e.deals.some((d) => d.sections.some((s) => s.key === "traction" && s.score !== null))) {
        out.push(e.founder.company ? `A deal analysis of ${e.founder.company} (traction)` : "The founder's current company (`company`) and its deal analysis");
      }
      break;
    case "technical_depth":
      if (e.githubError) out.push(e.githubError);
      else if (!e.founder.githubUrl) out.push("A GitHub profile (`github_url`)");
      out.push("Technical background: education, engineering roles, systems built");
      break;
    case "leadership":
      out.push("Title and the size of teams led");
      break;
    case "network_strength":
      if (e.namesakes.some((n) => n.reason === "unconfirmed")) out.push("The founder's company (`company`) or LinkedIn URL (`linkedin_url`), to tell namesakes apart");
      out.push(
        e.pathsUnavailable === "no_relationship_data"
          ? "Mail or meetings with the founder (only a contact card is on file): import the mailbox or calendar that has them"
          : "A teammate's mail or calendar with the founder (import it), or a LinkedIn URL that matches a contact",
      );
      break;
  }
  return out;
}

function networkMetric(e: FounderEvidence): FounderMetric {
  const key = "network_strength";
  const label = metricLabel(key);
  const touched = e.paths.filter((p) => p.strength !== null).sort((a, b) => b.strength! - a.strength!);
  if (!touched.length) {
    const reasoning =
      e.pathsUnavailable === "no_relationship_data"
        ? `The founder is in the firm's contacts (${e.persons.map((p) => p.name ?? "unnamed").join(", ")}), but no mail or meetings with them are recorded.`
        : (namesakesSaid(e) ?? "No one in the firm's shared network has mail or meetings with the founder.");
    return { key, label, score: null, confidence: 0, reasoning, missing_info: missingFor(e, key) };
  }
  const owners = new Set(touched.map((p) => p.owner));
  const best = touched[0];
  const score = clamp(Math.round(best.strength! + 5 * (owners.size - 1)), 0, 100);
  const confidence = Math.min(0.9, 0.5 + 0.1 * owners.size);
  const when = best.daysSinceLastTouch === null ? "" : `, last in touch ${best.daysSinceLastTouch} day${best.daysSinceLastTouch === 1 ? "" : "s"} ago`;
  const reasoning =
    `${best.owner} is in touch with them (${best.relationship}, strength ${best.strength}, ${best.emails} email${best.emails === 1 ? "" : "s"}, ` +
    `${best.meetings} meeting${best.meetings === 1 ? "" : "s"}${when}); ${owners.size} teammate${owners.size === 1 ? "" : "s"} in all` +
    (owners.size > 1 ? ` (+${5 * (owners.size - 1)})` : "") +
    ".";
  return { key, label, score, confidence: round2(confidence), reasoning, missing_info: [] };
}

const people = (n: number) => (n === 1 ? "1 person" : `${n} people`);
const listed = (list: Namesake[]) => list.map((n) => `${n.name} (${n.where || "no title, company or domain on file"})`).join("; ");

/** What the network holds under the founder's name that was not taken as them, and why. */
function namesakesSaid(e: FounderEvidence): string | null {
  const persons = e.namesakes.filter((n) => n.source === "person");
  if (!persons.length) return null;
  const name = e.resolvedName ?? "the founder";
  const parts: string[] = [];
  const unconfirmed = persons.filter((n) => n.reason === "unconfirmed");
  const elsewhere = persons.filter((n) => n.reason === "other_company");
  const otherProfile = persons.filter((n) => n.reason === "other_linkedin");
  if (unconfirmed.length) {
    parts.push(
      `${people(unconfirmed.length)} named ${name} ${unconfirmed.length === 1 ? "is" : "are"} in the firm's network (${listed(unconfirmed)}), and nothing ties ` +
        `${unconfirmed.length === 1 ? "them" : "any of them"} to this founder${e.founder.company ? ` or to ${e.founder.company}` : " (no company or LinkedIn URL was given)"}, so none was taken as them.`,
    );
  }
  if (elsewhere.length) parts.push(`${listed(elsewhere)}: at another company than ${e.founder.company}, so not this founder.`);
  if (otherProfile.length) parts.push(`${listed(otherProfile)}: another LinkedIn profile than the one given, so not this founder.`);
  return `${parts.join(" ")} No one confirmed as the founder has mail or meetings with the firm.`;
}

function strengthsAndRisks(e: FounderEvidence, metrics: FounderMetric[], signals: Map<TextMetric, Signal[]>) {
  const strengths: string[] = [];
  const risks: string[] = [];
  for (const m of metrics) {
    if (m.score === null) continue;
    const top = m.key === "network_strength" ? null : [...(signals.get(m.key as TextMetric) ?? [])].sort((a, b) => b.points - a.points)[0];
    const why = m.key === "network_strength" ? m.reasoning.replace(/\.$/, "") : top ? `${top.text} (${top.sources.map(cite).join(", ")})` : "";
    if (m.score >= 65) strengths.push(`${m.label} scores ${m.score}: ${why}.`);
    else if (m.score < 45) risks.push(`${m.label} looks weak at ${m.score}: ${why}.`);
  }
  for (const [metric, list] of signals) {
    for (const s of list) if (s.points < 0) risks.push(`${metricLabel(metric)}: the evidence mentions ${s.text} (${s.sources.map(cite).join(", ")}).`);
  }
  if (!e.paths.some((p) => p.strength !== null)) risks.push("No one at the firm is in touch with the founder: an introduction would be cold.");
  const unconfirmed = e.namesakes.filter((n) => n.reason === "unconfirmed");
  if (unconfirmed.length) {
    risks.push(
      `Identity not confirmed: ${people(unconfirmed.length)} named ${e.resolvedName ?? "like the founder"} ${unconfirmed.length === 1 ? "is" : "are"} in the firm's records and none could be tied to this founder; nothing of theirs was used.`,
    );
  }
  const unknown = metrics.filter((m) => m.score === null).map((m) => m.label.toLowerCase());
  const scored = metrics.length - unknown.length;
  if (scored <= 2) {
    const what = unknown.length ? ` (unknown: ${unknown.join(", ")})` : "";
    risks.push(`Thin evidence: only ${scored} of ${metrics.length} metrics could be scored from what the firm has${what}; treat the overall score with caution.`);
  }
  if (e.githubError) risks.push(`${e.githubError}; technical depth rests on the firm's own records only.`);
  return { strengths, risks };
}

export const builtinFounderEngine: FounderEngine = {
  name: "builtin",
  async assess(e: FounderEvidence): Promise<FounderAssessment> {
    const signals = textSignals(e);
    const metrics = FOUNDER_METRICS.map(([key]) => (key === "network_strength" ? networkMetric(e) : textMetric(e, key, signals.get(key) ?? [])));
    const { strengths, risks } = strengthsAndRisks(e, metrics, signals);
    // A document that names the founder only beside someone else's facts is not a source about them.
    const aboutThem = new Set(texts(e).map((t) => `${t.source.type}:${t.source.id}`));
    const sources = e.sources.filter((s) => s.type !== "document" || aboutThem.has(`document:${s.id}`));
    return { engine: "builtin", metrics, overall_score: overallScore(metrics) === null ? null : round1(overallScore(metrics)!), strengths, risks, sources };
  },
};
