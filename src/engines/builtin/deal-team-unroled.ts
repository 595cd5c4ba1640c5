// A deck that sets no one of its people beside a role may still show them: signed as a run of
// names, as a column of names on the cover or the closing page, or as photos captioned with names
// alone. Read only when the layout of cards and roles (deal-team.ts) found no one.
import { givenNameAlone, givenNameInColumn, invertedNameAlone, nameAlone } from "./deal-people.ts";
import { captionOf, NOT_TEAM_LABEL, OTHERS_LISTED, roleFirst, type Found, type TeamOptions } from "./deal-team-lines.ts";
import type { Unit } from "./deal-text.ts";

/** What the layout reader knows of the deck: its lines, which of them are no one's, where each starts, each page's lines and title's topic. */
export type DeckLayout = {
  units: Unit[];
  excluded: (u: Unit) => boolean;
  starts: number[];
  byPage: Map<number, Unit[]>;
  pageTopic: Map<number, string | null>;
  indexOf: Map<Unit, number>;
  opts: TeamOptions;
};

/** The deck's people named without a role (their title null), or none. */
export function namesWithoutRoles({ units, excluded, starts, byPage, pageTopic, indexOf, opts }: DeckLayout): Found[] {
  const found: Found[] = [];
  // A deck that sets no one beside a role may still sign with its people: a line that is nothing but
  // three or more names ("<Name>, <Name>, <Name> and <Name>."), under no outsider's title or label.
  // The names may be set apart by bars or dots ("<Name> | <Name> | <Name>") and wrap onto the next
  // line, a name broken across the two ("... | Kenneth" / "Goh | ...").
  if (found.length === 0) {
    for (let i = 0; i < units.length; i++) {
      for (let n = 1; n <= 3; n++) {
        const lines = units.slice(i, i + n);
        if (lines.length < n || lines.some((u) => u.pageIndex !== units[i].pageIndex || excluded(u) || NOT_TEAM_LABEL.test(u.text))) break;
        const text = lines.map((u) => u.text.trim()).join(" ");
        const names = text.replace(/[.!]$/, "").split(/\s*[,|·•]\s*(?:and\s+)?|\s+(?:and|&)\s+/).map((part) => nameAlone(part));
        if (names.length >= 3 && names.every(Boolean)) {
          names.forEach((name, k) => found.push({ name: name!, title: null, at: starts[i] + k, pageIndex: units[i].pageIndex, source: { quote: text, unit: units[i] } }));
          i += n - 1;
          break;
        }
      }
    }
  }
  // Or a column of three or more names, each alone on its line with nothing between them, on the
  // cover or the closing page (where a deck signs with its authors), under no outsider's title or
  // label: mid-deck such a column is a diagram's or a screen's labels ("Risk Assessment").
  // The column's lines are all of one shape: whole names, names written family name first ("Chan,
  // Yao Ying"), or given names alone ("Kacper" / "Naima" / "Ferran": a team that signs by first
  // names). A single word is a name there only in a column of three or more, most of them of no
  // other word's shape (a month's name or a word in -ing may ride along: "JUNE", "YILING").
  if (found.length === 0) {
    const lastPage = Math.max(-1, ...units.map((u) => u.pageIndex));
    const shapes: ((text: string) => string | null)[] = [nameAlone, invertedNameAlone, givenNameInColumn];
    const usedElsewhere = (u: Unit) => {
      const word = new RegExp(`(?<![\\p{L}])${u.text.trim()}(?![\\p{L}])`, "iu");
      // (A running footer or header counts, and a web or mail address: the brand is often there alone.)
      return units.some((o) => o !== u && (o.pageIndex !== u.pageIndex || o.running || o.boilerplate) && word.test(o.text));
    };
    for (let i = 0; i < units.length; i++) {
      if (units[i].pageIndex !== 0 && units[i].pageIndex !== lastPage) continue;
      const open = (j: number) => j < units.length && units[j].pageIndex === units[i].pageIndex && !excluded(units[j]) && !NOT_TEAM_LABEL.test(units[j].text);
      let k = 0;
      for (const shape of shapes) {
        // Given names alone stand where nothing else is told (a cover, a closing page), never under
        // another slide's title (customers' or partners' logos), and the deck does not use them as words elsewhere.
        const fits = (j: number) => shape !== givenNameInColumn || ((units[j].context === null || units[j].context === "team" || units[j].context === "contact") && !usedElsewhere(units[j]));
        // A one-pager's page is every slide at once; a column that goes on from single words before it
        // ("Meridian" / "Health" / "Sunfield" / "Grocers") is a list of something else broken over lines
        // (the deck's own name over the column, which it repeats elsewhere, is no such word).
        if (shape === givenNameInColumn && (lastPage < 2 || units.some((o) => o.pageIndex === units[i].pageIndex && o.order < units[i].order && o.text.split(/\s+/).length <= 4 && OTHERS_LISTED.test(o.text)) || (i > 0 && units[i - 1].pageIndex === units[i].pageIndex && !units[i - 1].boilerplate && /^[\p{L}'’-]+$/u.test(units[i - 1].text.trim()) && !usedElsewhere(units[i - 1])))) continue;
        while (open(i + k) && shape(units[i + k].text) && fits(i + k)) k++;
        const words = Array.from({ length: k }, (_, n) => units[i + n].text.trim());
        if (shape === givenNameInColumn && words.filter((w) => givenNameAlone(w)).length < Math.max(2, Math.ceil(k / 2))) k = 0;
        if (k >= 3) {
          for (let n = 0; n < k; n++) found.push({ name: shape(units[i + n].text)!, title: null, at: starts[i + n], pageIndex: units[i].pageIndex, source: { quote: units[i + n].text, unit: units[i + n] } });
          break;
        }
        k = 0;
      }
      i += Math.max(0, k - 1);
    }
  }
  // Or a page under no title that is mostly whole names, each alone on its line (photos captioned
  // with their names), three or more, no sentence on it: a deck that shows its people so and
  // names no one else's role anywhere. (Words of a diagram are seldom all names' shapes.)
  if (found.length === 0) {
    for (const [page, list] of byPage) {
      if (pageTopic.has(page) || list.some((u) => u.context !== null || excluded(u) || NOT_TEAM_LABEL.test(u.text) || OTHERS_LISTED.test(u.text))) continue;
      const worded = list.filter((u) => /\p{L}{2}/u.test(u.text));
      const named = worded.filter((u) => nameAlone(u.text));
      if (named.length < 3 || named.length * 2 < worded.length || worded.some((u) => u.text.split(/\s+/).length >= 8)) continue;
      // Names over captions are cards, read (or left) by the rules for cards: not photos named alone.
      const captionUnder = (u: Unit) => {
        const next = list[list.indexOf(u) + 1];
        return !!next && !nameAlone(next.text) && /^\p{Lu}/u.test(next.text.trim()) && !!(roleFirst(next.text, opts) ?? captionOf(next.text));
      };
      if (named.filter(captionUnder).length * 2 >= named.length) continue;
      // People's names are not the deck's vocabulary: a label whose words the other pages use ("Risk Assessment") is a diagram's.
      const elsewhere = units.filter((o) => o.pageIndex !== page).map((o) => o.text.toLowerCase()).join(" ");
      if (named.some((u) => u.text.split(/\s+/).some((w) => w.length > 2 && new RegExp(`(?<![\\p{L}])${w.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}])`, "u").test(elsewhere)))) continue;
      for (const u of named) found.push({ name: nameAlone(u.text)!, title: null, at: starts[indexOf.get(u)!], pageIndex: page, source: { quote: u.text, unit: u } });
    }
  }
  return found;
}
