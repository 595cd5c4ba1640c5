// Reading a partner's question as text: normalising it (quotes and apostrophes, contractions,
// possessives, URLs read as their domains, misspelt words of the firm's vocabulary), and the runs
// of words that may name something.
import { europeanAmounts, negatedBounds, typedForm } from "./ask-typed.ts";
import { DOMAIN_IN_TEXT, websiteHost } from "../../lib/hosts.ts";
import { fold } from "../../lib/prose.ts";

export { fold };

export const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
export const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"')]+/i;
export const DOMAIN = DOMAIN_IN_TEXT;
export const LINKEDIN_URL = /^https?:\/\/(?:[\w-]+\.)?linkedin\.com\/(?:in|pub)\/[^\s?#]+/i;
export const GITHUB_URL = /^https?:\/\/(?:www\.)?github\.com\/[^\s?#/]+\/?$/i;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

/** Words that never name anything by themselves: function words, pronouns, fillers. */
export const STOP = new Set(
  `a an the of for to in on at by with from into onto about over under through via per and or but nor is are was were be been being am
   do does did done doing have has had having not no yes what who whom whose which when where why how whats can could would should will
   shall may might must i me my mine myself we us our ours you your yours he him his she her hers they them their theirs it its this that
   these those there here any anyone anybody anything some someone somebody something all every each both either other another
   please pls kindly tell show give get got let like just now then so also ok okay hi hey hello thanks thank much many more most very
   really still yet ever out up down last latest newest new current currently right well good far bit quick quickly again too
   dealgraph firm team here s t across between among amongst within inside outside beyond since until till during after before
   against toward towards behind besides except versus vs hold holds held own owns owned looking doing going shaping saw see seen sees whole entire recorded entries entry calendar provide display retrieve`
    .split(/\s+/)
    .filter(Boolean),
);

/** One word of the question as written (`raw`, edge punctuation off) and folded (`f`). */
export type Token = {
  raw: string;
  f: string;
  /** A clause ends after it (",", "?", ...). */
  end: boolean;
  /** Where its word starts in the question as asked (a contraction's two tokens share it). */
  at: number;
};

export type Normalised = {
  raw: string;
  tokens: Token[];
  /** Every token folded, contractions expanded, possessives dropped, URLs as domains: "what is bolt payments arr". */
  folded: string;
  urls: string[];
  /** Hosts of the URLs (not profile links) and bare domains, lower case, without www. */
  domains: string[];
  emails: string[];
  linkedin: string | null;
  github: string | null;
  uuids: string[];
};

const CONTRACTIONS: [RegExp, string][] = [
  [/\b(what|who|how|where|when|that|there|here|it|he|she)'s\b/gi, "$1 is"],
  [/\blet's\b/gi, "let us"],
  [/\bcan't\b/gi, "can not"],
  [/\bwon't\b/gi, "will not"],
  [/\b(\w+)n't\b/gi, "$1 not"],
  // The same written without the apostrophe, as people type ("havent", "isnt", "dont").
  [/\b(have|has|had|is|are|was|were|do|does|did|could|should|would)nt\b/gi, "$1 not"],
  [/\bcant\b/gi, "can not"],
  [/\bwont\b/gi, "will not"],
  [/\b(\w+)'re\b/gi, "$1 are"],
  [/\b(\w+)'ve\b/gi, "$1 have"],
  [/\b(\w+)'ll\b/gi, "$1 will"],
  [/\b(i)'m\b/gi, "$1 am"],
  [/\b(i|we|you|they)'d\b/gi, "$1 would"],
  // Possessives: "Acme's runway", "Bolt Payments' ARR" (an apostrophe is never a quote here).
  [/(\p{L}|\p{N})'s\b/gu, "$1"],
  [/(\p{L})s'(?=$|[?!.,;:)])/gu, "$1s"],
];

/**
 * The host of a website or URL ("https://www.acme.com/", "acme.com"), normalized as a deal
 * submission's same-target key is (lower case, no www., no trailing dot); null when it is none.
 */
export const hostOf = websiteHost;

function foldToken(chunk: string): string {
  return fold(chunk)
    .split(" ")
    .map((w) => w.replace(/^[.@]+|[.@]+$/g, ""))
    .filter(Boolean)
    .join(" ");
}

/**
 * The question made comparable: see `Normalised`. Each whitespace-separated word is read on its own,
 * so every token knows where it was asked; `correct` respells a folded word (a misspelling of the
 * firm's vocabulary) in `f`, never in `raw`.
 */
/** Words of time as people shorten them ("end of last qtr", "past yr", "the sept statement"): read as the word. */
const SHORT_FORMS: Record<string, string> = { qtr: "quarter", qtrs: "quarters", yr: "year", yrs: "years", wk: "week", wks: "weeks", mths: "months", mth: "month", sept: "september" };

const UNIT_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9 };
const TEEN_WORDS: Record<string, number> = { ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19 };
const UNIT = "one|two|three|four|five|six|seven|eight|nine";
/** Acronyms a dictated question spells out letter by letter ("a r r", "t v p i"). */
const SPELT = new Set(["arr", "mrr", "tvpi", "dpi", "rvpi", "irr", "moic", "nav", "ebitda", "cac", "ltv", "nps", "kpi", "kpis", "lp", "lps", "gp", "yoy", "qoq", "ytd", "ttm", "ic", "dd", "usd", "eur", "gbp"]);

const SMALL_WORDS: Record<string, number> = { zero: 0, ...UNIT_WORDS, ...TEEN_WORDS };
const TENS_WORDS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const NUMBER_WORD = String.raw`(?:${[...Object.keys(SMALL_WORDS), ...Object.keys(TENS_WORDS), "hundred"].join("|")})`;
const SCALE: Record<string, string> = { k: "k", thousand: "k", grand: "k", m: "m", mm: "m", mil: "m", million: "m", bn: "bn", billion: "bn" };
/** "Three hundred", "forty five", "a hundred and twenty": the number the words say (below a thousand). */
export function wordsValue(words: string[]): number | null {
  let value = 0;
  for (const w of words) {
    if (w === "and") continue;
    if (w === "a") value = value || 1;
    else if (w === "hundred") value = (value || 1) * 100;
    else if (w in SMALL_WORDS) value += SMALL_WORDS[w];
    else if (w in TENS_WORDS) value += TENS_WORDS[w];
    else return null;
  }
  return value;
}
/** Amounts said in words ("three hundred k", "two million", "one point five million", "two and a half million", "a hundred and twenty people") as digits. */
function spokenAmounts(text: string): string {
  const phrase = new RegExp(String.raw`\b((?:a |an )?${NUMBER_WORD}(?:[ -](?:and )?${NUMBER_WORD})*)(?: point (${Object.keys(UNIT_WORDS).join("|")}|zero)| and a half)?(?: ?(k|thousand|grand|million|mil|mm|m|billion|bn))?\b`, "gi");
  return text.replace(phrase, (all, words: string, point: string | undefined, scale: string | undefined) => {
    const list = words.toLowerCase().split(/[ -]+/);
    if (!scale && !list.includes("hundred")) return all;
    const value = wordsValue(list.filter((w) => w !== "an"));
    if (value === null || value === 0) return all;
    const fraction = point ? `.${SMALL_WORDS[point.toLowerCase()]}` : / and a half/i.test(all) ? ".5" : "";
    return `${value}${fraction}${scale ? SCALE[scale.toLowerCase()] : ""}`;
  });
}

/**
 * A dictated question as typed: years said in words ("twenty twenty five", "two thousand and nineteen")
 * and amounts ("three hundred k", "two million") as digits, and acronyms spelt letter by letter ("a r r") as the word.
 */
export function spokenForm(text: string): string {
  return negatedBounds(spokenAmounts(spokenYears(europeanAmounts(typedForm(text)))));
}

function spokenYears(text: string): string {
  return text
    .replace(new RegExp(String.raw`\b(?:twenty|two thousand(?: and)?) twenty(?:[- ](${UNIT}))?\b`, "gi"), (_m, u?: string) => String(2020 + (u ? UNIT_WORDS[u.toLowerCase()] : 0)))
    .replace(new RegExp(String.raw`\btwo thousand(?: and)? (${UNIT}|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)\b`, "gi"), (_m, u: string) => String(2000 + (UNIT_WORDS[u.toLowerCase()] ?? TEEN_WORDS[u.toLowerCase()])))
    .replace(new RegExp(String.raw`\btwenty (ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)\b`, "gi"), (_m, u: string) => String(2000 + TEEN_WORDS[u.toLowerCase()]))
    .replace(/\b(?:[a-z] ){1,5}[a-z]\b/gi, (run) => (SPELT.has(run.replace(/ /g, "").toLowerCase()) ? run.replace(/ /g, "") : run));
}

export function normalise(question: string, correct: (word: string, written: string) => string = (w) => w): Normalised {
  const raw = spokenForm(question.trim());
  const out: Normalised = { raw, tokens: [], folded: "", urls: [], domains: [], emails: [], linkedin: null, github: null, uuids: [] };
  const addDomain = (d: string) => {
    const host = hostOf(d);
    if (host && !out.domains.includes(host)) out.domains.push(host);
  };
  for (const m of raw.matchAll(/\S+/g)) {
    let chunk = m[0].replace(/[‘’ʼ`´]/g, "'").replace(/[“”]/g, '"');
    const url = URL_IN_TEXT.exec(chunk)?.[0].replace(/[.,;:!?]+$/, "");
    if (url && URL.canParse(url)) {
      out.urls.push(url);
      const profile = LINKEDIN_URL.test(url) ? "linkedin" : GITHUB_URL.test(url) ? "github" : null;
      if (profile) out[profile] ??= url;
      else addDomain(url);
      chunk = chunk.replace(url, profile ? " " : (hostOf(url) ?? " "));
    } else {
      const email = EMAIL.exec(chunk)?.[0];
      if (email) out.emails.push(email.toLowerCase());
      else {
        const domain = DOMAIN.exec(chunk)?.[1];
        if (domain) addDomain(domain);
      }
    }
    for (const u of chunk.matchAll(UUID)) out.uuids.push(u[0].toLowerCase());
    for (const [re, to] of CONTRACTIONS) chunk = chunk.replace(re, to);
    // "10%" is ten percent, "< 10" below ten: the signs would be folded away.
    chunk = chunk.replace(/(\d)\s?%/g, "$1 percent").replace(/^<=$|^=<$/, "at most").replace(/^>=$|^=>$/, "at least").replace(/^<$/, "below").replace(/^>$/, "above").replace(/^[+&]$/, "and").replace(/^%$/, "percent");
    // "w/o", "w/": without, with (not the alternatives "w or o").
    chunk = chunk.replace(/^w\/o([,.?!]?)$/i, "without$1").replace(/^w\/([,.?!]?)$/i, "with$1");
    // "proptech/edtech", "seed/A": alternatives; "f2": Fund II as partners shorten it.
    chunk = chunk.replace(/^(\p{L}[\p{L}-]*)((?:\/\p{L}[\p{L}-]*)+)([,.?!]?)$/u, (_m, a: string, rest: string, p: string) => `${[a, ...rest.split("/").filter(Boolean)].join(" or ")}${p}`).replace(/^f([1-9])([,.?!]?)$/i, "fund $1$2");
    chunk = chunk.replace(/^<=(?=\d)/, "at most ").replace(/^>=(?=\d)/, "at least ").replace(/^<(?=\d)/, "below ").replace(/^>(?=\d)/, "above ");
    // "12+ months", "$2M+", "40+ people": at least that much.
    chunk = chunk.replace(/^([$€£]?\d[\d.,]*(?:k|m|mm|bn|x|%)?)\+([,.?!]?)$/i, "at least $1$2");
    for (const piece of chunk.split(/\s+/)) {
      // (A calendar day, "2026-03-31", stays one word: the dates reader reads it whole.)
      const day = /^[("']?(\d{4}-\d{2}-\d{2})[)"',.;:?!]*$/.exec(calendarDay(piece));
      const f = day ? day[1] : foldToken(piece)
        .split(" ")
        .map((w) => SHORT_FORMS[w] ?? w)
        .map((w) => (w ? correct(w, piece) : w))
        .join(" ");
      if (f) out.tokens.push({ raw: piece.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "") || piece, f, end: /[,;:?!.)"]$/.test(piece), at: m.index! });
    }
  }
  out.folded = out.tokens.map((t) => t.f).join(" ");
  return out;
}

/**
 * A calendar day written the way much of the world writes it, as the ISO day the dates reader reads:
 * "31.03.2026" (day first, always, with dots), "30/06/2026" (day first when it cannot be a month),
 * "06/30/2026" (month first when the second cannot be one). "03/04/2026" could be either: left as
 * written, so it is said back rather than read as the wrong day.
 */
export function calendarDay(piece: string): string {
  const m = /^([("']?)(\d{1,2})([./-])(\d{1,2})\3(\d{4})([)"',.;:?!]*)$/.exec(piece);
  if (!m) return piece;
  const [a, b, year] = [Number(m[2]), Number(m[4]), Number(m[5])];
  const dayFirst = m[3] === "." || a > 12 ? true : b > 12 ? false : a === b ? true : null;
  if (dayFirst === null) return piece;
  const [day, month] = dayFirst ? [a, b] : [b, a];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (month < 1 || month > 12 || date.getUTCDate() !== day) return piece;
  return `${m[1]}${date.toISOString().slice(0, 10)}${m[6]}`;
}

/** A run of consecutive tokens, as written and folded. */
export type Run = { from: number; to: number; raw: string; f: string };

const runOf = (tokens: Token[], from: number, to: number): Run => ({
  from,
  to,
  raw: tokens.slice(from, to).map((t) => t.raw).join(" "),
  f: tokens.slice(from, to).map((t) => t.f).join(" "),
});

/**
 * The runs of words that may name something: consecutive tokens none of which is in `skip`,
 * broken at clause punctuation; each run and its sub-runs (longest first), at most `maxWords` long.
 */
export function nameRuns(n: Normalised, skip: (word: string) => boolean, maxWords = 4): Run[] {
  const out: Run[] = [];
  const seen = new Set<string>();
  let start = -1;
  const flush = (end: number) => {
    if (start < 0) return;
    for (let len = Math.min(maxWords, end - start); len >= 1; len--) {
      for (let i = start; i + len <= end; i++) {
        const r = runOf(n.tokens, i, i + len);
        if (!seen.has(r.f)) (seen.add(r.f), out.push(r));
      }
    }
    start = -1;
  };
  n.tokens.forEach((t, i) => {
    if (skip(t.f) || t.f.includes("@")) return flush(i);
    if (start < 0) start = i;
    if (t.end) flush(i + 1);
  });
  flush(n.tokens.length);
  return out.sort((a, b) => b.to - b.from - (a.to - a.from) || a.from - b.from);
}

/** The run right after one of `words` (articles and possessive pronouns skipped): "someone at [the] Gates Foundation". */
export function runAfter(n: Normalised, words: string[], skip: (word: string) => boolean, maxWords = 4): Run | null {
  const t = n.tokens;
  for (let i = 0; i < t.length; i++) {
    if (!words.includes(t[i].f) || t[i].end) continue;
    let j = i + 1;
    while (j < t.length && ["the", "our", "my", "a", "an"].includes(t[j].f)) j++;
    let k = j;
    while (k < t.length && k - j < maxWords && !skip(t[k].f) && !t[k].f.includes("@")) {
      k++;
      if (t[k - 1].end) break;
    }
    if (k > j) return runOf(t, j, k);
  }
  return null;
}
