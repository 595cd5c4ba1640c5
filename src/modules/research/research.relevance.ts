// Which passages answer a sub-question. Sharing a word is not answering: "What is the outlook for
// quantum computing teams in Europe?" is not answered by an accounting deck that mentions finance
// "teams". Each term of the question is weighed by how rare it is in the org's corpus (BM25's idf
// against a reference size, so a term in 1 passage weighs about 4.5 times one in 250 or more; a
// term the corpus lacks weighs as the rarest: it is what the question asks about), and everyday
// words ("teams", "companies") weigh little. A passage answers when it carries at least half of the
// question's weight, at least one distinctive (not everyday) term, and every name the question
// asks about ("Ledgerly", "ARR") that the corpus knows at all.
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
/** Passage counts are capped: past this many a term is common, and counting further is only cost. */
const COUNT_CAP = 250;
/**
 * The corpus size idf is taken against. A fixed size keeps rarity absolute (a term in 3 passages
 * is rare in any corpus) and spares a count of the org's passages, which FTS5 can only get by scanning.
 */
const REFERENCE_PASSAGES = 1_000;
export const MIN_COVERAGE = 0.5;

export type WeighedTerm = { term: string; weight: number; everyday: boolean; inCorpus: boolean };

export type Verdict = { answers: boolean; matched: string[] };

const quote = (term: string) => `"${term.replace(/"/g, '""')}"`;

/** Term counts of one org's corpus, cached for the life of the object (one research run). */
export function relevance(sqlite: Database, orgId: string) {
  const countTerm = sqlite.query<{ n: number }, [string, string]>(
    `SELECT count(*) AS n FROM (SELECT 1 FROM search_index WHERE search_index MATCH ? AND org_id = ? LIMIT ${COUNT_CAP})`,
  );
  const rowsWith = sqlite.query<{ rowid: number }, [string, string]>(
    "SELECT rowid FROM search_index WHERE search_index MATCH ? AND rowid IN (SELECT value FROM json_each(?))",
  );
  const counts = new Map<string, number>();

  function weigh(terms: string[]): WeighedTerm[] {
    return terms.map((term) => {
      let df = counts.get(term);
      if (df === undefined) counts.set(term, (df = countTerm.get(quote(term), orgId)!.n));
      // BM25's idf; a term the corpus lacks weighs as if it appeared once.
      const d = Math.max(df, 1);
      const idf = Math.log(1 + (REFERENCE_PASSAGES - d + 0.5) / (d + 0.5));
      const everyday = EVERYDAY.has(term);
      return { term, weight: idf * (everyday ? EVERYDAY_WEIGHT : 1), everyday, inCorpus: df > 0 };
    });
  }

  /** For each candidate row, whether it answers and which terms it carries. `named`: the question's names. */
  function judge(terms: WeighedTerm[], rowids: number[], named: string[] = []): Map<number, Verdict> {
    const has = new Map<number, string[]>(rowids.map((id) => [id, []]));
    const ids = JSON.stringify(rowids);
    for (const t of terms) for (const r of rowsWith.all(quote(t.term), ids)) has.get(r.rowid)?.push(t.term);
    const total = terms.reduce((s, t) => s + t.weight, 0);
    const distinctive = terms.filter((t) => !t.everyday).map((t) => t.term);
    const required = terms.filter((t) => t.inCorpus && named.includes(t.term)).map((t) => t.term);
    const out = new Map<number, Verdict>();
    for (const [rowid, matched] of has) {
      const got = terms.filter((t) => matched.includes(t.term)).reduce((s, t) => s + t.weight, 0);
      const carriesSubject = distinctive.length === 0 || matched.some((m) => distinctive.includes(m));
      const carriesNames = required.every((r) => matched.includes(r));
      out.set(rowid, { answers: total > 0 && got / total >= MIN_COVERAGE && carriesSubject && carriesNames, matched });
    }
    return out;
  }

  return { weigh, judge };
}

/**
 * The names a question asks about, lower-cased: capitalised words and acronyms, except a
 * sentence's first word when it is an ordinary capitalised one ("Research payroll APIs" -> apis).
 */
export function namesIn(question: string, isOrdinary: (word: string) => boolean): string[] {
  const out = new Set<string>();
  for (const m of question.normalize("NFKC").matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = m[0];
    if (!/^\p{Lu}/u.test(word) || isOrdinary(word.toLowerCase())) continue;
    const sentenceStart = /(?:^|[.!?:;]\s*|\n\s*)["“(]*$/.test(question.slice(0, m.index));
    const acronym = /^[\p{Lu}\p{N}]{2,}$/u.test(word) || /\p{Lu}/u.test(word.slice(1));
    if (!sentenceStart || acronym) out.add(word.toLowerCase());
  }
  return [...out];
}
