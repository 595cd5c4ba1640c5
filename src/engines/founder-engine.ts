// The interface every founder engine implements: the evidence the firm really has about a founder
// in (network paths, deals and documents that mention them, their company's deal analysis, an
// optional GitHub profile), scored metrics with reasons out. The run gathers the evidence; the
// engines only judge it, so the built-in and the LLM engine see exactly the same material.

export type SourceRef = { type: "deal" | "document" | "person" | "github"; id: string; title: string };

export type FounderIdentity = { name: string | null; linkedinUrl: string | null; githubUrl: string | null; company: string | null };

/** A person of the firm's network taken to be the founder, and why. */
export type MatchedPerson = {
  id: string;
  name: string | null;
  title: string | null;
  company: string | null;
  domain: string | null;
  linkedinUrl: string | null;
  matchedBy: "linkedin" | "name_and_domain" | "name_and_company";
};

/**
 * A person or a deal's team listing named like the founder but NOT taken as them: at another
 * company than the one given, with another LinkedIn profile, or with nothing to tie them to the
 * founder (a name alone). Listed so the engines can say so instead of merging strangers.
 */
export type Namesake = {
  source: "person" | "deal";
  id: string;
  name: string;
  /** "VP Engineering, BigCorp, bigcorp.com" or "listed as CEO in the team of Ledgerly". */
  where: string;
  reason: "other_company" | "other_linkedin" | "unconfirmed";
};

/** A teammate's relationship with the founder (scores as the network module computes them). */
export type WarmPath = {
  personId: string;
  owner: string;
  strength: number | null;
  warmth: number | null;
  relationship: string | null;
  daysSinceLastTouch: number | null;
  emails: number;
  meetings: number;
};

export type DealSection = { key: string; score: number | null; summary: string | null };

/** A deal of the org that names the founder in its team, or is their company. */
export type DealEvidence = {
  id: string;
  companyName: string | null;
  matchedBy: "team" | "company";
  /** The founder's title in the deal's team list, when listed there. */
  teamTitle: string | null;
  score: number | null;
  sections: DealSection[];
};

/** A sentence of a data-room or deal document that mentions the founder. */
export type Mention = { documentId: string; filename: string; page: number; quote: string };

export type GithubProfile = {
  login: string;
  name: string | null;
  bio: string | null;
  company: string | null;
  followers: number;
  publicRepos: number;
  createdAt: string | null;
  repos: { name: string; stars: number; language: string | null; fork: boolean; description: string | null; pushedAt: string | null }[];
};

export type FounderEvidence = {
  founder: FounderIdentity;
  /** The name the evidence was searched by: the given one, else the network's or GitHub's. */
  resolvedName: string | null;
  /** Persons confirmed as the founder (by LinkedIn, or by name at their company). */
  persons: MatchedPerson[];
  /** Persons and team listings named like the founder that were not taken as them. */
  namesakes: Namesake[];
  paths: WarmPath[];
  /** Why there are no paths: nobody matched, or matched persons with no mail or meetings. */
  pathsUnavailable: "contact_not_found" | "no_relationship_data" | null;
  deals: DealEvidence[];
  mentions: Mention[];
  github: GithubProfile | null;
  /** Set when a github_url was given but the profile could not be read (never a run failure). */
  githubError: string | null;
  /** Every row the evidence came from: the only sources an engine may cite. */
  sources: SourceRef[];
  /** When the evidence was gathered (ISO): ages are measured from here, not the wall clock. */
  asOf: string;
};

export type FounderMetric = {
  key: string;
  label: string;
  /** 0-100; null when the evidence says nothing about it. */
  score: number | null;
  /** 0-1: how much evidence stands behind the score. */
  confidence: number;
  reasoning: string;
  missing_info: string[];
};

export type FounderAssessment = {
  engine: string;
  metrics: FounderMetric[];
  /** Confidence-weighted mean of the scored metrics; null when none could be scored. */
  overall_score: number | null;
  strengths: string[];
  risks: string[];
  sources: SourceRef[];
};

export interface FounderEngine {
  name: string;
  assess(evidence: FounderEvidence): Promise<FounderAssessment>;
}

export const FOUNDER_METRICS = [
  ["domain_expertise", "Domain expertise"],
  ["execution_track_record", "Execution track record"],
  ["technical_depth", "Technical depth"],
  ["leadership", "Leadership"],
  ["network_strength", "Network strength"],
] as const;

export type MetricKey = (typeof FOUNDER_METRICS)[number][0];

export const metricLabel = (key: string) => FOUNDER_METRICS.find(([k]) => k === key)?.[1] ?? key;

/** overall = sum(score x confidence) / sum(confidence) over scored metrics; null when none. */
export function overallScore(metrics: FounderMetric[]): number | null {
  const scored = metrics.filter((m) => m.score !== null && m.confidence > 0);
  const weight = scored.reduce((s, m) => s + m.confidence, 0);
  if (!scored.length || weight === 0) return null;
  return Math.round((scored.reduce((s, m) => s + m.score! * m.confidence, 0) / weight) * 10) / 10;
}
