// Retrieval from the firm's own records for one sub-question, every query scoped to the run's org:
// document pages and deal analyses in FTS5 (bm25, verbatim snippets), the deals named, the latest
// portfolio metrics of named companies, the fund book's positions, and who in the network (the
// run's user and teammates who share) knows people at a named company or a named person.
// Each passage names the row it came from, so every citation resolves. A text passage counts only
// when it answers (research.relevance.ts): sharing an everyday word with the question is not enough.
import type { Deps } from "../../deps.ts";
import type { Principal } from "../identity/auth.macro.ts";
import type { Entities, Findings, Passage } from "../../engines/research-engine.ts";
import { dealsService } from "../deals/deals.service.ts";
import { fundsService } from "../funds/funds.service.ts";
import { networkService } from "../network/network.service.ts";
import { portfolioService } from "../portfolio/portfolio.service.ts";
import { entityFinder, METRIC_WORDS } from "./research.entities.ts";
import { FRAMING, namesIn, relevance } from "./research.relevance.ts";
import type { SearchIndexRow } from "./research.tables.ts";

const STOPWORDS = new Set(
  `a an and are as at be been by can could did do does for from had has have how i if in into is it its me my of on or our should
  so than that the their them then there these they this to us was we were what when where which who whom whose why will with would
  you your about any all also tell give show find list describe explain there's what's know knows firm firms records`.split(/\s+/),
);

const FTS_PER_QUESTION = 4;
const NETWORK_WORDS = /\b(knows?|network|relationships?|warm|intros?|introductions?|contacts?|connected)\b/i;
const PER_ENTITY = 3;

/** Words worth searching for, each quoted for FTS5 (so no input is read as query syntax). */
export function searchTerms(question: string): string[] {
  const words = question.normalize("NFKC").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((w) => w.length >= 2 && !STOPWORDS.has(w) && !FRAMING.has(w)))].slice(0, 12);
}

const quoted = (terms: string[]) => terms.map((t) => `"${t}"`);

const fmt = (v: number) => (Number.isInteger(v) ? v.toLocaleString("en-US") : v.toLocaleString("en-US", { maximumFractionDigits: 4 }));
const possessive = (name: string) => (name.endsWith("s") ? `${name}'` : `${name}'s`);
const orNA = (v: number | null, f: (x: number) => string = fmt) => (v === null ? "not available" : f(v));

type FtsRow = Pick<SearchIndexRow, "rowid" | "title" | "source_type" | "source_id" | "page"> & { quote: string };

/** What the text search found for a question, and what it set aside. */
export type TextSearch = {
  passages: Passage[];
  /** Passages that shared only some words with the question and were not counted. */
  nearMisses: { count: number; shared: string[] };
  /** Distinctive terms of the question that no passage of the org carries. */
  missingTerms: string[];
};

export function researchCorpus(deps: Deps, who: { orgId: string; userId: string }) {
  const sqlite = deps.db.$client;
  const entitiesIn = entityFinder(deps);
  const portfolio = portfolioService(deps);
  const funds = fundsService(deps);
  const network = networkService(deps);
  const dealBook = dealsService(deps);
  const relevant = relevance(sqlite, who.orgId);
  // The network pools by org and user only (the run's user and teammates who share).
  const principal = { orgId: who.orgId, userId: who.userId } as Principal;

  const fts = sqlite.query<FtsRow, { q: string; org: string; n: number }>(
    // Ranked first, snippets after: a snippet in the ranked query would be made for every match.
    `SELECT rowid, title, source_type, source_id, page, snippet(search_index, 1, '', '', '…', 40) AS quote
     FROM search_index WHERE search_index MATCH $q AND rowid IN (
       SELECT rowid FROM search_index WHERE search_index MATCH $q AND org_id = $org ORDER BY bm25(search_index, 2.0, 1.0) LIMIT $n)
     ORDER BY bm25(search_index, 2.0, 1.0)`,
  );
  // The OR fallback: candidates ranked without snippets, judged, and only those kept get one.
  const ranked = sqlite.query<{ rowid: number }, { q: string; org: string; n: number }>(
    "SELECT rowid FROM search_index WHERE search_index MATCH $q AND org_id = $org ORDER BY bm25(search_index, 2.0, 1.0) LIMIT $n",
  );
  const snippetsOf = sqlite.query<FtsRow, { q: string; ids: string }>(
    `SELECT rowid, title, source_type, source_id, page, snippet(search_index, 1, '', '', '…', 40) AS quote
     FROM search_index WHERE search_index MATCH $q AND rowid IN (SELECT value FROM json_each($ids))`,
  );
  /**
   * Document pages and deal analyses that answer the question: those carrying all its terms, then
   * the best-ranked of those carrying some, when they answer (enough weight, a distinctive term).
   */
  function searchQuestion(question: string): TextSearch {
    const terms = searchTerms(question);
    const none: TextSearch = { passages: [], nearMisses: { count: 0, shared: [] }, missingTerms: [] };
    if (terms.length === 0) return none;
    const rows = fts.all({ q: quoted(terms).join(" "), org: who.orgId, n: FTS_PER_QUESTION });
    const result = { ...none, nearMisses: { count: 0, shared: [] as string[] } };
    if (rows.length < FTS_PER_QUESTION && terms.length > 1) {
      const weighed = relevant.weigh(terms);
      result.missingTerms = weighed.filter((t) => !t.inCorpus && !t.everyday).map((t) => t.term);
      const seen = new Set(rows.map((r) => r.rowid));
      const any = quoted(terms).join(" OR ");
      const candidates = ranked.all({ q: any, org: who.orgId, n: FTS_PER_QUESTION * 3 }).map((r) => r.rowid).filter((id) => !seen.has(id));
      const named = namesIn(question, (w) => STOPWORDS.has(w) || FRAMING.has(w));
      const verdicts = relevant.judge(weighed, candidates, named);
      const kept: number[] = [];
      for (const id of candidates) {
        const v = verdicts.get(id)!;
        if (v.answers && rows.length + kept.length < FTS_PER_QUESTION) kept.push(id);
        else if (!v.answers) {
          result.nearMisses.count++;
          for (const m of v.matched) if (!result.nearMisses.shared.includes(m)) result.nearMisses.shared.push(m);
        }
      }
      if (kept.length) {
        const byId = new Map(snippetsOf.all({ q: any, ids: JSON.stringify(kept) }).map((r) => [r.rowid, r]));
        for (const id of kept) if (byId.has(id)) rows.push(byId.get(id)!);
      }
    }
    if (rows.length === 0 && terms.length === 1) result.missingTerms = terms; // one term, and no passage has it
    result.passages = rows.map((r) => {
      const quote = r.quote.replace(/\s+/g, " ").trim();
      const where = r.source_type === "document" ? `${r.title}, page ${r.page}` : `the firm's analysis of ${r.title}`;
      return { source_type: r.source_type, source_id: r.source_id, page: r.source_type === "document" ? Number(r.page) : null, title: r.title, quote, claim: `${where} reads: "${quote}"` };
    });
    return result;
  }

  const searchText = (question: string): Passage[] => searchQuestion(question).passages;

  function metricPassages(company: string, asked: string[]): Passage[] {
    const fold = company.toLowerCase();
    const holding = portfolio.list(who.orgId, { q: fold, limit: 20, offset: 0 }).companies.find((c) => c.name.toLowerCase() === fold);
    if (!holding) return [];
    const key = portfolio.mustGetHolding(who.orgId, holding.company_id).companyKey;
    const wanted = asked.flatMap((w) => METRIC_WORDS[w] ?? [w]);
    return Object.entries(holding.metrics)
      .filter(([metric]) => wanted.length === 0 || wanted.some((w) => metric.includes(w)))
      .slice(0, 6)
      .flatMap(([metric, m]) => {
        const pointId = portfolio.actualPointId(who.orgId, key, metric, m.statement_date);
        if (pointId === null) return [];
        const amount = `${fmt(m.value)}${m.unit && m.unit.toLowerCase() !== (m.currency ?? "").toLowerCase() ? ` ${m.unit}` : ""}${m.currency ? ` ${m.currency}` : ""}`;
        const date = m.statement_date.slice(0, 10);
        return [{ source_type: "metric_point" as const, source_id: String(pointId), page: null, title: `${holding.name}: ${metric}`, quote: `${metric} = ${amount} (actual, ${date})`, claim: `${possessive(holding.name)} latest actual ${metric} is ${amount} (statement of ${date}).` }];
      });
  }

  function dealPassages(company: string): Passage[] {
    return dealBook.scoreRowsNamed(who.orgId, company, 2).map((d) => {
      const analysis = d.analysis ? (JSON.parse(d.analysis) as { summary?: string }) : null;
      const summary = analysis?.summary?.trim();
      const claim = summary
        ? `The firm's analysis of ${d.company_name} (pipeline stage ${d.stage}) scored it ${d.score === null ? "without an overall score" : `${fmt(d.score)}/100`}: ${summary}`
        : `${d.company_name} is in the deal pipeline at stage ${d.stage}; its analysis has not produced a summary.`;
      return { source_type: "deal" as const, source_id: d.id, page: null, title: d.company_name, quote: summary ?? `stage: ${d.stage}`, claim };
    });
  }

  function pathPassages(input: { domain?: string; person?: string }, about: string): Passage[] {
    return network
      .whoKnows(principal, { ...input, limit: PER_ENTITY })
      .paths.filter((p) => p.contact_id && p.name)
      .map((p) => {
        const who = `${p.name}${p.title ? ` (${p.title})` : ""}`;
        const strength = p.strength_score === null ? "no recorded interactions" : `${p.relationship} relationship, strength ${fmt(p.strength_score)}`;
        return {
          source_type: "person" as const,
          source_id: p.contact_id!,
          page: null,
          title: p.name!,
          quote: `${p.path_owner} -> ${who}${p.domain ? `, ${p.domain}` : ""}: ${strength}`,
          claim: `${p.path_owner} knows ${who}${input.domain ? ` at ${about}` : ""}: ${strength}.`,
        };
      });
  }

  function fundPassages(fundName: string | undefined): Passage[] {
    const { positions } = funds.positions(who.orgId, fundName);
    return [...positions]
      .sort((a, b) => (b.commitment ?? 0) - (a.commitment ?? 0))
      .slice(0, 6)
      .map((p) => {
        const pct = (x: number) => `${fmt(Math.round(x * 1000) / 10)}%`;
        const figures = `TVPI ${orNA(p.tvpi)}, DPI ${orNA(p.dpi)}, IRR ${orNA(p.irr, pct)}`;
        const commitment = `${orNA(p.commitment)}${p.currency ? ` ${p.currency}` : ""}`;
        return {
          source_type: "fund_commitment" as const,
          source_id: p.commitment_id,
          page: null,
          title: p.fund_name,
          quote: `${p.fund_name}: commitment ${commitment}, called ${orNA(p.called)}, distributed ${orNA(p.distributed)}, NAV ${orNA(p.nav)}; ${figures}`,
          claim: `The firm's commitment of ${commitment} to ${p.fund_name}${p.vintage_year ? ` (vintage ${p.vintage_year})` : ""} stands at ${figures}.`,
        };
      });
  }

  function metricLeaders(asked: string[]): Passage[] {
    return asked.slice(0, 2).flatMap((w) =>
      portfolio.metricLeaders(who.orgId, METRIC_WORDS[w]?.[0] ?? w, 5).map((m) => {
        const amount = `${fmt(m.value)}${m.currency ? ` ${m.currency}` : m.unit ? ` ${m.unit}` : ""}`;
        const date = m.statement_date.slice(0, 10);
        return { source_type: "metric_point" as const, source_id: String(m.id), page: null, title: `${m.name}: ${m.metric}`, quote: `${m.metric} = ${amount} (actual, ${date})`, claim: `${possessive(m.name)} latest actual ${m.metric} is ${amount} (statement of ${date}).` };
      }),
    );
  }

  /** Everything the firm's records hold on one sub-question; `searched` says where it looked. */
  function find(question: string): Findings {
    const e: Entities = entitiesIn(who.orgId, question);
    const asksNetwork = NETWORK_WORDS.test(question);
    const asksFigures = e.metrics.length > 0;
    const searched: string[] = [];
    // Strongest evidence first: stored figures and relationships, then text, then bare deal rows.
    const figures: Passage[] = [];
    const text: Passage[] = [];
    const deals: Passage[] = [];
    for (const c of e.companies.slice(0, PER_ENTITY)) {
      if (!asksNetwork || asksFigures) {
        searched.push(`${c.name}: deal records and portfolio metrics`);
        figures.push(...metricPassages(c.name, e.metrics));
        deals.push(...dealPassages(c.name));
      }
      if (c.domain && (asksNetwork || !asksFigures)) {
        searched.push(`the network (people at ${c.domain})`);
        figures.push(...pathPassages({ domain: c.domain }, c.name));
      }
    }
    if (e.companies.length === 0 && asksFigures) {
      searched.push(`portfolio metrics (${e.metrics.join(", ")})`);
      figures.push(...metricLeaders(e.metrics));
    }
    for (const f of e.funds.slice(0, PER_ENTITY)) figures.push(...fundPassages(f));
    if (e.funds.length === 0 && e.fundBook) figures.push(...fundPassages(undefined));
    if (e.funds.length || e.fundBook) searched.push("the fund book (positions)");
    for (const p of e.persons.slice(0, PER_ENTITY)) {
      searched.push(`the network (${p})`);
      figures.push(...pathPassages({ person: p }, p));
    }
    searched.push("document pages and deal analyses (full-text search)");
    const textSearch = searchQuestion(question);
    text.push(...textSearch.passages);
    const analysed = deals.filter((d) => !d.quote.startsWith("stage: "));
    const bare = deals.filter((d) => d.quote.startsWith("stage: "));
    const seen = new Set<string>();
    const unique = [...figures, ...analysed, ...text, ...bare].filter((p) => {
      const k = `${p.source_type}|${p.source_id}|${p.page ?? ""}`;
      return seen.has(k) ? false : (seen.add(k), true);
    });
    return { question, passages: unique, searched, near_misses: textSearch.nearMisses, missing_terms: textSearch.missingTerms };
  }

  return { find, searchText, entitiesIn: (text: string) => entitiesIn(who.orgId, text) };
}

export type ResearchCorpus = ReturnType<typeof researchCorpus>;
