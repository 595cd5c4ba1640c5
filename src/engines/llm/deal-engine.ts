// The LLM deal engine: the same interface as the built-in one, with an OpenAI-compatible model
// doing the reading. The model sees the material (bounded, every page labelled with the document
// and page it came from; pages without usable text are left out and said so) and answers one JSON
// object; nothing it says is taken on trust: types are checked, scores clamped, every quote must
// really occur in the page it cites and be about the section it supports (an earlier round is no
// team, a projection no business model: the built-in reader's attribution, deal-about.ts), a
// round amount must be money the material states (never a bare part of a figure whose multiplier
// was lost), a stage one it names for this round, a team member someone it names as one. A section
// whose quotes all vanish loses its score, a fact that is not supported is dropped, and the summary
// says so. An unreachable model or a wrong answer fails the run with the precise reason, never a
// made-up result or a silent fallback.
import { RunError } from "../../lib/run-error.ts";
import { companySectionOf, isCover } from "../builtin/deal-about.ts";
import { readFacts } from "../builtin/deal-facts.ts";
import { moneyIn, moneyMentions } from "../builtin/deal-money.ts";
import { normalStage, plausibleRaise, statedStages } from "../builtin/deal-round.ts";
import { namedOnlyAsOutsider } from "../builtin/deal-team.ts";
import type { Unit } from "../builtin/deal-text.ts";
import { COMPANY_SECTIONS, FUND_SECTIONS, readablePages, unreadableAnalysis, type DealAnalysis, type DealEngine, type DealEngineInput, type DealFacts, type Evidence, type Section, type SourcePage } from "../deal-engine.ts";
import { LlmError, llmClient, type LlmClient, type LlmConfig } from "./client.ts";

/** The material sent: about 12k tokens in all, and no page crowds out the others. */
export const MATERIAL_BUDGET_CHARS = 48_000;
const PAGE_FLOOR_CHARS = 600;
const MAX_EVIDENCE_PER_SECTION = 5;

const NO_EVIDENCE = "The material says nothing about this";
const QUOTES_UNVERIFIED = "The model scored this section, but none of its quotes occur in the cited pages, so the score was dropped";
const QUOTES_ELSEWHERE = "The model scored this section, but its quotes are about something else (another section, an earlier round, a customer), so the score was dropped";
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

/** What the material says, read by the built-in reader, for judging the model's answer. */
type Reading = { units: Unit[]; pages: SourcePage[]; teamNames: string[]; stages: Set<string>; company: boolean };

/**
 * Whether a verified quote is about the section it is quoted for. The built-in reader's unit that
 * holds it is filed under that section; or under none it can name, but not because it is about
 * nothing a section is (an earlier round, someone else's money, a customer's words, a problem
 * statement, a cover line, an advisor). Fund sections are not judged this way.
 */
function belongs(e: Evidence, key: string, reading: Reading): boolean {
  if (!reading.company) return true;
  const quote = normalizeForMatch(e.quote);
  const unit = reading.units.find((u) => u.page.documentId === e.document_id && u.page.page === e.page && (normalizeForMatch(u.text).includes(quote) || quote.includes(normalizeForMatch(u.text))));
  if (!unit || unit.heading) return true;
  const cover = isCover(unit, reading.pages);
  const about = companySectionOf(unit, reading.teamNames, cover);
  if (about !== null) return about === key;
  const aboutNothing =
    cover || ["problem", "contact", "advisors", "investors"].includes(unit.topic ?? "") || companySectionOf({ ...unit, topic: "product" }, reading.teamNames, false) === null;
  return !aboutNothing;
}

function honestSection(key: string, title: string, given: ModelSection | undefined, pages: SourcePage[], reading: Reading): Section {
  if (!given) return { key, title, score: null, summary: null, evidence: [], unavailable_reason: NOT_ASSESSED };
  const verified = verifiedEvidence(given.evidence, pages);
  const evidence = verified.filter((e) => belongs(e, key, reading));
  if (given.score !== null && evidence.length === 0) {
    return { key, title, score: null, summary: null, evidence: [], unavailable_reason: verified.length ? QUOTES_ELSEWHERE : given.evidence.length ? QUOTES_UNVERIFIED : NO_QUOTES };
  }
  if (given.score === null) return { key, title, score: null, summary: given.summary, evidence, unavailable_reason: given.unavailable_reason ?? NO_EVIDENCE };
  return { key, title, score: given.score, summary: given.summary, evidence, unavailable_reason: null };
}

/**
 * The model's figures and names kept only when the material states them: a round amount or
 * pre-money valuation must be money the material states (its value, its currency when the model
 * gives one, and never a bare part of a figure whose multiplier was lost), a stage one the material
 * names for this round (not an earlier round's, the next one's or customers'), a founding year one
 * it mentions, a team member someone it names and not only as an advisor, investor or customer.
 * Anything else is dropped to null (or out of the team), and said so.
 */
export function checkedFacts(facts: DealFacts, pages: SourcePage[], reading?: Reading): { facts: DealFacts; dropped: string[] } {
  const text = pages.map((p) => p.text).join("\n");
  const mentions = moneyMentions(text);
  const normalized = normalizeForMatch(text);
  const dropped: string[] = [];
  const { round, company } = facts;
  const stated = (n: number) =>
    mentions.some((m) => m.amount !== null && Math.abs(m.amount - n) <= Math.max(0.5, Math.abs(n) * 0.005) && (!round.currency || m.currency === round.currency) && plausibleRaise(m));
  const check = (value: number | null, what: string) => {
    if (value === null || stated(value)) return value;
    dropped.push(`${what} ${moneyIn(value, round.currency)}`);
    return null;
  };
  const amount = check(round.amount, "round amount");
  const preMoney = check(round.pre_money_valuation, "pre-money valuation");
  let stage = round.stage;
  if (stage !== null && reading && !reading.stages.has(normalStage(stage))) (dropped.push(`round stage ${stage}`), (stage = null));
  let founded = company.founded_year;
  if (founded !== null && !new RegExp(`\\b${founded}\\b`).test(text)) (dropped.push(`founding year ${founded}`), (founded = null));
  const team = facts.team.filter((m) => {
    const named = normalized.includes(normalizeForMatch(m.name));
    const outsider = named && reading ? namedOnlyAsOutsider(reading.units, m.name, { fund: !reading.company }) : false;
    if (!named) dropped.push(`team member ${m.name}`);
    else if (outsider) dropped.push(`team member ${m.name} (named as an advisor, investor or customer)`);
    return named && !outsider;
  });
  return {
    facts: {
      company: { ...company, founded_year: founded },
      round: { stage, amount, pre_money_valuation: preMoney, currency: amount === null && preMoney === null ? null : round.currency },
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
    async analyze({ pages: material, hints, progress }: DealEngineInput): Promise<DealAnalysis> {
      progress("extract");
      const { readable: pages, note } = readablePages(material);
      if (pages.length === 0) return unreadableAnalysis(name, hints.kind ?? "company", hints, note ?? "The material has no text to read.");
      const bounded = boundedMaterial(pages);
      progress("classify");
      let answer: ModelAnswer;
      try {
        answer = await client.json(
          [
            { role: "system", content: instructions(hints.kind ?? null) },
            { role: "user", content: `Deal material${hints.companyName ? ` for ${hints.companyName}` : ""}:\n\n${bounded}` },
          ],
          readAnswer,
        );
      } catch (error) {
        if (error instanceof LlmError) throw new RunError(error.message);
        throw error;
      }
      progress("score");
      const kind = hints.kind ?? answer.kind ?? "company";
      const read = readFacts(pages, { ...hints, kind });
      const reading: Reading = {
        units: read.units,
        pages,
        teamNames: [...new Set([...read.facts.team.map((m) => m.name), ...answer.facts.team.map((m) => m.name)])].filter((n) => pages.some((p) => p.text.includes(n))),
        stages: statedStages(read.units),
        company: kind === "company",
      };
      const byKey = new Map(answer.sections.map((s) => [s.key, s]));
      const sections = catalogueOf(kind).map(([key, title]) => honestSection(key, title, byKey.get(key), pages, reading));
      const scored = sections.filter((s) => s.score !== null);
      const score = scored.length ? Math.round(scored.reduce((sum, s) => sum + s.score!, 0) / scored.length) : null;
      progress("summarize");
      const checked = checkedFacts(answer.facts, pages, reading);
      const facts = withHints(checked.facts, hints);
      const dropped = sections.filter((s) => s.unavailable_reason === QUOTES_UNVERIFIED || s.unavailable_reason === NO_QUOTES);
      const elsewhere = sections.filter((s) => s.unavailable_reason === QUOTES_ELSEWHERE);
      const summary = [
        answer.summary ?? `${facts.company.name ?? "The deal"}: ${scored.length} of ${sections.length} sections supported by the material.`,
        dropped.length ? `Scores dropped for lack of verifiable evidence: ${dropped.map((s) => s.title.toLowerCase()).join(", ")}.` : "",
        elsewhere.length ? `Scores dropped because their quotes are about something else: ${elsewhere.map((s) => s.title.toLowerCase()).join(", ")}.` : "",
        checked.dropped.length ? `Facts the model gave that the material does not state, dropped: ${checked.dropped.join(", ")}.` : "",
        note ?? "",
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
