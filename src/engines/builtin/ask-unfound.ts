// A record the question names that the firm's records do not hold: "what did we put into
// brightloop robotics", "is helix robotics in our pipe?", "tvpi on meridian capital III". A word
// the reader knows nothing of, followed by a word records are named with (a sector's word, a word
// of a name the records hold, a company's or fund's usual suffix), is a name, written in lower
// case as often as not. Answering with the other robotics companies would look like an answer;
// the honest one is that this name is in none of the records.
import { canon } from "../../lib/name-match.ts";
import { sectorsIn } from "../../lib/sectors.ts";
import type { Directory } from "./ask-directory.ts";
import { LEXICON_WORDS } from "./ask-lexicon.ts";
import type { Normalised } from "./ask-text.ts";
import { unknownWord } from "./ask-understood.ts";

/** Words companies and funds are named with, beyond their sector ("Meridian Capital", "Helix Labs"). */
const NAME_TAILS = /^(?:capital|ventures|partners|labs?|technologies|tech|systems|group|holdings|inc|ltd|gmbh|ag|sa|io|ai|bio|fund|growth|equity|investments|analytics|dynamics|works|studio|studios|solutions|networks|software|cloud|pay|money|health|energy)$/;
/** What may follow a fund's name: its number ("III", "2"). */
const FUND_NUMBER = /^(?:i{1,3}|iv|v|vi{0,3}|ix|x|\d{1,2})$/;
const READER_WORDS = new Set(LEXICON_WORDS);

/** The name of a record the records do not hold, as written; null when the question names none. */
export function unfoundRecord(n: Normalised, d: Directory): string | null {
  const held = d.holdings();
  if (held.kind === "several") return unheldOfSeveral(n, held.names);
  if (held.kind === "one" && held.partial) return unheldOfSeveral(n, [held.name]);
  if (held.kind !== "none" || d.deal() || d.funds().match.kind === "one" || d.ownFunds().match.kind === "one") return null;
  // ("Sequoia Capital Fund XV": a fund's name, which the fund readers say is none of the LP funds.)
  if (d.funds().phrase) return null;
  const names = [...d.names.holdings().map((h) => h.name), ...d.names.deals().map((x) => x.name), ...d.names.lpFunds(), ...d.names.ownFunds()].map((name) => canon(name).split(" "));
  const recordWords = new Set(names.flatMap((w) => w.slice(1)));
  // (A word of a name the records hold is that record said in part, not another one.)
  // (Nor is a word of a sector or a city the records hold: "vertical saas", "new york".)
  const heldWords = new Set([...names.flatMap((w) => [w[0], w.join("")]), ...[...d.names.sectors(), ...d.names.cities()].flatMap((s) => canon(s).split(" "))]);
  const tail = (w: string) => NAME_TAILS.test(w) || sectorsIn(w).length > 0 || (recordWords.has(w) && !READER_WORDS.has(w) && !FUND_NUMBER.test(w));
  for (let i = 0; i + 1 < n.tokens.length; i++) {
    if (n.tokens[i].end || !unknownWord(n, i) || n.tokens[i].f.length < 3 || heldWords.has(n.tokens[i].f)) continue;
    const next = n.tokens[i + 1];
    if (!tail(next.f)) continue;
    let to = i + 1;
    while (to + 1 < n.tokens.length && !n.tokens[to].end && (FUND_NUMBER.test(n.tokens[to + 1].f) || NAME_TAILS.test(n.tokens[to + 1].f))) to++;
    // (A name begins with the capitalised words before it that the records do not know: "Sequoia Heritage Fund".)
    let from = i;
    while (from > 0 && !n.tokens[from - 1].end && /^\p{Lu}/u.test(n.tokens[from - 1].raw) && unknownWord(n, from - 1) && !heldWords.has(n.tokens[from - 1].f)) from--;
    const words = n.tokens.slice(from, to + 1).map((t) => t.raw);
    return words.map((w) => (FUND_NUMBER.test(w.toLowerCase()) && !/^\d/.test(w) ? w.toUpperCase() : /^\p{Ll}/u.test(w) ? w[0].toUpperCase() + w.slice(1) : w)).join(" ");
  }
  return null;
}

/**
 * "Fathom Labs" where the records hold Fathom AI, Fathom Grid and Fathom Robotics: the first word
 * they share followed by a word a name ends with that none of them has is another company, not one
 * of theirs to choose from. Null when the words after the shared one are one of theirs, or no name's.
 */
function unheldOfSeveral(n: Normalised, names: string[]): string | null {
  const words = names.map((name) => canon(name).split(" "));
  const first = words[0][0];
  if (!words.every((w) => w[0] === first && w.length > 1)) return null;
  for (let i = 0; i + 1 < n.tokens.length; i++) {
    if (n.tokens[i].f !== first || n.tokens[i].end) continue;
    const next = n.tokens[i + 1];
    if (!NAME_TAILS.test(next.f) || words.some((w) => w[1] === next.f || w[1].startsWith(next.f))) continue;
    return [n.tokens[i].raw, next.raw].map((w) => (/^\p{Ll}/u.test(w) ? w[0].toUpperCase() + w.slice(1) : w)).join(" ");
  }
  return null;
}
