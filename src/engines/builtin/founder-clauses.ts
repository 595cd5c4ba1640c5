// Whose clause is it? A document sentence that names the founder often describes someone else in
// the same breath ("Jane Doe joined as an intern alongside the CEO John Roe, who founded two
// companies"). The built-in engine scores only the clauses whose subject is the founder; this file
// finds them. Deterministic and cautious: a clause whose subject is unclear is not the founder's.
//
// A sentence is cut into clauses at punctuation and at lead words (and, while, who, with, ...):
// - "alongside / with / together with / as well as / like / unlike / than" + a person: that person's
//   clause (the founder as a co-actor is not the one acting either); without a person ("with 12
//   years of experience") it goes on about the main subject.
// - "who / whom / whose", "(...)" and appositives (", a former CEO of X,") are about the person
//   named just before them.
// - A clause that begins with a person (a name, a role, a capitalised subject, I/we) has that
//   subject. "he / she / they" is the person named last in the sentence, or, opening a sentence,
//   the previous sentence's subject.
// - "and exited two companies", "which was sold": the clause before goes on. After a comma, the
//   main subject goes on. Coordinated subjects ("Jane Doe and John Roe co-founded X") share the verb.
// - The founder as the agent of a passive ("built by Jane Doe") makes that clause theirs.

type Who = "founder" | "other";
type Refs = { full: RegExp; start: RegExp; anywhere: RegExp; tail: RegExp };

const ROLE = String.raw`(?:co-?founder|founder|ceo|cto|coo|cfo|cpo|cmo|chief \w+ officer|chair(?:man|woman)?|president|partner|manager|boss|mentor|advis[eo]r|investor|colleague|director|head of \w+|vp|vice president|intern|engineer|executive|owner)`;
const LEADS = String.raw`alongside|together with|along with|as well as|unlike|like|than|with|whom|whose|who|which|where|while|whilst|whereas|although|though|but|and`;
const BOUNDARY = new RegExp(String.raw`\s*([;:,()]|\s[-–—]\s)\s*|\s+(?=(?:${LEADS})\b)`, "i");
const LEAD = new RegExp(String.raw`^(${LEADS})\b\s*`, "i");
const COMPANION = /^(?:alongside|together with|along with|as well as|unlike|like|than|with)$/;
const RELATIVE = /^(?:who|whom|whose)$/;
const FILLER = new Set(
  `the a an as then later previously also now currently formerly subsequently since in at during after before last this next
   year years summer winter spring fall autumn month months week recently both together once early late`.split(/\s+/),
);
const ROLE_START = new RegExp(String.raw`^(?:(?:the|a|an|her|his|their|our|its)\s+)?(?:former\s+|ex-)?${ROLE}\b\s*`, "i");
const ROLE_ANYWHERE = new RegExp(String.raw`\b(?:the|a|an|her|his|their|our)\s+(?:former\s+)?${ROLE}\b`, "gi");
const NAME_ANYWHERE = /\b[\p{Lu}][\p{L}'’-]+(?:\s+[\p{Lu}][\p{L}'’-]+)+/gu;
const CAPITALISED_START = /^(?:(?:the|a|an)\s+)?[\p{Lu}][\p{L}'’-]*(?:\s+[\p{Lu}][\p{L}'’-]*){0,3}/u;
const SENTENCES = /(?<=[.!?])\s+(?=[\p{Lu}0-9"“])/u;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function refsOf(name: string): Refs | null {
  const words = name.trim().split(/\s+/).filter((w) => w.length > 1).map(escape);
  if (!words.length) return null;
  const full = words.join(String.raw`\s+`);
  // A first or last name alone refers to them too, unless another capitalised word follows ("Jane Smith").
  const part = words.length > 1 ? `|(?:${words.join("|")})\\b(?!\\s+\\p{Lu})` : "";
  return {
    full: new RegExp(String.raw`^${full}\b`, "u"),
    start: new RegExp(String.raw`^(?:${full}\b${part})`, "u"),
    anywhere: new RegExp(String.raw`\b${full}\b`, "gu"),
    tail: new RegExp(String.raw`\b(?:${full}|${words.join("|")})(?:'s)?$`, "u"),
  };
}

type Clause = { lead: string; punct: string; body: string };

function clausesOf(sentence: string): Clause[] {
  const out: Clause[] = [];
  let punct = "";
  for (const piece of sentence.split(BOUNDARY)) {
    const p = piece?.trim();
    if (!p) continue;
    if (/^(?:[;:,()]|[-–—])$/.test(p)) {
      punct = p;
      continue;
    }
    const lead = LEAD.exec(p)?.[1].toLowerCase() ?? "";
    out.push({ lead, punct, body: p.replace(LEAD, "").replace(/[.!?]+$/, "").trim() });
    punct = "";
  }
  return out;
}

/** The subject a clause opens with (after fillers such as "previously", "in 2019"), and its length. */
function opening(body: string, refs: Refs, pronoun: Who | null): { who: Who | null; length: number } {
  let skipped = 0;
  let rest = body;
  for (let m = /^([\p{L}0-9'’-]+),?\s*/u.exec(rest); m && (FILLER.has(m[1].toLowerCase()) || /^\d+$/.test(m[1])) && !refs.start.test(rest); m = /^([\p{L}0-9'’-]+),?\s*/u.exec(rest)) {
    rest = rest.slice(m[0].length);
    skipped += m[0].length;
  }
  const at = (who: Who | null, length: number) => ({ who, length: skipped + length });
  const founder = refs.start.exec(rest);
  if (founder) return at("founder", founder[0].length);
  const role = ROLE_START.exec(rest);
  if (role) {
    const after = rest.slice(role[0].length);
    const named = refs.full.exec(after);
    if (named) return at("founder", role[0].length + named[0].length);
    return at("other", role[0].length + (/^(?:[\p{Lu}][\p{L}'’-]+\s*){1,3}/u.exec(after)?.[0].length ?? 0));
  }
  const word = /^\S+/.exec(rest)?.[0] ?? "";
  if (/^(?:i|we|you|us|our|my|your)$/i.test(word)) return at("other", word.length);
  if (/^(?:he|she|they|his|her|their)$/i.test(word)) return at(pronoun ?? "other", word.length);
  const cap = CAPITALISED_START.exec(rest);
  if (cap) return at("other", cap[0].length);
  return at(null, 0);
}

/** The person named last in a text ("...alongside the CEO John Roe" -> other). */
function lastNamed(text: string, refs: Refs): Who | null {
  let last = null as { at: number; who: Who } | null;
  const founderSpans = [...text.matchAll(refs.anywhere)].map((m) => [m.index!, m.index! + m[0].length]);
  const see = (at: number, who: Who) => (!last || at >= last.at ? (last = { at, who }) : null);
  for (const [at] of founderSpans) see(at, "founder");
  for (const m of text.matchAll(NAME_ANYWHERE)) {
    const end = m.index! + m[0].length;
    if (founderSpans.some(([s, e]) => m.index! < e && end > s)) continue; // the founder's own name
    see(m.index!, "other");
  }
  for (const m of text.matchAll(ROLE_ANYWHERE)) see(m.index!, "other");
  if (refs.tail.test(text.replace(/[\s,]+$/, ""))) see(text.length, "founder");
  return last?.who ?? null;
}

const agentIsFounder = (body: string, name: string) =>
  new RegExp(String.raw`\b(?:\w+ed|built|led|run|founded|written|grown|sold|made)\s+by\s+(?:the\s+)?${escape(name.trim()).replace(/\s+/g, String.raw`\s+`)}\b`).test(body);

/** The clauses of a passage (a sentence naming the founder, perhaps followed by more) whose subject is the founder. */
export function founderClauses(passage: string, name: string): string[] {
  const refs = refsOf(name);
  if (!refs) return [];
  const kept: string[] = [];
  let previousSentenceSubject: Who | null = null;
  for (const sentence of passage.replace(/\s+/g, " ").trim().split(SENTENCES)) {
    let subject: Who | null = null; // the main clause's subject
    let before = null as { who: Who | null; body: string; bare: boolean; appositive: boolean } | null;
    let sentenceSoFar = "";
    for (const clause of clausesOf(sentence)) {
      const pronoun = before ? lastNamed(sentenceSoFar, refs) : previousSentenceSubject;
      const open = opening(clause.body, refs, pronoun);
      const appositive = clause.punct === "(" || (clause.punct === "," && (/^(?:a|an|the|former|ex-)/i.test(clause.body) || new RegExp(`^${ROLE}\\b`, "i").test(clause.body)));
      let who: Who | null;
      let credit = clause.body;
      if (COMPANION.test(clause.lead)) {
        who = open.who ? "other" : subject;
      } else if (RELATIVE.test(clause.lead) || appositive) {
        who = before?.appositive ? before.who : before ? (lastNamed(before.body, refs) ?? before.who) : subject;
      } else if (open.who) {
        who = open.who;
        if (clause.lead === "and" && before?.bare && (before.who === "founder" || who === "founder")) {
          // "Jane Doe and John Roe co-founded X": the verb is shared; the other's name is not.
          who = "founder";
          credit = clause.body.slice(open.length);
        }
        subject = who;
      } else {
        // No subject of its own: "and ..." / "which ..." go on from the clause before, ", ..." from the main one.
        who = clause.lead ? (before?.who ?? subject) : subject;
      }
      if (who !== "founder" && agentIsFounder(clause.body, name)) who = "founder";
      if (who === "founder" && credit.trim()) kept.push(credit.trim());
      before = { who, body: clause.body, bare: open.who !== null && clause.body.slice(open.length).trim() === "", appositive };
      sentenceSoFar += ` ${clause.body}`;
    }
    previousSentenceSubject = subject;
  }
  return kept;
}
