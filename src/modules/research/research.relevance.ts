// Which passages answer a sub-question. Sharing a word is not answering: "What is the outlook for
// quantum computing teams in Europe?" is not answered by an accounting deck that mentions finance
// "teams". Each term of the question is weighed by how rare it is in the org's own corpus (a term
// the corpus lacks weighs as much as the rarest one it has: it is what the question is about), and
// everyday words ("teams", "companies") weigh little. A passage answers when it carries at least
// half of the question's weight and at least one of its distinctive (not everyday) terms.
import type { Database } from "bun:sqlite";

/** Words that frame a question rather than say what it is about: never searched. */
export const FRAMING = new Set(
  `outlook outlooks trend trends status state latest current currently recent recently overview summary summarise summarize update updates
   view views say says said mention mentions mentioned discuss discusses discussed document documents deck decks deal deals
   analysis analyses question questions information info detail details doing going look looks like`.split(/\s+/),
);

/** Everyday business words: searched, but weighed lightly and never enough to answer alone. */
const EVERYDAY = new Set(
  `team teams company companies business businesses market markets startup startups people person year years month months new
   good best work works working way ways thing things number numbers part parts plan plans group groups world global time times
   make makes made use uses used help helps need needs high low large small big`.split(/\s+/),
);

const EVERYDAY_WEIGHT = 0.3;
/** Document counts are capped: past this many passages a term is common, and counting further is only cost. */
const COUNT_CAP = 500;
export const MIN_COVERAGE = 0.5;

export type WeighedTerm = { term: string; weight: number; everyday: boolean; inCorpus: boolean };

export type Verdict = { answers: boolean; matched: string[] };

const quote = (term: string) => `"${term.replace(/"/g, '""')}"`;

/** Term statistics of one org's corpus, cached for the life of the object (one research run). */
export function relevance(sqlite: Database, orgId: string) {
  const countRows = sqlite.query<{ n: number }, [string]>("SELECT count(*) AS n FROM search_index WHERE org_id = ?");
  const countTerm = sqlite.query<{ n: number }, [string, string]>(
    `SELECT count(*) AS n FROM (SELECT 1 FROM search_index WHERE search_index MATCH ? AND org_id = ? LIMIT ${COUNT_CAP})`,
  );
  const rowsWith = sqlite.query<{ rowid: number }, [string, string]>(
    "SELECT rowid FROM search_index WHERE search_index MATCH ? AND rowid IN (SELECT value FROM json_each(?))",
  );
  let corpusRows: number | null = null;
  const counts = new Map<string, number>();

  function weigh(terms: string[]): WeighedTerm[] {
    corpusRows ??= countRows.get(orgId)!.n;
    const n = corpusRows;
    return terms.map((term) => {
      let df = counts.get(term);
      if (df === undefined) counts.set(term, (df = countTerm.get(quote(term), orgId)!.n));
      // BM25's idf; a term the corpus lacks weighs as if it appeared once.
      const idf = Math.log(1 + (n - Math.max(df, 1) + 0.5) / (Math.max(df, 1) + 0.5));
      const everyday = EVERYDAY.has(term);
      return { term, weight: idf * (everyday ? EVERYDAY_WEIGHT : 1), everyday, inCorpus: df > 0 };
    });
  }

  /** For each candidate row, whether it answers and which terms it carries. */
  function judge(terms: WeighedTerm[], rowids: number[]): Map<number, Verdict> {
    const has = new Map<number, string[]>(rowids.map((id) => [id, []]));
    const ids = JSON.stringify(rowids);
    for (const t of terms) for (const r of rowsWith.all(quote(t.term), ids)) has.get(r.rowid)?.push(t.term);
    const total = terms.reduce((s, t) => s + t.weight, 0);
    const distinctive = terms.filter((t) => !t.everyday).map((t) => t.term);
    const out = new Map<number, Verdict>();
    for (const [rowid, matched] of has) {
      const got = terms.filter((t) => matched.includes(t.term)).reduce((s, t) => s + t.weight, 0);
      const carriesSubject = distinctive.length === 0 || matched.some((m) => distinctive.includes(m));
      out.set(rowid, { answers: total > 0 && got / total >= MIN_COVERAGE && carriesSubject, matched });
    }
    return out;
  }

  return { weigh, judge };
}
