// Matching what a question says against names the firm's own data holds (portfolio companies,
// LP funds): case, accents, punctuation and roman/arabic numerals do not matter; a whole name
// wins; else a phrase that is part of exactly one name ("Fund II" -> "Alpha Fund II"); else the
// name whose brand word is said, sharing the most distinctive words ("beta growth" -> "Beta Growth II"). Several equally
// good names are reported as such, for the caller to ask which one.
import { fold } from "./prose.ts";

export type NameMatch = { kind: "one"; name: string; partial: boolean } | { kind: "several"; names: string[] } | { kind: "none" };

const ROMAN: Record<string, string> = { i: "1", ii: "2", iii: "3", iv: "4", v: "5", vi: "6", vii: "7", viii: "8", ix: "9", x: "10" };
// Words after which "i" is the pronoun, not a numeral ("am i", "should i", "and i").
const BEFORE_PRONOUN = new Set(
  "am do does did can could should would will shall may might must have has had and or but so if when what who how where why which that then as than because since while until where whom whose is are was were not".split(" "),
);

/** Roman numerals after a naming word read as numbers: "alpha fund ii" -> "alpha fund 2" (but "am i" stays). */
export function numerals(folded: string): string {
  const words = folded.split(" ");
  return words.map((w, i) => (ROMAN[w] && i > 0 && !BEFORE_PRONOUN.has(words[i - 1]) ? ROMAN[w] : w)).join(" ");
}

/** Folded, dots as spaces, roman numerals after a word as numbers: "Alpha Fund II" -> "alpha fund 2". */
export const canon = (s: string) => numerals(fold(s).replace(/\./g, " ").replace(/\s+/g, " ").trim());

// Words too common in company and fund names to tell one from another.
const GENERIC = new Set(
  "fund funds capital partners partner ventures venture vc lp lps holdings holding group inc ltd llc gmbh co company the and of labs lab technologies tech systems".split(" "),
);

const contains = (hay: string, needle: string) => needle.length > 0 && ` ${hay} `.includes(` ${needle} `);
const distinctive = (w: string) => w.length >= 2 && !GENERIC.has(w) && !/^\d+$/.test(w);

function several(names: string[]): NameMatch {
  const unique = [...new Set(names)];
  return unique.length === 1 ? { kind: "one", name: unique[0], partial: false } : { kind: "several", names: unique };
}

/** Names whose whole (canonical) form the text contains; a name inside a longer matched one is dropped. */
function wholeNamesIn(names: string[], text: string): string[] {
  const hits = names.filter((n) => contains(text, canon(n)));
  return hits.filter((n) => !hits.some((m) => m !== n && canon(m).length > canon(n).length && contains(canon(m), canon(n))));
}

/** The names sharing the most distinctive words with `words` (at least one). */
function byWords(names: string[], words: string[]): string[] {
  const asked = new Set(words.filter(distinctive));
  if (asked.size === 0) return [];
  const numbers = new Set(words.filter((w) => /^\d+$/.test(w)));
  let best = 0;
  let winners: string[] = [];
  for (const name of names) {
    const ws = new Set(canon(name).split(" "));
    // The brand (first distinctive word) must be said: "acme" finds Acme Robotics, "robotics" alone does not.
    const brand = [...ws].find(distinctive);
    if (!brand || !asked.has(brand)) continue;
    const shared = [...ws].filter((w) => asked.has(w)).length;
    if (shared === 0) continue;
    const score = shared * 10 + [...ws].filter((w) => numbers.has(w)).length;
    if (score > best) (best = score), (winners = [name]);
    else if (score === best) winners.push(name);
  }
  return winners;
}

/**
 * Whether the text numbers what the name numbers differently: "Halcyon Fund VI" is not Halcyon
 * Fund V (a later fund of the same manager, which the records do not hold), whatever else they share.
 */
function numeralClash(name: string, text: string): boolean {
  const ws = canon(name).split(" ");
  const t = ` ${text} `;
  return ws.some((w, i) => i > 0 && /^\d+$/.test(w) && [...t.matchAll(new RegExp(` ${ws[i - 1]} (\\d+) `, "g"))].some((m) => m[1] !== w));
}

/** What a question mentions among `names`; `words` are its significant words (canonical). */
export function namesInQuestion(names: string[], questionCanon: string, words: string[]): NameMatch {
  const whole = wholeNamesIn(names, questionCanon);
  if (whole.length) return several(whole);
  const partial = byWords(names, words).filter((n) => !numeralClash(n, questionCanon));
  if (partial.length === 1) return { kind: "one", name: partial[0], partial: true };
  return partial.length ? { kind: "several", names: partial } : { kind: "none" };
}

/** The name a short phrase stands for ("fund ii", "Beta Growth", "alpha fund 1"). */
export function nameForPhrase(names: string[], phrase: string): NameMatch {
  const p = canon(phrase);
  if (!p) return { kind: "none" };
  const equal = names.filter((n) => canon(n) === p);
  if (equal.length) return several(equal);
  const within = names.filter((n) => contains(canon(n), p));
  if (within.length === 1) return { kind: "one", name: within[0], partial: true };
  if (within.length > 1) return { kind: "several", names: within };
  const whole = wholeNamesIn(names, p);
  if (whole.length) return several(whole);
  const partial = byWords(names, p.split(" ")).filter((n) => !numeralClash(n, p));
  if (partial.length === 1) return { kind: "one", name: partial[0], partial: true };
  return partial.length ? { kind: "several", names: partial } : { kind: "none" };
}
