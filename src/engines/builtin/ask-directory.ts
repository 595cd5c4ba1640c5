// What a question names, found in the firm's own data rather than by where a word sits in the
// sentence: portfolio companies (name, brand word or website), deals (name or domain), the firm's
// own funds and LP funds (fuzzy: case, numerals, "Fund II" inside "Alpha Fund II"), people in the
// pooled network (email, LinkedIn, full name or a first name), analysed founders and research runs
// (by id). Each lookup runs once per question and only when asked for; the names come from the
// module (AskNames), never from its tables.
import type { AskNames, DealName, HoldingName } from "../ask-engine.ts";
import { canon, nameForPhrase, namesInQuestion, type NameMatch } from "../../lib/name-match.ts";
import { CUE_WORDS } from "./ask-intents.ts";
import { FIELD_CUES, LEXICON_WORDS } from "./ask-lexicon.ts";
import { hostOf, nameRuns, runAfter, STOP, type Normalised, type Run } from "./ask-text.ts";

export type Person = { identifier: string; name: string };
export type PersonFind = { kind: "one"; person: Person } | { kind: "several"; first: string; names: string[] } | { kind: "none" };
/** `whole`: the question says each matched name in full ("compare Alpha Fund I and Gamma Seed III"). */
export type FundFind = { match: NameMatch; phrase: string | null; names: string[]; whole: boolean };
export type Founder = { id: string; name: string };

const ORDINAL: Record<string, string> = { first: "I", "1st": "I", second: "II", "2nd": "II", third: "III", "3rd": "III", fourth: "IV", "4th": "IV", fifth: "V", "5th": "V" };
const isRoman = (w: string) => /^(?:x{0,2}(?:i{1,3}|iv|v|vi{1,3}|ix)|x{1,2}v?|\d{1,2}|one|two|three|four|five)$/.test(w);
/** A fund's number said as a word ("fund one") written as funds are named. */
const WORD_NUMERAL: Record<string, string> = { one: "I", two: "II", three: "III", four: "IV", five: "V" };
/** A word of the reader's own, or a written word that names a figure ("pre-money"): never a name. */
/** Words that quantify a set ("everything Fund I held"), never a word of a fund's or company's name. */
const QUANTIFIERS = new Set(["everything", "anything", "all", "every", "each", "ever", "whole", "entire", "overall", "both", "either"]);
const notAName = (w: string): boolean => STOP.has(w) || QUANTIFIERS.has(w) || CUE_WORDS.has(w) || (/[- ]/.test(w) && FIELD_CUES.some((c) => c.re.test(w)));
/** Words that say which records or a negation, never part of a fund's name before "Fund II". */
const FILTER_WORDS = new Set([...LEXICON_WORDS, "not", "non", "outside", "excluding", "except", "besides", "other", "than", "apart", "aside", "without", "minus", "ignoring", "sans"]);

/** Two and three neighbouring words written as one: "mosaic treasury" -> "mosaictreasury". */
function joinedPairs(text: string): string {
  const w = text.split(" ");
  const out: string[] = [];
  for (let i = 0; i + 1 < w.length; i++) {
    out.push(w[i] + w[i + 1]);
    if (i + 2 < w.length) out.push(w[i] + w[i + 1] + w[i + 2]);
  }
  return out.join(" ");
}

const CALENDAR_WORD = /^(?:january|february|march|april|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/i;

function once<T>(compute: () => T): () => T {
  let done = false;
  let value: T;
  return () => (done ? value! : ((done = true), (value = compute())));
}

export function directory(names: AskNames, n: Normalised) {
  const plain = n.tokens.filter((t) => !/[.@]/.test(t.f));
  const questionCanon = canon(plain.map((t) => t.f).join(" "));
  const words = questionCanon.split(" ").filter((w) => w && !notAName(w));

  const holdings = once((): NameMatch => {
    const list = names.holdings();
    const byDomain = list.filter((h) => { const host = hostOf(h.website); return host && n.domains.includes(host); }).map((h) => h.name);
    if (byDomain.length === 1) return { kind: "one", name: byDomain[0], partial: false };
    const found = namesInQuestion(list.map((h) => h.name), questionCanon, words);
    return found.kind === "several" ? heldOfSeveral(list, found.names) ?? found : found;
  });

  /** A short name shared by one company held today and others exited or written off ("drift") is the one held: the answer says so. */
  const heldOfSeveral = (list: HoldingName[], several: string[]): NameMatch | null => {
    if (several.some((name) => ` ${questionCanon} `.includes(` ${canon(name)} `))) return null;
    const held = list.filter((h) => several.includes(h.name) && h.active);
    return held.length === 1 ? { kind: "one", name: held[0].name, partial: true } : null;
  };

  const deal = once((): DealName | null => {
    for (const id of n.uuids) {
      const d = names.dealById(id);
      if (d) return d;
    }
    for (const domain of n.domains) {
      const found = names.dealByDomain(domain);
      if (found) return found;
    }
    // Every deal name the question says in full, the longest one winning ("Acme Robotics" over "Acme");
    // a name made only of stop words or short words ("The", "AI") is not taken from a question's grammar.
    let best: (DealName & { key: string }) | null = null;
    // A one-word name said as words ("mosaic treasury" for MosaicTreasury) is said too.
    const spaced = ` ${questionCanon} ${joinedPairs(questionCanon)} `;
    const naming = [...new Set([...words.filter((w) => w.length >= 3), ...joinedPairs(words.join(" ")).split(" ")])];
    if (naming.length === 0) return null;
    for (const d of names.deals()) {
      const key = canon(d.name);
      if (!key || !spaced.includes(` ${key} `) || !naming.some((w) => key.includes(w))) continue;
      if (!best || key.length > best.key.length) best = { ...d, key };
    }
    return best && { id: best.id, name: best.name, domain: best.domain };
  });

  /** Words fund managers name their funds with, kept in a fund's name even where they are cue words. */
const FUND_NAME_WORDS = /^(?:capital|ventures?|partners|growth|seed|equity|investments|opportunit(?:y|ies)|global|frontier)$/;

/** "Fund II", "alpha fund 1": a fund word and a numeral, with the naming words before them, as written. */
  const fundPhrase = once((): string | null => {
    const t = n.tokens;
    for (let k = 0; k + 1 < t.length; k++) {
      if (!/^funds?$/.test(t[k].f) || !isRoman(t[k + 1].f)) continue;
      let start = k;
      // A word a fund's name is made of ("Vantablack Capital Fund II") stays in it, though it is also a cue word elsewhere ("capital calls").
      const naming = (x: (typeof t)[number]) => (!notAName(x.f) && !FILTER_WORDS.has(x.f)) || (FUND_NAME_WORDS.test(x.f) && !STOP.has(x.f));
      while (start > 0 && naming(t[start - 1]) && !t[start - 1].end && !/[.@]/.test(t[start - 1].f)) start--;
      return [...t.slice(start, k + 1).map((x) => x.raw), WORD_NUMERAL[t[k + 1].f] ?? t[k + 1].raw].join(" ");
    }
    // "our third fund": the firm's own funds are numbered.
    const nth = /\b(first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th) fund\b/.exec(n.folded);
    return nth ? `Fund ${ORDINAL[nth[1]]}` : null;
  });

  /** A fund named among `list` (the LP funds, or the firm's own). */
  const fundsAmong = (list: string[]): FundFind => {
    const phrase = fundPhrase();
    const whole = namesInQuestion(list, questionCanon, []);
    if (whole.kind !== "none") return { match: whole, phrase, names: list, whole: true };
    if (phrase) return { match: nameForPhrase(list, phrase), phrase, names: list, whole: false };
    return { match: namesInQuestion(list, questionCanon, words), phrase, names: list, whole: false };
  };
  const funds = once(() => fundsAmong(names.lpFunds()));
  const ownFunds = once(() => fundsAmong(names.ownFunds()));

  /** Words of the names already found, so "Acme Robotics" is not also tried as a person. */
  const taken = once(() => {
    const out = new Set<string>();
    const add = (name: string | undefined) => name && canon(name).split(" ").forEach((w) => out.add(w));
    const h = holdings();
    if (h.kind === "one") add(h.name);
    add(deal()?.name);
    const f = funds().match;
    if (f.kind === "one") add(f.name);
    return out;
  });

  // (A lower-case word that names a figure on its own, "invest", "worth", is no name either; a capitalised one may be.)
  // (A month or a weekday, "October 2026", is a date however it is written, never a record's name.)
  const skipForNames = (w: string) => notAName(w) || taken().has(canon(w)) || /[.@]/.test(w) || CALENDAR_WORD.test(w) || (/^\p{Ll}/u.test(w) && FIELD_CUES.some((c) => c.re.test(w)));
  const nameLike = (r: Run) => r.raw.split(" ").every((w) => /^\p{L}[\p{L}'’-]*$/u.test(w));

  const person = once((): PersonFind => {
    if (n.emails[0]) return { kind: "one", person: { identifier: n.emails[0], name: n.emails[0] } };
    if (n.linkedin) return { kind: "one", person: { identifier: n.linkedin, name: n.linkedin } };
    const runs = nameRuns(n, skipForNames).filter(nameLike);
    const full = runs.filter((r) => r.to - r.from >= 2).slice(0, 12);
    const hit = names.personNamed(full.map((r) => r.raw));
    if (hit) return { kind: "one", person: hit };
    // A first name: the pooled people whose name starts with it ("Dana" -> Dana Scully).
    for (const r of runs.filter((r) => r.to - r.from === 1 && r.f.length >= 2).slice(0, 6)) {
      const distinct = names.personsByFirstName(r.f);
      if (distinct.length === 1) return { kind: "one", person: { identifier: distinct[0], name: distinct[0] } };
      if (distinct.length > 1) return { kind: "several", first: r.raw, names: distinct };
    }
    return { kind: "none" };
  });

  /** A finished founder analysis of a person the question names, or the newest one of that name. */
  const founder = once((): { kind: "one"; founder: Founder } | { kind: "several"; names: string[] } | { kind: "none" } => {
    for (const id of n.uuids) {
      const a = names.founderById(id);
      if (a) return { kind: "one", founder: a };
    }
    for (const r of nameRuns(n, skipForNames).filter((r) => nameLike(r) && r.to - r.from >= 2).slice(0, 8)) {
      const found = names.foundersNamed(r.f);
      const distinct = [...new Set(found.map((a) => a.name))];
      if (distinct.length === 1) return { kind: "one", founder: found[0] };
      if (distinct.length > 1) return { kind: "several", names: distinct };
    }
    return { kind: "none" };
  });

  const research = once(() => {
    for (const id of n.uuids) {
      const r = names.researchById(id);
      if (r) return r;
    }
    return null;
  });

  /** The words after "at/in/from..." (a company) or "to/with" when they name no person: "someone at Gates Foundation". */
  const companyPhrase = once((): string | null => runAfter(n, ["at", "in", "inside", "from", "into"], skipForNames, 4)?.raw ?? null);
  const targetPhrase = once((): string | null => runAfter(n, ["to", "with"], skipForNames, 4)?.raw ?? null);
  /** The longest run of words that may be a name nothing else matched: what "not found" answers quote. */
  const anyName = once((): string | null => nameRuns(n, skipForNames)[0]?.raw ?? null);
  /** A name the question writes as one (capitalised), whatever the records hold: "Stripe" in "our stake in Stripe". */
  const properName = once((): string | null => nameRuns(n, skipForNames).find((r) => /^\p{Lu}/u.test(r.raw))?.raw ?? null);

  /** Every portfolio company and every deal the question says in full, in the order said ("compare Acme Care and Lumen Exchange"). */
  const said = (list: string[], held?: Set<string>) => {
    const m = namesInQuestion(list, questionCanon, []);
    const found = m.kind === "one" ? [m.name] : m.kind === "several" ? m.names : [];
    // In a list, a name may be said by its first word alone ("helio, kestrel and juniper") when no other name starts with it.
    const at = (name: string) => {
      const whole = ` ${questionCanon} `.indexOf(` ${canon(name)} `);
      return whole >= 0 ? whole : ` ${questionCanon} `.indexOf(` ${canon(name).split(" ")[0]} `);
    };
    if (/\b(?:and|or|vs|versus)\b|,/.test(questionCanon + n.raw)) {
      for (const w of words.filter((x) => x.length >= 4 && !notAName(x))) {
        const all = list.filter((name) => canon(name).split(" ")[0] === w);
        // (Of a first word shared by one company held today and others exited, the one held.)
        const starting = all.length > 1 && held ? all.filter((name) => held.has(name)) : all;
        if (starting.length === 1 && canon(starting[0]).includes(" ") && !found.includes(starting[0])) found.push(starting[0]);
      }
    }
    return found.sort((a, b) => at(a) - at(b));
  };
  const holdingsSaid = once(() => said([...new Set(names.holdings().map((h) => h.name))], new Set(names.holdings().filter((h) => h.active).map((h) => h.name))));
  const dealsSaid = once(() => said([...new Set(names.deals().map((x) => x.name))]).filter((x) => canon(x).length >= 4));

  return { holdings, deal, funds, ownFunds, fundPhrase, person, founder, research, companyPhrase, targetPhrase, anyName, properName, words, questionCanon, names, holdingsSaid, dealsSaid };
}

export type Directory = ReturnType<typeof directory>;
