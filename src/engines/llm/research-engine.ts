// The LLM research engine (DEALGRAPH_LLM_BASE_URL): the model plans the sub-questions and writes
// the report from the retrieved passages, numbered. Every claim carries a citation to a passage
// that was given: a sentence citing a number the model invented is removed, and so is a sentence
// that states something without any citation (headings, the sub-question restated and "the records
// do not say" may stand uncited); the report says what was removed. The passages it did cite are
// renumbered in order of use so `[n]` is always `citations[n-1]`.
import { citationBook, sourcesMarkdown, titleOf } from "../builtin/research-engine.ts";
import { MAX_SUB_QUESTIONS, MIN_SUB_QUESTIONS, type Passage, type ResearchEngine, type ResearchReport } from "../research-engine.ts";
import type { LlmClient } from "./client.ts";

const PLAN_SYSTEM = `You plan research over a venture firm's own records (data-room documents, deal analyses, portfolio metrics, LP fund positions, the team's network).
Break the user's query into ${MIN_SUB_QUESTIONS} to ${MAX_SUB_QUESTIONS} specific sub-questions that those records could answer.
Answer with JSON only: {"sub_questions": ["...", "..."]}`;

const WRITE_SYSTEM = `You write a research report for a venture firm using ONLY the numbered passages given, which come from the firm's own records.
Rules: every sentence that states something ends with the number of the passage that supports it, like [3] (a sentence without one is removed); never cite a number that was not given; never use outside knowledge;
a sub-question with no passages gets the sentence "The firm's records hold nothing on this question."
Answer with JSON only: {"executive_summary": "3-6 sentences with [n] citations", "sections": [{"question": "the sub-question", "markdown": "the answer in Markdown with [n] citations"}]}`;

function acceptPlan(value: unknown): string[] {
  const list = (value as { sub_questions?: unknown })?.sub_questions;
  if (!Array.isArray(list)) throw new Error("sub_questions is not a list");
  const questions = [...new Set(list.filter((q): q is string => typeof q === "string").map((q) => q.replace(/\s+/g, " ").trim().slice(0, 500)).filter(Boolean))];
  if (questions.length < MIN_SUB_QUESTIONS) throw new Error(`sub_questions has ${questions.length} usable entries, at least ${MIN_SUB_QUESTIONS} are needed`);
  return questions.slice(0, MAX_SUB_QUESTIONS);
}

type Draft = { executive_summary: string; sections: { question: string; markdown: string }[] };

function acceptDraft(value: unknown): Draft {
  const v = value as Partial<Draft>;
  if (typeof v?.executive_summary !== "string" || !v.executive_summary.trim()) throw new Error("executive_summary is missing");
  if (!Array.isArray(v.sections)) throw new Error("sections is not a list");
  const sections = v.sections.filter((s) => typeof s?.markdown === "string").map((s) => ({ question: String(s.question ?? "").trim(), markdown: s.markdown.trim() }));
  return { executive_summary: v.executive_summary.trim(), sections };
}

const CITATION = /\[(\d+)\]/g;
const ONLY_CITATIONS = /^(?:\[\d+\][\s,;]*)+[.!?]?$/;
const ABBREVIATION = /\b(?:e\.g|i\.e|vs|etc|approx|inc|ltd|corp|co|dr|mr|mrs|ms|st|no|fig)\.$/i;
// A sentence wholly about the records not saying something: "The firm's records hold nothing on
// this question.", "The records do not say who its investors are.", "No passage mentions churn.",
// "Nothing in the documents covers pricing." Its subject is the records themselves (not "Revenue
// data", which is a figure of them), and it is one clause: a second one ("...; ARR grew 3x",
// "..., but ARR grew") would state something uncited.
const RECORDS = String.raw`(?:the |these |its |our )?(?:firm(?:'s|’s) (?:own )?)?(?:given |provided |available |retrieved |cited )?(?:records?|passages?|documents?|sources?|evidence|materials?|data)`;
const SAY = String.raw`(?:say|state|mention|address|cover|contain|include|specify|show|give|provide|answer|discuss|report|hold|name|list|indicate)s?`;
const SAYS_NOTHING = [
  new RegExp(`^${RECORDS} (?:(?:hold|say|contain|give|provide)s? nothing|(?:do|does|did)(?: not|n't) ${SAY}|(?:is|are) silent)\\b`, "i"),
  new RegExp(`^(?:no|none of the) (?:passages?|records?|documents?|sources?|evidence|data|materials?)\\b`, "i"),
  new RegExp(`^nothing (?:in|on|about) ${RECORDS}\\b`, "i"),
  new RegExp(`^there (?:is|are) no (?:passages?|records?|documents?|sources?|evidence|data|information)\\b`, "i"),
];
/** A second clause, which could state something: a semicolon, a colon, a dash, ", which", or a joining word. */
const SECOND_CLAUSE = /[;:—–]| - |,\s*(?:which|who)\b|\b(?:and|but|while|whereas|although|though|yet|however|so|because|since)\b/i;

/** Whether a sentence is only the records not saying something (nothing else in it). */
export function saysOnlyNothing(plain: string): boolean {
  const lead = SAYS_NOTHING.map((re) => re.exec(plain)).find((m) => m !== null);
  if (!lead) return false;
  // The words after the lead-in say what is missing; they may not add a clause of their own.
  return !SECOND_CLAUSE.test(plain.slice(lead[0].length));
}

/** Sentences of one line; a citation after the full stop ("... grew. [2]") stays with its sentence. */
export function sentencesOf(line: string): string[] {
  const out: string[] = [];
  for (const piece of line.split(/(?<=[.!?])\s+/)) {
    const prev = out.at(-1);
    if (prev !== undefined && (ONLY_CITATIONS.test(piece.trim()) || ABBREVIATION.test(prev))) out[out.length - 1] = `${prev} ${piece}`;
    else out.push(piece);
  }
  return out;
}

/** Whether a sentence without a citation may stay: it asserts no fact of the records. */
export function mayStandUncited(sentence: string, questions: string[]): boolean {
  const plain = sentence.replace(/[*_`>]/g, "").replace(/^\s*(?:[-+]|\d+[.)])\s+/, "").trim();
  if (!plain || /^#{1,6}\s/.test(plain) || /^\|?[\s:|-]+\|?$/.test(plain)) return true; // nothing, a heading, a table rule
  if (!/[\p{L}\p{N}]/u.test(plain)) return true;
  const bare = (q: string) => q.toLowerCase().replace(/^\d+[.)]\s*/, "").replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  if (plain.endsWith("?") || questions.some((q) => bare(q) === bare(plain))) return true; // the sub-question restated
  if (plain.endsWith(":") && plain.split(/\s+/).length <= 8 && !/\d/.test(plain)) return true; // a lead-in to a list
  return saysOnlyNothing(plain);
}

export function llmResearchEngine(llm: LlmClient): ResearchEngine {
  return {
    name: `llm:${llm.model}`,

    async plan(query) {
      return llm.json([{ role: "system", content: PLAN_SYSTEM }, { role: "user", content: query }], acceptPlan);
    },

    async write({ query, findings, progress, checkpoint }): Promise<ResearchReport> {
      // One number per distinct passage, across sub-questions.
      const given: Passage[] = [];
      const numberOf = new Map<string, number>();
      const blocks = findings.map((f, i) => {
        const lines = f.passages.map((p) => {
          const key = `${p.source_type}|${p.source_id}|${p.page ?? ""}`;
          if (!numberOf.has(key)) numberOf.set(key, given.push(p));
          return `[${numberOf.get(key)}] ${p.title}${p.page !== null ? `, page ${p.page}` : ""}: ${p.quote}`;
        });
        return `Sub-question ${i + 1}: ${f.question}\n${lines.length ? lines.join("\n") : "(no passages: the firm's records hold nothing on it)"}`;
      });
      checkpoint();
      progress("write", 85);
      const draft = await llm.json(
        [
          { role: "system", content: WRITE_SYSTEM },
          { role: "user", content: `Query: ${query}\n\n${blocks.join("\n\n")}` },
        ],
        acceptDraft,
      );
      checkpoint();
      progress("write", 95);
      // Renumber what was cited, in order of use. A sentence that cites a number never given, or
      // states something citing nothing, is an unsupported claim: it is removed, and the report says so.
      const book = citationBook();
      const dropped = new Set<number>();
      let uncited = 0;
      const questions = findings.map((f) => f.question);
      const unknownIn = (sentence: string) => [...sentence.matchAll(CITATION)].map((m) => Number(m[1])).filter((n) => !given[n - 1]);
      const renumber = (sentence: string) => sentence.replace(CITATION, (_, raw: string) => `[${book.cite(given[Number(raw) - 1])}]`);
      const supported = (sentence: string) => {
        const unknown = unknownIn(sentence);
        unknown.forEach((n) => dropped.add(n));
        if (unknown.length) return false;
        if (/\[\d+\]/.test(sentence) || mayStandUncited(sentence, questions)) return true;
        if (sentence.trim()) uncited++;
        return false;
      };
      const rewrite = (text: string) =>
        text
          .split("\n")
          .map((line) => sentencesOf(line).filter(supported).map(renumber).join(" "))
          .join("\n")
          .replace(/\n{3,}/g, "\n\n")
          .trim();
      const executive = rewrite(draft.executive_summary) || "The model's summary made no claim it could cite to the firm's records; see the sections below.";
      const sections = findings.map((f, i) => {
        const written = rewrite(draft.sections[i]?.markdown ?? "");
        return `## ${i + 1}. ${f.question}\n\n${written || "The firm's records hold nothing on this question that the model could cite."}`;
      });
      const citations = book.list();
      const droppedList = [...dropped].sort((a, b) => a - b);
      const notes: string[] = [];
      if (droppedList.length) notes.push(`> The model cited passage numbers ${droppedList.join(", ")}, which match no passage it was given; the sentences citing them were removed.`);
      if (uncited) notes.push(`> The model wrote ${uncited} sentence${uncited === 1 ? "" : "s"} stating something without citing a passage; ${uncited === 1 ? "it was" : "they were"} removed (every claim must cite the firm's records).`);
      const note = notes.length ? `\n\n${notes.join("\n>\n")}` : "";
      const title = titleOf(query);
      const markdown = [`# ${title}`, `## Executive summary\n\n${executive}`, ...sections, `## Sources\n\n${sourcesMarkdown(citations)}${note}`].join("\n\n");
      return { title, executive_summary: executive, report_markdown: `${markdown}\n`, citations, dropped_citations: droppedList, uncited_removed: uncited };
    },
  };
}
