// The built-in research engine: offline and deterministic. It plans with research-planner.ts and
// writes the report straight from the retrieved passages: each claim is a passage's own sentence
// (a quoted page, a stored figure, a recorded relationship) with its numbered citation. It quotes
// and never interprets, and a sub-question without evidence says so.
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

export const nothingOn = (f: Findings) =>
  `The firm's records hold nothing on this question. Searched: ${f.searched.join("; ")}.`;

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
    const opening =
      answered === 0
        ? `The firm's records hold nothing on this query: none of its ${findings.length} sub-questions found a document, deal, metric, fund position or relationship.`
        : `The firm's own records answer ${answered} of ${findings.length} sub-questions from ${citations.length} sources; the built-in engine quotes them and does not interpret.`;
    const executive = [opening, ...summary].join(" ");
    const title = titleOf(query);
    const markdown = [`# ${title}`, `## Executive summary\n\n${[opening, ...summary.map((s) => `- ${s}`)].join("\n\n")}`, ...sections, `## Sources\n\n${sourcesMarkdown(citations)}`].join("\n\n");
    return { title, executive_summary: executive, report_markdown: `${markdown}\n`, citations };
  },
};
