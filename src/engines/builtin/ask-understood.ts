// What of a question the reader did not use, said back rather than silently dropped: "deals backed
// by YC" answered with every deal would be a wrong answer that looks right. The reader's vocabulary
// is every word its own rules are written in (the lexicon's cues, the intents, the dates, the
// filters) plus function words; a word of the question in none of them, not a number, and not in
// the answer (a record's name the answer repeats was used) is a part the answer did not take into
// account. Neighbouring such words are said back together with the words that join them ("backed
// by YC", "term sheet"), so the caller, often an assistant, can rephrase or ask elsewhere.
import * as again from "./ask-again.ts";
import * as dates from "./ask-dates.ts";
import * as filters from "./ask-filters.ts";
import * as imperative from "./ask-imperative.ts";
import * as intents from "./ask-intents.ts";
import * as lexicon from "./ask-lexicon.ts";
import * as sets from "./ask-sets.ts";
import { fold, STOP, type Normalised } from "./ask-text.ts";
import { sectorsIn } from "../../lib/sectors.ts";

/** Every word found in the reader's own rules: regular expressions' sources, word lists and sets. */
function vocabulary(): Set<string> {
  const out = new Set<string>();
  const add = (text: string) => {
    for (const w of text.toLowerCase().replace(/\\[bBdDsSwWnrt]/g, " ").match(/[a-z]{2,}/g) ?? []) out.add(w);
    // ("startups?": the word without its optional last letter is written there too.)
    for (const m of text.toLowerCase().replace(/\\[bBdDsSwWnrt]/g, " ").matchAll(/([a-z]{3,})\?/g)) out.add(m[1].slice(0, -1));
  };
  const visit = (v: unknown, depth: number) => {
    if (depth > 4 || v === null || v === undefined) return;
    if (v instanceof RegExp) add(v.source);
    else if (typeof v === "string") add(v);
    else if (v instanceof Set) v.forEach((x) => visit(x, depth + 1));
    else if (Array.isArray(v)) v.forEach((x) => visit(x, depth + 1));
    else if (typeof v === "object") Object.entries(v as object).forEach(([k, x]) => (add(k), visit(x, depth + 1)));
  };
  for (const mod of [again, dates, filters, imperative, intents, lexicon, sets]) visit(Object.values(mod), 0);
  visit(dates.DATE_PATTERNS(), 0);
  STOP.forEach((w) => out.add(w));
  return out;
}

let known: Set<string> | null = null;
const stems = (w: string) => [w, w.replace(/'s$/, ""), w.replace(/ies$/, "y"), w.replace(/es$/, ""), w.replace(/s$/, ""), w.replace(/ed$/, ""), w.replace(/d$/, ""), w.replace(/ing$/, ""), w.replace(/ing$/, "e"), w.replace(/ly$/, "")];

/** Words that join two unread words into one phrase said back ("backed by YC", "with a female founder"). */
const JOINERS = new Set(["by", "with", "a", "an", "the", "of", "for", "to", "in", "on", "at", "from", "and", "or", "their", "our", "we", "have", "has", "had", "that", "who", "where"]);

/** Whether a word of the question is in none of the reader's rules (nor a number, a sector, an address). */
export function unknownWord(n: Normalised, i: number): boolean {
  known ??= vocabulary();
  const t = n.tokens[i];
  // Addresses, links and ids are read by their own rules (a domain is a company or a website to analyse).
  if (/[.@/:]/.test(t.f) || n.uuids.includes(t.f)) return false;
  const w = t.f.replace(/[^\p{L}\p{N}' -]/gu, "").trim();
  // (A calendar day, "2026-03-31", is the dates reader's.)
  if (!w || /^\d[\d.,]*(?:k|m|mm|bn|b|x|%)?$/.test(w) || /^\d{4}-\d{2}-\d{2}$/.test(w) || w.length < 2) return false;
  if (w.split(/[-' ]/).filter(Boolean).every((part) => stems(part).some((s) => known!.has(s)))) return false;
  return !sectorsIn(w).length;
}

/** The parts of the question the answer did not use, as written; empty when every word was read. */
export function unreadParts(n: Normalised, answer: string): string[] {
  const said = fold(answer);
  // Used by the answer: a name it repeats, a word of a record it quotes.
  const inAnswer = (w: string) => new RegExp(`(?<![\\p{L}\\p{N}])${w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "u").test(said);
  const unread = n.tokens.map((t, i) => unknownWord(n, i) && !inAnswer(t.f.replace(/[^\p{L}\p{N}' -]/gu, "").trim()));
  const parts: string[] = [];
  let i = 0;
  while (i < n.tokens.length) {
    if (!unread[i]) {
      i++;
      continue;
    }
    let from = i;
    let to = i;
    // Join the next unread word across at most two joining words.
    for (let j = i + 1; j < n.tokens.length && j <= to + 3; j++) {
      if (unread[j]) to = j;
      else if (!JOINERS.has(n.tokens[j].f)) break;
    }
    // A relation said before the unread words belongs to them ("led by", "backed by", "with a").
    while (from > 0 && from > i - 2 && JOINERS.has(n.tokens[from - 1].f) && !n.tokens[from - 1].end) from--;
    while (from < to && ["a", "an", "the", "and", "or", "their", "our", "we"].includes(n.tokens[from].f)) from++;
    // The verb of the relation ("backed by", "led by", "co-invest with") and the noun the unread word qualifies ("female CEO").
    if (["by", "with"].includes(n.tokens[from].f) && from > 0 && !STOP.has(n.tokens[from - 1].f) && !n.tokens[from - 1].end) from--;
    if (to + 1 < n.tokens.length && !n.tokens[to].end && !STOP.has(n.tokens[to + 1].f) && !JOINERS.has(n.tokens[to + 1].f) && !inAnswer(n.tokens[to + 1].f)) to++;
    parts.push(n.tokens.slice(from, to + 1).map((t) => t.raw).join(" "));
    i = to + 1;
  }
  return parts;
}

/** The sentence said before an answer that left parts of its question unread. */
export function saidBack(parts: string[]): string {
  const quoted = parts.map((p) => `"${p}"`).join(", ");
  return `I can't use ${quoted} of your question: ${parts.length === 1 ? "it is" : "they are"} not in your records, or not something I can read, so the answer below does not take ${parts.length === 1 ? "it" : "them"} into account.`;
}
