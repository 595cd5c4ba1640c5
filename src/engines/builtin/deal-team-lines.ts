// One line or one card of a deck read for a person of the team: what a line says (a name with a
// role beside it, a caption under a name, a card's lines), and whether what it says makes them one
// of the company's own people or someone outside it (an advisor's or investor's label or role, a
// role held elsewhere, a quotation's signature, a slide that lists other people). How the lines are
// laid out on a page (cards, rows, grids, columns) is read in deal-team.ts.
import type { DealFacts } from "../deal-engine.ts";
import { END, givenNameAlone, nameAlone, NOT_TEAM_ROLE, ORGANISATION, PERSON, personName, ROLE, roleAtStart, uncapped } from "./deal-people.ts";
import type { Unit } from "./deal-text.ts";

type Member = DealFacts["team"][number];

const PATTERNS = [
  // "Jane Smith, CEO", "Jörg Müller – CEO & Co-founder", "Sam Lee: CTO", "Ann Moss COO", "Ann Moss | CTO | ex-SAP"
  new RegExp(`${PERSON}(?:\\s*(?:,|–|—|-|:|\\||·)\\s*|\\s+)(?<title>${ROLE})${END}`, "gu"),
  // "Maria Garcia (CEO)", "Dr. Ana Tech, PhD (CTO, ex-Google)"
  new RegExp(`${PERSON}\\s*\\((?<title>${ROLE})${END}[^)]*\\)`, "gu"),
  // "CEO: <Name>", "CTO <Name>", "Co-founder & CTO – Dr. <Name>"
  // (Not "Partner, <Org>": after a comma a role is followed by where it is held.)
  new RegExp(`(?<![\\p{L}])(?<title>${ROLE})\\s*(?:[:–—-]\\s*)?${PERSON}`, "gu"),
];

// Labels after which a unit lists people who are not the team.
export const NOT_TEAM_LABEL = /\b(?:advis[oe]rs?|advisory board|board(?: of directors| members?)?|investors?|angels?|mentors?|board observers?)\s*[:·|–—-]|\b(?:backed by|supported by|with the support of|in partnership with|thanks to)\b/i;
// A role somebody holds (or held) elsewhere: not a role in this company.
const ELSEWHERE_BEFORE = /\b(?:former(?:ly)?|ex-?|previously|past|prior|retired)\s*$/i;
const ELSEWHERE_AFTER = /^\s*(?:at|of|@|,)\s+(?<org>\p{Lu}[\p{L}&.'’-]*(?:\s+\p{Lu}[\p{L}&.'’-]*){0,3})/u;
// A quotation: a customer speaking. The unit after it is its signature, never a member of the team.
export const QUOTATION = /^\s*["“«„]|["”»]\s*$/;
export const DASHED = /^\s*[—–~-]\s*\p{Lu}/u;
// Slides that list other people: advisors, investors, customers, and a fund's portfolio founders and LPs.
export const OUTSIDERS = new Set(["advisors", "investors", "customers", "track_record", "lp_base", "portfolio_construction"]);
// "Nereo (<Name>, Founder & CEO)": a person in brackets after an organisation holds their role there.
const ORG_BEFORE_BRACKET = /(\p{Lu}[\p{L}&.'’-]*(?:\s+\p{Lu}[\p{L}&.'’-]*){0,3})\s*\(\s*$/u;
// A testimonial's signature: "“...” — <Name>, CFO, <their company>".
const SIGNATURE = /["”»]\s*[—–-]?\s*$|^\s*[—–-]\s*$/;

// A short line (a title, a label) over a list of other people's or organisations' names ("Our customers", "Trusted by", "Pilots with").
export const OTHERS_LISTED = /\b(?:customers?|clients?|partners?|pilots?|trusted|users|used by|working with|featured|press|sponsors?|advis[oe]rs?|investors?|backed|mentors?)\b/i;
const INVESTOR_TITLE = /^(?:General |Managing |Venture )?Partner$|^Principal$/;
export const INVESTING = /\b(invest(?:ed|or|ors|s)?|backed|led our|angels?)\b/i;
export const LINKEDIN = /(?:https?:\/\/)?(?:[a-z]{2,3}\.)?linkedin\.com\/in\/[\w%-]+\/?/gi;

export const CELL_SPLIT = /\s\|\s/;

/** Where the material names a member with their role: the words to quote, and the unit they are in. */
export type TeamSource = { quote: string; unit: Unit };
export type Found = { name: string; title: string | null; at: number; pageIndex: number; source: TeamSource };
export type TeamMember = Member & { source: TeamSource };

export type TeamOptions = {
  /** In a fund's deck partners are the team; in a company's a partner "who invested" is an investor. */
  fund: boolean;
  /** Whether an organisation named after a role ("CEO at X") is this company; any other is someone else's. */
  own?: (org: string) => boolean;
};

/** A role as written, or null when it is held elsewhere, or is an advisor's or an investor's. */
export function roleIn(text: string, title: string, titleAt: number, titleEnd: number, opts: TeamOptions): string | null {
  if (ELSEWHERE_BEFORE.test(text.slice(Math.max(0, titleAt - 12), titleAt))) return null;
  const after = ELSEWHERE_AFTER.exec(text.slice(titleEnd));
  if (after && !opts.own?.(after.groups!.org) && (!/^\s*,/.test(text.slice(titleEnd)) || ORGANISATION.test(after.groups!.org))) return null;
  return title.replace(/\s+/g, " ").replace(/[\s,&/+]+$/, "");
}

/**
 * Every person with a role in one unit's text (a unit of the team's own, not an advisor's or
 * investor's list). A name never runs across a line's end: "... sold a startup to Siemens" /
 * "Olga Moreau, CTO" is Olga Moreau.
 */
export function peopleIn(raw: string, breaks: number[], opts: TeamOptions): { name: string; title: string; at: number }[] {
  // A line set in capitals ("JANE DOE, CEO") is read in the case names and roles are written in (same length, same offsets).
  const text = uncapped(raw);
  const label = NOT_TEAM_LABEL.exec(text);
  const own = label ? text.slice(0, label.index) : text;
  const out: { name: string; title: string; at: number }[] = [];
  for (const re of PATTERNS) {
    for (const m of own.matchAll(re)) {
      const g = m.groups!;
      let nameAt = m.index! + m[0].indexOf(g.name);
      // A line that starts with a name starts a person; a name wrapped onto the next line is one name.
      const cut = breaks.filter((b) => b > nameAt && b < nameAt + g.name.length).pop();
      const after = cut === undefined ? null : personName(g.name.slice(cut + 1 - nameAt));
      if (after) nameAt = cut! + 1;
      let name = after ?? personName(g.name);
      // "… 16 years at Adyen Tomás Costa (CTO)": a list run together; the word after "at" is where they worked.
      if (name && !after && name.split(" ").length >= 3 && /\b(?:at|of|from|for|with|by|in|to|ex-)\s*$/i.test(own.slice(Math.max(0, nameAt - 8), nameAt))) {
        const rest = personName(name.split(" ").slice(1).join(" "));
        if (rest) (nameAt += name.indexOf(" ") + 1), (name = rest);
      }
      let titleFrom = m.index! + m[0].indexOf(g.title);
      // "<Given> <Family> Chief Architect", "<Given> <Family> Creative Designer": a name's last word
      // that opens a role with the words after it is the role's first word, not the name's.
      const raw3 = g.name.split(/\s+/);
      if (!after && raw3.length >= 3) {
        const last = raw3[raw3.length - 1];
        const longer = roleAtStart(`${last} ${own.slice(titleFrom)}`);
        const shorter = personName(raw3.slice(0, -1).join(" "));
        const lastAt = own.lastIndexOf(last, titleFrom);
        if (longer && longer.title.length > last.length + 1 && shorter && lastAt >= 0) {
          name = shorter;
          titleFrom = lastAt;
        }
      }
      if (!name) continue;
      if (SIGNATURE.test(own.slice(Math.max(0, nameAt - 4), nameAt))) continue;
      // A quotation's signature run on after it in the same line ("“...” <Org> Chief Executive Officer <Name>").
      if (QUOTATION.test(own) && /["”»]/.test(own.slice(1, Math.min(m.index!, nameAt)))) continue;
      const org = ORG_BEFORE_BRACKET.exec(own.slice(Math.max(0, nameAt - 40), nameAt));
      if (org && !opts.own?.(org[1]) && !/^(?:Team|Founders?|Leadership|CEO|CTO|COO|Our)$/i.test(org[1])) continue;
      const titleAt = titleFrom;
      const titleText = titleFrom === m.index! + m[0].indexOf(g.title) ? g.title : roleAtStart(own.slice(titleFrom))?.title ?? g.title;
      const title = roleIn(own, titleText, titleAt, titleAt + titleText.length, opts);
      if (!title) continue;
      if (!opts.fund && INVESTOR_TITLE.test(title) && INVESTING.test(own)) continue;
      out.push({ name, title, at: nameAt });
    }
  }
  return out;
}

/**
 * Whether the material names a person only as someone outside the team: under an advisors' or
 * investors' heading or label, in a testimonial's signature, or with a role held elsewhere.
 */
export function namedOnlyAsOutsider(units: Unit[], name: string, opts: TeamOptions): boolean {
  const naming = units.filter((u) => !u.boilerplate && u.text.includes(name));
  if (naming.length === 0) return false;
  return naming.every((u) => {
    if (OUTSIDERS.has(u.topic as string)) return true;
    const at = u.text.indexOf(name);
    const label = NOT_TEAM_LABEL.exec(u.text);
    if (label && label.index < at) return true;
    if (SIGNATURE.test(u.text.slice(Math.max(0, at - 4), at))) return true;
    return !peopleIn(u.text, u.breaks, opts).some((p) => p.name === name) && new RegExp(`${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*,\\s*(?:former|ex-|${ROLE})[^,;.]*\\b(?:at|of|@)\\s`, "u").test(u.text);
  });
}

/** A unit that starts with a role: the role, else null (an advisor's or investor's role is none). */
export function roleFirst(text: string, opts: TeamOptions): string | null {
  if (NOT_TEAM_ROLE.test(text)) return null;
  const m = roleAtStart(text);
  return m ? roleIn(text, m.title, 0, m.title.length, opts) : null;
}

// A bio opens with the person's given name or a pronoun and what they are or do.
const BIO_VERB = "(?:is|was|has|had|leads|led|brings|holds|held|runs|ran|oversees|heads|spent|built|founded|co-founded|worked|joined|manages)";
export const aboutThem = (text: string, name: string) => new RegExp(`^(?:${name.split(" ")[0].replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}|He|She|They)\\s+${BIO_VERB}\\b`, "u").test(text.trim());
const ROLE_ANYWHERE = new RegExp(`(?<![\\p{L}])(?<title>${ROLE})${END}`, "gu");
/** The roles a bio names that are held here (not elsewhere, not an advisor's or investor's). */
export function rolesIn(text: string, opts: TeamOptions): string[] {
  const view = uncapped(text);
  return [...view.matchAll(ROLE_ANYWHERE)].flatMap((m) => roleIn(text, text.slice(m.index!, m.index! + m.groups!.title.length), m.index!, m.index! + m.groups!.title.length, opts) ?? []);
}

// (Not cells of a table row: a row's cells are read as a grid of cards, or as a table.)
export const NAME_THEN_CAPTION = /^([^;:–—|]{2,60}?)\s*(?:;|:|\s[–—-]\s)\s*([^;:–—|]{2,60})$/u;
export const TEAM_LABEL = /\b(?:team|founders|founding team)\s*:\**\s*/i;
// A statement about the company's own team: its subject is the team or the founders.
export const TEAM_SPOKEN = /\b(?:our|the|\w+) (?:founding |core |management |leadership )?team (?:is|are|has|have|brings?|combines?|members)\b|\b(?:meet|about) (?:the|our) team\b|\bour founders\b/i;
export const BRACKETED = new RegExp(`${PERSON}\\s*\\(([^()]{2,30})\\)`, "gu");

/** A card's caption under a name: a few words, no sentence, no figure, nobody else's role; else null. */
export function captionOf(text: string): string | null {
  // "Alternative Finance, Formerly ...": what they did before is no part of the caption.
  const t = text.trim().replace(/,?\s*\b(?:former(?:ly)?|previously)\b.*$/i, "") || text.trim();
  // A caption that breaks off ("Legal, Compliance and") goes on in the next line: not whole here.
  if (/(?:\b(?:and|of|for|in|&)|,)$/i.test(t)) return null;
  if (t.split(/\s+/).length > 5 || /[.!?:;]$|\d|@|\|/.test(t) || nameAlone(t)) return null;
  if (NOT_TEAM_ROLE.test(t) || INVESTING.test(t) || /\b(?:former(?:ly)?|ex-|previously|at|of)\b/i.test(t)) return null;
  return t;
}

const FAMILY_IN_SMALL = /^\p{Ll}[\p{Ll}'’-]{2,19}$/u;
/** A family name in small letters and a given name on the line beside it: "Joann Muriithi", else null. */
export function splitName(family: string, given: string, givenFirst = false): string | null {
  const f = family.trim();
  if (!FAMILY_IN_SMALL.test(f)) return null;
  const word = f.charAt(0).toUpperCase() + f.slice(1);
  const first = givenNameAlone(given);
  if (!first || !givenNameAlone(word) || (givenFirst && !/^\p{Lu}+$/u.test(given.trim()))) return null;
  return personName(`${first} ${word}`);
}

/** A table cell under a card's name: a short caption that may hold a figure ("Year 3 NUS Business"), no sentence, nobody else's role. */
export function cellCaption(text: string): string | null {
  const t = text.trim();
  if (t.split(/\s+/).length > 6 || /[.!?:;]$|@|\|/.test(t) || !/^[\p{Lu}\d]/u.test(t)) return null;
  if (NOT_TEAM_ROLE.test(t) || INVESTING.test(t) || /\b(?:former(?:ly)?|ex-|previously)\b/i.test(t)) return null;
  return t;
}

/** "<Given> <Family> <caption>": a two-word name, then a role or a short caption of no name's shape; else null. */
export function memberLine(text: string, opts: TeamOptions): { name: string; title: string; role: boolean } | null {
  const words = text.trim().split(/\s+/);
  if (words.length < 3 || words.length > 8) return null;
  const name = nameAlone(words.slice(0, 2).join(" "));
  const rest = words.slice(2).join(" ");
  if (!name || NOT_TEAM_ROLE.test(rest) || INVESTING.test(rest)) return null;
  const role = roleFirst(rest, opts);
  if (role) return { name, title: role, role: true };
  // A caption of a role's place in a list ("Prime Mover", "Guard of Innovations"): a few capitalised words.
  if (rest.split(/\s+/).length > 5 || /[.!?:;]$|\d|@|\||\b(?:former(?:ly)?|ex-|previously|at)\b/i.test(rest) || !/^\p{Lu}/u.test(rest)) return null;
  return { name, title: rest, role: false };
}

/** A card's lines top to bottom: the first lines that make a name, and the lines after them that make a role. */
export function cardIn(lines: string[], opts: TeamOptions): { name: string; title: string } | null {
  for (let k = 1; k <= 3 && k < lines.length; k++) {
    const name = nameAlone(lines.slice(0, k).join(" "));
    if (!name) continue;
    for (let m = Math.min(3, lines.length - k); m >= 1; m--) {
      const text = lines.slice(k, k + m).join(" ");
      const hit = roleAtStart(text);
      if (!hit || NOT_TEAM_ROLE.test(text) || (m > 1 && hit.title.length <= lines.slice(k, k + m - 1).join(" ").length)) continue;
      const title = roleIn(text, hit.title, 0, hit.title.length, opts);
      return title ? { name, title } : null;
    }
    return null;
  }
  return null;
}
