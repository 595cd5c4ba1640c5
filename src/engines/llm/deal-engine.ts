// The LLM deal engine: the same interface as the built-in one, with an OpenAI-compatible model
// doing the reading. The model sees the material (bounded, every page labelled with the document
// and page it came from) and answers one JSON object; nothing it says is taken on trust: types are
// checked, scores clamped, and every quote must really occur in the page it cites. A section whose
// quotes all vanish loses its score (no unsupported scores). An unreachable model or a wrong
// answer fails the run with the precise reason, never a made-up result or a silent fallback.
import { RunError } from "../../lib/run-error.ts";
import { moneyIn, statedFigures } from "../builtin/deal-money.ts";
import { COMPANY_SECTIONS, FUND_SECTIONS, type DealAnalysis, type DealEngine, type DealEngineInput, type DealFacts, type Evidence, type Section, type SourcePage } from "../deal-engine.ts";
import { LlmError, llmClient, type LlmClient, type LlmConfig } from "./client.ts";

/** The material sent: about 12k tokens in all, and no page crowds out the others. */
export const MATERIAL_BUDGET_CHARS = 48_000;
const PAGE_FLOOR_CHARS = 600;
const MAX_EVIDENCE_PER_SECTION = 5;

const NO_EVIDENCE = "The material says nothing about this";
const QUOTES_UNVERIFIED = "The model scored this section, but none of its quotes occur in the cited pages, so the score was dropped";
const NO_QUOTES = "The model scored this section without quoting the material, so the score was dropped";
const NOT_ASSESSED = "The model did not assess this section";

type Catalogue = typeof COMPANY_SECTIONS | typeof FUND_SECTIONS;
const catalogueOf = (kind: "company" | "fund"): Catalogue => (kind === "fund" ? FUND_SECTIONS : COMPANY_SECTIONS);

const squash = (s: string) => s.replace(/\s+/g, " ").trim();

/** Case, whitespace and typographic quotes/dashes do not decide whether a quote is in a page. */
export function normalizeForMatch(s: string): string {
  return s
    .normalize("NFKC")
    .replace(/[\u2018\u2019\u201A\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201E\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/\u2026/g, "...")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

const sourceLabel = (p: SourcePage) => (p.documentId ? `document_id="${p.documentId}" page=${p.page ?? "null"}` : p.url ? `url="${p.url}"` : `page=${p.page ?? "null"}`);

/** Pages as labelled blocks within the budget: each page gets its share, the rest is cut and said so. */
export function boundedMaterial(pages: SourcePage[], budget = MATERIAL_BUDGET_CHARS): string {
  const texts = pages.map((p) => squash(p.text)).map((text, i) => ({ page: pages[i], text })).filter((x) => x.text.length > 0);
  const share = Math.max(PAGE_FLOOR_CHARS, Math.floor(budget / Math.max(1, texts.length)));
  const blocks: string[] = [];
  let used = 0;
  for (const [i, { page, text }] of texts.entries()) {
    if (used >= budget) {
      blocks.push(`[${texts.length - i} more pages omitted for length]`);
      break;
    }
    const cut = text.length > share ? `${text.slice(0, share)} [...page truncated]` : text;
    blocks.push(`<<source ${sourceLabel(page)}>>\n${cut}`);
    used += cut.length;
  }
  return blocks.join("\n\n");
}

function instructions(kind: "company" | "fund" | null): string {
  const list = (c: Catalogue) => c.map(([k, title]) => `"${k}" (${title})`).join(", ");
  const sections =
    kind === "fund"
      ? `This is a fund (LP) deck. Sections, in order: ${list(FUND_SECTIONS)}.`
      : kind === "company"
        ? `This is a company pitch deck. Sections, in order: ${list(COMPANY_SECTIONS)}.`
        : `First decide "kind": "fund" for a venture fund raising from LPs, else "company". ` +
          `Company sections: ${list(COMPANY_SECTIONS)}. Fund sections: ${list(FUND_SECTIONS)}.`;
  return [
    "You are a venture-capital analyst. Read the deal material and answer with ONE JSON object, nothing else.",
    sections,
    "Shape:",
    `{"kind": "company"|"fund",`,
    ` "company": {"name", "domain", "website", "description", "sector", "location": string|null, "founded_year": integer|null},`,
    ` "round": {"stage": string|null, "amount": number|null (units, not millions), "currency": ISO code|null, "pre_money_valuation": number|null},`,
    ` "team": [{"name": string, "title": string|null, "linkedin_url": string|null}],`,
    ` "sections": [{"key": string, "score": integer 0-100|null, "summary": string|null, "unavailable_reason": string|null,`,
    `   "evidence": [{"quote": string, "document_id": string|null, "page": integer|null, "url": string|null}]}],`,
    ` "summary": string}`,
    "Rules: every quote is copied verbatim from the material and cites the document_id and page (or url) of the <<source>> it is in.",
    "A score needs evidence. When the material says nothing about a section, its score is null and unavailable_reason says why.",
    "A fact the material does not state is null; never guess.",
  ].join("\n");
}

// ---- strict reading of the model's answer: wrong types are errors, unknown keys are ignored ----

type Raw = Record<string, unknown>;

const isObject = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);

function str(o: Raw, key: string, at: string): string | null {
  const v = o[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== "string") throw new Error(`${at}.${key} must be a string or null`);
  return squash(v) || null;
}

function num(o: Raw, key: string, at: string): number | null {
  const v = o[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== "number" || !Number.isFinite(v)) throw new Error(`${at}.${key} must be a number or null`);
  return v;
}

function obj(o: Raw, key: string, at: string): Raw {
  const v = o[key];
  if (v === undefined || v === null) return {};
  if (!isObject(v)) throw new Error(`${at}.${key} must be an object`);
  return v;
}

function arr(o: Raw, key: string, at: string): unknown[] {
  const v = o[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new Error(`${at}.${key} must be an array`);
  return v;
}

export type ModelSection = { key: string; score: number | null; summary: string | null; unavailable_reason: string | null; evidence: Evidence[] };
export type ModelAnswer = { kind: "company" | "fund" | null; facts: DealFacts; sections: ModelSection[]; summary: string | null };

export function readAnswer(value: unknown): ModelAnswer {
  if (!isObject(value)) throw new Error("the answer must be a JSON object");
  const kindRaw = str(value, "kind", "$");
  if (kindRaw !== null && kindRaw !== "company" && kindRaw !== "fund") throw new Error(`$.kind must be "company" or "fund"`);
  const c = obj(value, "company", "$");
  const founded = num(c, "founded_year", "$.company");
  if (founded !== null && !Number.isInteger(founded)) throw new Error("$.company.founded_year must be an integer or null");
  const r = obj(value, "round", "$");
  const facts: DealFacts = {
    company: {
      name: str(c, "name", "$.company"),
      domain: str(c, "domain", "$.company"),
      website: str(c, "website", "$.company"),
      description: str(c, "description", "$.company"),
      sector: str(c, "sector", "$.company"),
      location: str(c, "location", "$.company"),
      founded_year: founded,
    },
    round: {
      stage: str(r, "stage", "$.round"),
      amount: num(r, "amount", "$.round"),
      currency: str(r, "currency", "$.round")?.toUpperCase() ?? null,
      pre_money_valuation: num(r, "pre_money_valuation", "$.round"),
    },
    team: arr(value, "team", "$").map((m, i) => {
      if (!isObject(m)) throw new Error(`$.team[${i}] must be an object`);
      const name = str(m, "name", `$.team[${i}]`);
      if (!name) throw new Error(`$.team[${i}].name is required`);
      return { name, title: str(m, "title", `$.team[${i}]`), linkedin_url: str(m, "linkedin_url", `$.team[${i}]`) };
    }),
  };
  const sections = arr(value, "sections", "$").map((s, i): ModelSection => {
    const at = `$.sections[${i}]`;
    if (!isObject(s)) throw new Error(`${at} must be an object`);
    const key = str(s, "key", at);
    if (!key) throw new Error(`${at}.key is required`);
    const score = num(s, "score", at);
    return {
      key,
      score: score === null ? null : Math.min(100, Math.max(0, Math.round(score))),
      summary: str(s, "summary", at),
      unavailable_reason: str(s, "unavailable_reason", at),
      evidence: arr(s, "evidence", at).map((e, j) => {
        const eat = `${at}.evidence[${j}]`;
        if (!isObject(e)) throw new Error(`${eat} must be an object`);
        const page = num(e, "page", eat);
        if (page !== null && !Number.isInteger(page)) throw new Error(`${eat}.page must be an integer or null`);
        const url = str(e, "url", eat);
        return { quote: str(e, "quote", eat) ?? "", document_id: str(e, "document_id", eat), page, ...(url ? { url } : {}) };
      }),
    };
  });
  return { kind: kindRaw as ModelAnswer["kind"], facts, sections, summary: str(value, "summary", "$") };
}

// ---- honesty: quotes checked against the pages they cite ----

/** The quotes that really occur in the page they cite (the cited page only, not anywhere). */
export function verifiedEvidence(evidence: Evidence[], pages: SourcePage[]): Evidence[] {
  const normalized = new Map<SourcePage, string>();
  const textOf = (p: SourcePage) => normalized.get(p) ?? (normalized.set(p, normalizeForMatch(p.text)), normalized.get(p)!);
  const kept: Evidence[] = [];
  for (const e of evidence) {
    const quote = normalizeForMatch(e.quote);
    if (quote.length < 8) continue; // a word or two proves nothing
    const cited = pages.find((p) => (e.url && !p.documentId ? p.url === e.url : p.documentId === e.document_id && p.page === e.page));
    if (!cited || !textOf(cited).includes(quote)) continue;
    if (kept.some((k) => normalizeForMatch(k.quote) === quote)) continue;
    kept.push({ quote: e.quote, document_id: cited.documentId, page: cited.page, ...(cited.url ? { url: cited.url } : {}) });
    if (kept.length >= MAX_EVIDENCE_PER_SECTION) break;
  }
  return kept;
}

function honestSection(key: string, title: string, given: ModelSection | undefined, pages: SourcePage[]): Section {
  if (!given) return { key, title, score: null, summary: null, evidence: [], unavailable_reason: NOT_ASSESSED };
  const evidence = verifiedEvidence(given.evidence, pages);
  if (given.score !== null && evidence.length === 0) {
    return { key, title, score: null, summary: null, evidence: [], unavailable_reason: given.evidence.length ? QUOTES_UNVERIFIED : NO_QUOTES };
  }
  if (given.score === null) return { key, title, score: null, summary: given.summary, evidence, unavailable_reason: given.unavailable_reason ?? NO_EVIDENCE };
  return { key, title, score: given.score, summary: given.summary, evidence, unavailable_reason: null };
}

/**
 * The model's figures and names kept only when the material states them: a round amount or
 * pre-money valuation that is none of the material's figures, a founding year it never mentions
 * or a team member it never names is dropped to null (or out of the team), and said so.
 */
export function checkedFacts(facts: DealFacts, pages: SourcePage[]): { facts: DealFacts; dropped: string[] } {
  const text = pages.map((p) => p.text).join("\n");
  const figures = statedFigures(text);
  const stated = (n: number) => figures.some((f) => Math.abs(f - n) <= Math.max(0.5, Math.abs(n) * 0.005));
  const normalized = normalizeForMatch(text);
  const dropped: string[] = [];
  const { round, company } = facts;
  const check = (value: number | null, what: string) => {
    if (value === null || stated(value)) return value;
    dropped.push(`${what} ${moneyIn(value, round.currency)}`);
    return null;
  };
  const amount = check(round.amount, "round amount");
  const preMoney = check(round.pre_money_valuation, "pre-money valuation");
  let founded = company.founded_year;
  if (founded !== null && !new RegExp(`\\b${founded}\\b`).test(text)) (dropped.push(`founding year ${founded}`), (founded = null));
  const team = facts.team.filter((m) => {
    const named = normalized.includes(normalizeForMatch(m.name));
    if (!named) dropped.push(`team member ${m.name}`);
    return named;
  });
  return {
    facts: {
      company: { ...company, founded_year: founded },
      round: { ...round, amount, pre_money_valuation: preMoney, currency: amount === null && preMoney === null ? null : round.currency },
      team,
    },
    dropped,
  };
}

function withHints(facts: DealFacts, hints: DealEngineInput["hints"]): DealFacts {
  const website = hints.website ?? facts.company.website;
  const normalizedSite = website && !/^https?:\/\//i.test(website) ? `https://${website}` : website;
  let domain = facts.company.domain;
  if (normalizedSite && URL.canParse(normalizedSite)) domain = new URL(normalizedSite).hostname.replace(/^www\./, "");
  return { ...facts, company: { ...facts.company, name: hints.companyName?.trim() || facts.company.name, website: normalizedSite, domain } };
}

export function llmDealEngine(config: LlmConfig, client: LlmClient = llmClient(config)): DealEngine {
  const name = `llm:${client.model}`;
  return {
    name,
    async analyze({ pages, hints, progress }: DealEngineInput): Promise<DealAnalysis> {
      progress("extract");
      const material = boundedMaterial(pages);
      progress("classify");
      let answer: ModelAnswer;
      try {
        answer = await client.json(
          [
            { role: "system", content: instructions(hints.kind ?? null) },
            { role: "user", content: `Deal material${hints.companyName ? ` for ${hints.companyName}` : ""}:\n\n${material}` },
          ],
          readAnswer,
        );
      } catch (error) {
        if (error instanceof LlmError) throw new RunError(error.message);
        throw error;
      }
      progress("score");
      const kind = hints.kind ?? answer.kind ?? "company";
      const byKey = new Map(answer.sections.map((s) => [s.key, s]));
      const sections = catalogueOf(kind).map(([key, title]) => honestSection(key, title, byKey.get(key), pages));
      const scored = sections.filter((s) => s.score !== null);
      const score = scored.length ? Math.round(scored.reduce((sum, s) => sum + s.score!, 0) / scored.length) : null;
      progress("summarize");
      const checked = checkedFacts(answer.facts, pages);
      const facts = withHints(checked.facts, hints);
      const dropped = sections.filter((s) => s.unavailable_reason === QUOTES_UNVERIFIED || s.unavailable_reason === NO_QUOTES);
      const summary = [
        answer.summary ?? `${facts.company.name ?? "The deal"}: ${scored.length} of ${sections.length} sections supported by the material.`,
        dropped.length ? `Scores dropped for lack of verifiable evidence: ${dropped.map((s) => s.title.toLowerCase()).join(", ")}.` : "",
        checked.dropped.length ? `Facts the model gave that the material does not state, dropped: ${checked.dropped.join(", ")}.` : "",
      ]
        .filter(Boolean)
        .join(" ");
      return {
        engine: name,
        kind,
        facts,
        sections,
        score,
        score_confidence: Math.round((sections.filter((s) => s.evidence.length > 0).length / sections.length) * 100) / 100,
        summary,
      };
    },
  };
}
