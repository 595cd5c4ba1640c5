// The built-in research engine: offline and deterministic. It plans with research-planner.ts and
// writes the report straight from the retrieved passages: each claim is a passage's own sentence
// (a quoted page, a stored figure, a recorded relationship) with its numbered citation. It quotes
// and never interprets, and a sub-question without evidence says so: when the only passages found
// share an everyday word with it, the section says the firm's records do not address it, and the
// executive summary counts only the sub-questions really answered.
import type { Citation, Findings, Passage, ResearchEngine, ResearchReport } from "../research-engine.ts";
import { planQuestions } from "./research-planner.ts";

const CLAIMS_PER_SECTION = 8;

/** Numbers each distinct source once, in order of first use. */
export function citationBook() {
  const byKey = new Map<string, Citation>();
  return {
    cite(p: Passage): number {
      const key = `${p.source_type}|${p.source_id}|${p.page ?? ""}`;
      let c = byKey.get(key);
      if (!c) {
        c = { n: byKey.size + 1, title: p.title, source_type: p.source_type, source_id: p.source_id, page: p.page, quote: p.quote };
        byKey.set(key, c);
      }
      return c.n;
    },
    list: (): Citation[] => [...byKey.values()],
  };
}

export const titleOf = (query: string) => {
  const first = query.trim().split("\n")[0].replace(/\s+/g, " ");
  return `Research: ${first.length > 100 ? `${first.slice(0, 100).replace(/\s+\S*$/, "")}…` : first}`;
};

export function sourcesMarkdown(citations: Citation[]): string {
  if (citations.length === 0) return "No sources: the firm's records hold nothing on this query.";
  return citations
    .map((c) => `${c.n}. ${c.title}${c.page !== null ? `, page ${c.page}` : ""} (${c.source_type} \`${c.source_id}\`): "${c.quote.replace(/"/g, "'")}"`)
    .join("\n");
}

const quotedList = (words: string[], joiner: string) => {
  const q = words.map((w) => `"${w}"`);
  return q.length > 1 ? `${q.slice(0, -1).join(", ")} ${joiner} ${q.at(-1)}` : (q[0] ?? "");
};

/** The section of a sub-question nothing answers: what was found instead, what is absent, where it looked. */
export function nothingOn(f: Findings): string {
  const near = f.near_misses?.count ?? 0;
  const missing = f.missing_terms ?? [];
  const absent = missing.length ? ` Nothing in them mentions ${quotedList(missing, "or")}.` : "";
  const lead = near
    ? `The firm's records do not address this question: ${near} passage${near === 1 ? "" : "s"} share${near === 1 ? "s" : ""} only ${quotedList(f.near_misses!.shared, "and")} with it and ${near === 1 ? "was" : "were"} not counted.`
    : "The firm's records hold nothing on this question.";
  return `${lead}${absent} Searched: ${f.searched.join("; ")}.`;
}

export const builtinResearchEngine: ResearchEngine = {
  name: "builtin",

  async plan(query, entities) {
    return planQuestions(query, entities);
  },

  async write({ query, findings, progress, checkpoint }): Promise<ResearchReport> {
    const book = citationBook();
    const sections: string[] = [];
    const summary: string[] = [];
    for (const [i, f] of findings.entries()) {
      checkpoint();
      progress("write", 85 + Math.floor((i / Math.max(1, findings.length)) * 14));
      const lines = f.passages.slice(0, CLAIMS_PER_SECTION).map((p) => `- ${p.claim} [${book.cite(p)}]`);
      sections.push(`## ${i + 1}. ${f.question}\n\n${lines.length ? lines.join("\n") : nothingOn(f)}`);
      const lead = f.passages[0];
      summary.push(lead ? `On "${f.question}": ${lead.claim} [${book.cite(lead)}]` : `Nothing in the firm's records answers "${f.question}".`);
    }
    const citations = book.list();
    const answered = findings.filter((f) => f.passages.length > 0).length;
    const unanswered = findings.length - answered;
    const near = findings.reduce((n, f) => n + (f.near_misses?.count ?? 0), 0);
    const sources = `${citations.length} source${citations.length === 1 ? "" : "s"}`;
    const opening =
      answered === 0
        ? near
          ? `The firm's records do not address this query: none of its ${findings.length} sub-questions is answered by a document, deal, metric, fund position or relationship ` +
            `(${near} passage${near === 1 ? "" : "s"} shared only everyday words with them and ${near === 1 ? "was" : "were"} not counted).`
          : `The firm's records hold nothing on this query: none of its ${findings.length} sub-questions found a document, deal, metric, fund position or relationship.`
        : `The firm's own records answer ${answered} of ${findings.length} sub-questions from ${sources}` +
          `${unanswered ? `; ${unanswered === 1 ? "the other one is" : `the other ${unanswered} are`} not addressed` : ""}; the built-in engine quotes them and does not interpret.`;
    const executive = [opening, ...summary].join(" ");
    const title = titleOf(query);
    const markdown = [`# ${title}`, `## Executive summary\n\n${[opening, ...summary.map((s) => `- ${s}`)].join("\n\n")}`, ...sections, `## Sources\n\n${sourcesMarkdown(citations)}`].join("\n\n");
    return { title, executive_summary: executive, report_markdown: `${markdown}\n`, citations };
  },
};
