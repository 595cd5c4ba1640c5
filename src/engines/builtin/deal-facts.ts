// Structured facts from deal material: the company, the round and the team. Each fact is read from
// the statements that carry it (the company's own name on its cover or site, "based in", "founded
// in", the raise); what nothing states stays null, never a default.
import { websiteHost } from "../../lib/hosts.ts";
import { sectorsIn } from "../../lib/sectors.ts";
import type { DealEngineInput, DealFacts, SourcePage } from "../deal-engine.ts";
import { companyRound, fundSize, type CompanyRound, type FundSize } from "./deal-round.ts";
import { isRole } from "./deal-people.ts";
import { extractTeam, type TeamSource } from "./deal-team.ts";
import { quotable, readMaterial, topicOfHeading, type Unit } from "./deal-text.ts";

export { moneyIn, parseMoney } from "./deal-money.ts";

type Hints = DealEngineInput["hints"];

const TLD = "com|io|ai|co|app|dev|tech|health|vc|fund|capital|ventures|net|org|eu|de|fr|uk|nl|se|ch|at|es|it|us|ca|xyz|so|sh|ly|me|energy|bio|finance|money|studio|systems|cloud";
const URL_RE = new RegExp(`\\b(?:https?:\\/\\/)?(?:www\\.)?([a-z0-9-]+(?:\\.[a-z0-9-]+)*\\.(?:${TLD}))\\b(?![.-]?[a-z0-9])`, "gi");
// Addresses that are never the company's own site.
const NOT_OWN_SITE = /(^|\.)(linkedin|docsend|google|notion|gmail|googlemail|outlook|hotmail|yahoo|icloud|proton|protonmail|calendly|youtube|twitter|x|facebook|instagram|github|medium|crunchbase|angel|wellfound|dropbox|figma|pitch|box)\.[a-z.]+$/;

const letters = (s: string) =>
  s.toLowerCase().replace(/ä/g, "ae").replace(/ö/g, "oe").replace(/ü/g, "ue").replace(/ß/g, "ss").normalize("NFD").replace(/\p{M}/gu, "").replace(/[^a-z0-9]/g, "");
const plainLetters = (s: string) => s.toLowerCase().normalize("NFD").replace(/\p{M}/gu, "").replace(/[^a-z0-9]/g, "");

/** The registrable label of a domain, without "get"/"try"-style prefixes: "getacme.com" -> "acme". */
function domainLabel(domain: string): string {
  const parts = domain.split(".");
  const label = parts.length > 2 && /^(co|com)$/.test(parts[parts.length - 2]) ? parts[parts.length - 3] : parts[parts.length - 2];
  return label.replace(/-/g, "").replace(/^(get|try|use|join|hello|go|meet)(?=[a-z]{4,})/, "");
}

/** Whether a name and a domain spell the same thing (an "ä" in the name spelled "ae" or "a" in the domain). */
export function nameMatchesDomain(name: string, domain: string): boolean {
  const label = domainLabel(domain);
  return [letters(name), plainLetters(name)].some((n) => n.length >= 3 && label.length >= 3 && (n.includes(label) || label.includes(n)));
}

const NOT_A_COMPANY_NAME =
  /\b(deck|presentation|pitch|overview|update|round|series|seed|agenda|contents|introduction|thank you|appendix|vision|mission|welcome|home|homepage|coming soon|memorandum|memo|executive summary|name|role|background|term|details|year|total|amount|confidential|business|model|development|proposal|project|report|solution|conclusion|canvas|about|contacts?|faq|blog|careers|(?:presented|prepared|submitted|made|created) by)\b|^(?:the|a|an|and|or|of|our|we|us|for|to|in|on|by|with)$|^(?:group|team|table|squad|section) \d+$/i;
// A programme, course, event or institution a deck is presented at or for: never the company.
const PROGRAMME =
  /\b(demo ?day|accelerator|incubator|cohort|batch|bootcamp|course|class of|programme|program|fellowship|studio|lab course|hackathon|summit|conference|competition|challenge|pitch night|showcase|university|universit[äéa]t|école|school|college|institute|desaf[ií]o|d[ée]fi|jornada|hackat[oó]n|startup school|capstone|seminar|workshop|module|semester|final project|venture lab|launchpad|week|festival|expo|award)s?\b|\b(y ?combinator|techstars|500 startups|entrepreneur first|antler|seedcamp|station f|plug and play|masschallenge|founders? institute)\b|^(presented|prepared|submitted) (at|for|to)\b/i;

/** A short line in title case: two to five capitalised words. */
function nameLike(text: string): boolean {
  const words = text.split(/\s+/);
  return (
    words.length <= 5 &&
    text.length <= 40 &&
    // A letter alone ("O", a language's article) names nothing.
    text.replace(/[^\p{L}\d]/gu, "").length >= 2 &&
    // A name may be written in its own script first ("芽计 YaPlan"): a short word of a script without case.
    words.every((w) => /^[\p{Lu}\d]/u.test(w) || /^(&|and|of|for|the|de|von|van)$/.test(w) || /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]{1,6}$/u.test(w)) &&
    /^\p{Lu}/u.test(text.replace(/^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]{1,6}\s+(?=\p{Lu})/u, "")) &&
    !NOT_A_COMPANY_NAME.test(text) &&
    // A tagline opens with what it does ("Redefining Identity", "Empowering Farmers"), a name does not.
    !/^\p{Lu}\p{Ll}{4,}ing(?:\s|$)/u.test(text) &&
    !PROGRAMME.test(text) &&
    !topicOfHeading(text) &&
    !isRole(text) &&
    // (A colon inside a word is part of a stylised name: "Attac:k".)
    !/[$€£%@;,]|:(?!\p{L})|\d{3}/u.test(text)
  );
}

const GENERIC_NAME_WORD = /^(fund|the|global|group|capital|ventures|partners|labs|health|data|cloud|smart|open|next|new|first|united|digital)$/i;

type Candidate = { name: string; order: number; fromTitle: boolean };

const NAME_WORDS = "\\p{Lu}[\\p{L}\\d'’&-]*(?:\\s\\p{Lu}[\\p{L}\\d'’&-]*){0,2}";
// The company named in its own prose: "At <Name>, we", "<Name> is a", "started <Name> in", "© 2025 <Name> AG".
const IN_PROSE = [
  new RegExp(`^At (${NAME_WORDS}),\\s+(?:we|our)\\b`, "u"),
  new RegExp(`^(${NAME_WORDS})(?: \\([\\p{Lu}\\d]{2,6}\\))? (?:is|are) (?:a|an|the)\\b`, "u"),
  new RegExp(`\\b(?:started|founded|launched|built|created) (${NAME_WORDS}) in\\b`, "u"),
  new RegExp(`©\\s*(?:(?:19|20)\\d{2}\\s+)?(${NAME_WORDS})`, "u"),
  new RegExp(`^(${NAME_WORDS}) (?:helps|builds|enables|automates|provides|offers|develops|turns|lets|makes|allows|empowers|connects|simplifies|is here to)\\b`, "u"),
  // "<Name>: A platform for ...": the name a definition opens with (not a label over a statement: "<Measure>: The market ...").
  new RegExp(`^(${NAME_WORDS}):\\s+(?:A|An)\\s+\\p{Ll}`, "u"),
  // A title that names the solution: "2. Solution: <Name>", "Introducing <Name>".
  new RegExp(`^(?:\\d{1,2}[.)]?\\s*)?(?:(?:The |Our )?Solution\\s*[:—–-]|Introducing|Presenting|Welcome to)\\s+(${NAME_WORDS})[.!]?$`, "u"),
];
const THE_NAME = new RegExp(`^The (${NAME_WORDS})(?: \\([\\p{Lu}\\d]{2,6}\\))? (?:is|are) (?:a|an|the)\\b`, "u");
const LEGAL_FORM = /\s+(?:AG|GmbH|SA|SAS|SARL|Ltd\.?|Limited|Inc\.?|LLC|BV|B\.V\.|AB|Oy|ApS|SpA)$/;

/**
 * The company's name: as submitted; else the site title's part or a cover line that the domain
 * spells; else the one the text repeats; else the site title; else the cover's first name-like line.
 */
function companyName(units: Unit[], hints: Hints, domains: string[], people: string[]): string | null {
  if (hints.companyName?.trim()) return hints.companyName.trim();
  const candidates: Candidate[] = [];
  // Names the material gives to people or to other organisations: its team, and whoever is listed
  // under advisors, investors or customers (a name over a role, "Partner at X", a signature).
  const others = units.filter((u) => (u.topic === "advisors" || u.topic === "investors" || u.topic === "customers") && u.text.split(/\s+/).length <= 8).map((u) => u.text.toLowerCase());
  const person = (text: string) => people.some((p) => text.includes(p)) || others.some((o) => o === text.toLowerCase() || o.startsWith(`${text.toLowerCase()},`));
  for (const part of (hints.siteTitle ?? "").split(/\s+[|–—·:-]\s+|:\s+|\s\|\s?/)) {
    const name = part.trim();
    if (name && nameLike(name) && !person(name)) candidates.push({ name, order: -1, fromTitle: true });
  }
  const firstPage = units.filter((u) => u.pageIndex === 0 && !u.boilerplate).slice(0, 12);
  // Four or more single words in a row on lines of their own (given names one by one) hold no company name
  // ("<NAME> KEPT SECRET" is a name over a claim); nor does a line that says who presents.
  const single = (k: number) => !!firstPage[k] && /^[\p{L}'’-]+$/u.test(firstPage[k].text.trim());
  const inRun = (k: number) => [k - 3, k - 2, k - 1, k].some((s) => [0, 1, 2, 3].every((d) => single(s + d)));
  // An edition of an event: "<Event>" over "2022: <Name>", or "<Event> 2022: <Name>" on one line:
  // the event is no company; what the colon introduces is the deck's own name.
  const EDITION = /^(?:(.{2,40}?)\s+)?(?:19|20)\d{2}(?::|\s[–—-])\s*(\p{L}.{1,38})$/u;
  for (const [k, u] of firstPage.entries()) {
    if (inRun(k) || /^(?:presented|prepared|submitted|pitched) by\b/i.test(u.text)) continue;
    const edition = EDITION.exec(u.text.trim());
    if (edition) {
      if (nameLike(edition[2].trim()) && !person(edition[2])) candidates.push({ name: edition[2].trim(), order: u.order, fromTitle: false });
      continue;
    }
    if (firstPage[k + 1] && EDITION.test(firstPage[k + 1].text.trim()) && !EDITION.exec(firstPage[k + 1].text.trim())![1]) continue;
    // A tagline set over several lines ("Connecting" / "<Adjective> <Nouns>" / "Directly with ..."):
    // after a lone verb in -ing or a line that breaks off on a preposition, the next line goes on with it.
    const before = firstPage[k - 1]?.text.trim() ?? "";
    if (/^\p{Lu}\p{Ll}{3,}ing$/u.test(before) || /\s(?:in|of|for|to|the|a|an|and|or|with|at|by|from|on)$/i.test(before)) continue;
    // A title in a larger size run on into its subtitle ("<Name>" over "technology platform ..."): its first line alone.
    if (u.breaks.length && /^\p{Ll}/u.test(u.text.slice(u.breaks[0] + 1))) {
      const head = u.text.slice(0, u.breaks[0]).trim();
      if (nameLike(head) && !person(head)) candidates.push({ name: head, order: u.order, fromTitle: false });
    }
    // "<Name>: investment memorandum": the name before a colon that opens a description.
    // "<Name> @ <Event 2024>": where the deck was presented follows the "@".
    const parts = u.text.replace(/[.:!]$/, "").replace(/^([^:]{2,40}):\s+\p{Ll}.*$/u, "$1").replace(/\s+@\s+.*$/u, "").split(/\s+[|–—·-]\s+/);
    // A row of four or more single words (given names, an agenda) holds no company name.
    if (parts.length >= 4 && parts.every((p) => !/\s/.test(p.trim()))) continue;
    for (const part of parts) {
      if (nameLike(part.trim()) && !person(part)) candidates.push({ name: part.trim(), order: u.order, fromTitle: false });
    }
  }
  // A deck's running footer (or header): the same short line on most pages, at the top or the
  // bottom of each ("<Name>" beside the page number).
  const pagesOf = new Map<string, Set<number>>();
  const byPage = new Map<number, Unit[]>();
  for (const u of units) if (!u.boilerplate || u.running) (byPage.get(u.pageIndex) ?? byPage.set(u.pageIndex, []).get(u.pageIndex)!).push(u);
  for (const [page, on] of byPage) {
    for (const u of [...on.slice(0, 2), ...on.slice(-3)]) if (u.text.length <= 40) pagesOf.set(u.text, (pagesOf.get(u.text) ?? new Set()).add(page));
  }
  const pageCount = new Set(units.map((u) => u.pageIndex)).size;
  for (const [text, on] of pagesOf) {
    if (on.size < 3 || on.size * 2 < pageCount) continue;
    const order = units.find((u) => u.text === text)!.order;
    if (nameLike(text) && !person(text)) candidates.push({ name: text, order, fromTitle: false });
    // A footer in cells ("<Name> | <Team> | Made with"): its first cell names the deck.
    const first = text.split(/\s\|\s/)[0].trim();
    if (first !== text && nameLike(first) && !person(first)) candidates.push({ name: first, order, fromTitle: false });
  }
  for (const u of units) {
    if (u.topic === "team" || u.topic === "advisors" || u.topic === "investors") continue;
    for (const re of IN_PROSE) {
      const name = re.exec(u.text)?.[1]?.trim().replace(LEGAL_FORM, "");
      // In prose a determiner opens a noun phrase ("The SAM is", "Our Platform is"), not a name; a
      // market's measure (TAM, SAM, SOM, CAGR) is no company, nor is a two-letter word ("AI makes ...").
      if (!name || /^(?:The|This|That|Our|Its|Their|Each|Every|Any)\s/.test(name) || /\b(?:TAM|SAM|SOM|CAGR|ARR|MRR)\b/.test(name) || name.replace(/[^\p{L}\d]/gu, "").length < 3) continue;
      if (nameLike(name) && !person(name)) candidates.push({ name, order: u.order, fromTitle: false });
    }
    // "The <Name> (<ACRONYM>) is ...": after the article, a name only when the company's own address spells it.
    const the = THE_NAME.exec(u.text)?.[1];
    if (the && nameLike(the) && domains.some((d) => domainLabel(d) === letters(the))) candidates.push({ name: the, order: u.order, fromTitle: false });
  }
  // The name the company's own address spells: exactly before partly (a two-word name over its first word when the domain spells both).
  const spelled = candidates
    .map((c) => ({ c, exact: domains.some((d) => domainLabel(d) === letters(c.name) || domainLabel(d) === plainLetters(c.name)), partly: domains.some((d) => nameMatchesDomain(c.name, d)) }))
    .filter((x) => x.partly)
    .sort((a, b) => Number(b.exact) - Number(a.exact) || b.c.name.length - a.c.name.length || a.c.order - b.c.order);
  if (spelled.length) return spelled[0].c.name;
  // The whole name repeated, else its first word when that word is distinctive ("<Name> builds").
  const recurrence = (c: Candidate) => {
    const count = (word: string) => {
      const needle = new RegExp(`(?<![\\p{L}])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}])`, "u");
      return units.filter((u) => u.order !== c.order && (!u.boilerplate || u.running) && needle.test(u.text)).length;
    };
    const first = c.name.split(/\s+/)[0];
    return count(c.name) || (first !== c.name && first.length >= 4 && !GENERIC_NAME_WORD.test(first) ? count(first) : 0);
  };
  const repeated = candidates.map((c) => ({ c, n: recurrence(c) })).filter((x) => x.n > 0);
  if (repeated.length) return repeated.sort((a, b) => b.n - a.n || a.c.order - b.c.order)[0].c.name;
  // A splash page before the cover ("Text this number"): a title of the second page that the deck
  // repeats (in its footers) names the company, when nothing on the first does.
  const title = byPage.get(1)?.[0];
  if (title?.heading && nameLike(title.text) && !person(title.text)) {
    const word = new RegExp(`(?<![\\p{L}])${title.text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}])`, "u");
    const footed = [...byPage].filter(([page, on]) => page > 1 && [...on.slice(0, 2), ...on.slice(-3)].some((u) => word.test(u.text))).length;
    if (footed >= 2) return title.text;
  }
  // A cover line nobody repeats is still the deck's title; a website's text is not a cover.
  const deck = units[0]?.page.documentId !== null;
  return (candidates.find((c) => c.fromTitle) ?? (deck ? candidates[0] : undefined))?.name ?? spelledInText(units, domains);
}

/** With nothing name-like on the cover: the words of the text that spell the company's own address ("HiddenState" for hiddenstate.ai). */
function spelledInText(units: Unit[], domains: string[]): string | null {
  const labels = domains.map(domainLabel).filter((l) => l.length >= 4);
  if (!labels.length) return null;
  for (const u of units) {
    if (u.boilerplate || u.topic === "team" || u.topic === "advisors" || u.topic === "investors") continue;
    // Runs of capitalised words, each tried from each of its words on ("Why <Name> AI?").
    const words = [...u.text.matchAll(/\p{Lu}[\p{L}\d]*/gu)];
    for (let i = 0; i < words.length; i++) {
      for (let n = 3; n >= 1; n--) {
        const last = words[i + n - 1];
        if (!last || words.slice(i + 1, i + n).some((w, k) => !/^[ -]$/.test(u.text.slice(words[i + k].index! + words[i + k][0].length, w.index!)))) continue;
        const name = u.text.slice(words[i].index!, last.index! + last[0].length);
        if (labels.includes(letters(name)) && !/^[.@]/.test(u.text.slice(last.index! + last[0].length))) return name;
      }
    }
  }
  return null;
}

function domainsIn(units: Unit[]): { domain: string; pageIndex: number }[] {
  const out: { domain: string; pageIndex: number }[] = [];
  for (const u of units) {
    for (const m of u.text.matchAll(URL_RE)) {
      const domain = m[1].toLowerCase().replace(/^www\./, "");
      if (!NOT_OWN_SITE.test(domain) && !out.some((d) => d.domain === domain)) out.push({ domain, pageIndex: u.pageIndex });
    }
  }
  return out;
}


const DESCRIBES = /\b(is (?:a|an|the)|are (?:a|an|the)|helps?|builds?|enables?|lets|makes it|provides?|offers?|develops?|automates?|turns?)\b/i;

/** The company saying what it does: its name (or "We") as the subject of "is a", "builds", "helps". */
function description(units: Unit[], name: string | null): string | null {
  const statements = quotable(units).filter((u) => u.topic !== "team" && u.topic !== "advisors" && u.topic !== "investors");
  const first = name?.split(/\s+/)[0];
  const subjects = [first && new RegExp(`^(?:${[name!, first].map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})\\b`, "u"), /^(?:We|Our (?:platform|product|company))\b/];
  for (const subject of subjects) {
    if (!subject) continue;
    const hit = statements.find((u) => subject.test(u.text) && DESCRIBES.test(u.text));
    if (hit) return hit.text.length > 300 ? `${hit.text.slice(0, 297)}...` : hit.text;
  }
  return null;
}

/** The sector the company's own self-description names (name, description, cover); else one the text keeps naming. */
function sector(units: Unit[], name: string | null, desc: string | null, siteTitle: string | null | undefined): string | null {
  const count = (texts: string[]) => {
    const tally = new Map<string, number>();
    for (const t of texts) for (const s of sectorsIn(t)) tally.set(s, (tally.get(s) ?? 0) + 1);
    return tally;
  };
  const best = (tally: Map<string, number>, min: number) => {
    let pick: string | null = null;
    for (const [s, n] of tally) if (n >= min && (pick === null || n > tally.get(pick)!)) pick = s;
    return pick;
  };
  const cover = units.filter((u) => u.pageIndex === 0 && !u.boilerplate).slice(0, 4).map((u) => u.text);
  const own = best(count([name ?? "", desc ?? "", siteTitle ?? "", ...cover]), 1);
  // Elsewhere one passing word ("we care about") is not a sector: it must come up twice.
  return own ?? best(count(quotable(units).map((u) => u.text)), 2);
}

const PLACE = "\\p{Lu}[\\p{L}'’-]*(?:\\s(?:\\p{Lu}[\\p{L}'’-]*|de|do|da|am|upon|on|sur)){0,2}(?:,\\s(?:\\p{Lu}{2}\\b|\\p{Lu}[\\p{L}'’-]+(?:\\s\\p{Lu}[\\p{L}'’-]+)?))?";
const LOCATIONS = [
  new RegExp(`(?:\\b([\\p{L}']+)\\s+)?\\b(?:[Bb]ased|[Hh]eadquartered|[Ll]ocated)\\s+in\\s+(?<place>${PLACE})`, "u"),
  new RegExp(`\\b(?:HQ|Headquarters|Head office|Location)\\s*[:–-]\\s*(?<place>${PLACE})`, "u"),
  new RegExp(`\\b(?:founded|established|incorporated)\\s+(?:in\\s+)?(?:(?:19|20)\\d{2}\\s+)?in\\s+(?<place>${PLACE})`, "iu"),
];
// "customers based in Germany" is where the customers are.
const OTHERS_PLACE = (word: string | undefined) => !!word && /s$/i.test(word) && !/^(is|was|us|has|its|as|this|plus)$/i.test(word);

function location(units: Unit[]): string | null {
  for (const re of LOCATIONS) {
    for (const u of units) {
      if (u.boilerplate || u.topic === "team" || u.topic === "advisors") continue;
      const m = re.exec(u.text);
      if (m && !(re === LOCATIONS[0] && OTHERS_PLACE(m[1]))) return m.groups!.place.trim();
    }
  }
  return null;
}

const FOUNDED = /\b(?:founded|established|incorporated|est\.)\s*(?:in\s+|:\s*)?((?:19|20)\d{2})\b/gi;
// "her last startup, founded in 2014, was acquired": someone else's company.
const SOMEONE_ELSES_COMPANY_BEFORE = /\b(previous(?:ly)?|prior|former|first|last|earlier|sold|exited|her|his|their)\b/i;
const SOMEONE_ELSES_COMPANY_AFTER = /^[^.;]{0,40}\b(acquired|sold|exited)\b/i;

function foundedYear(units: Unit[]): number | null {
  for (const u of units) {
    if (u.boilerplate) continue;
    for (const m of u.text.matchAll(FOUNDED)) {
      const before = u.text.slice(Math.max(0, m.index! - 60), m.index!);
      if (SOMEONE_ELSES_COMPANY_BEFORE.test(before) || SOMEONE_ELSES_COMPANY_AFTER.test(u.text.slice(m.index! + m[0].length))) continue;
      return Number(m[1]);
    }
  }
  return null;
}

/** `teamSources`: where each member is named with their role (a card's name and role may be no sentence). */
export type ReadFacts = { facts: DealFacts; units: Unit[]; round: CompanyRound | null; fund: FundSize | null; teamSources: TeamSource[] };

export function readFacts(pages: SourcePage[], hints: Hints): ReadFacts {
  const units = readMaterial(pages);
  const fund = hints.kind === "fund";
  const found = domainsIn(units);
  const hinted = websiteHost(hints.website);
  const ownDomains = hinted ? [hinted] : found.map((d) => d.domain);
  const team = extractTeam(units, { fund, own: (org) => ownDomains.some((d) => nameMatchesDomain(org, d)) || (!!hints.companyName && nameMatchesDomain(org, hints.companyName.replace(/\s+/g, ""))) });
  const name = companyName(units, hints, ownDomains, team.map((m) => m.name));
  // The company's own address: the one its name spells, else one on the cover or the closing page.
  const own =
    (name ? found.find((d) => nameMatchesDomain(name, d.domain)) : undefined) ??
    found.find((d) => d.pageIndex === 0 || d.pageIndex === pages.length - 1);
  const domain = hinted ?? own?.domain ?? null;
  const website = hints.website ? (/^https?:\/\//i.test(hints.website) ? hints.website : `https://${hints.website}`) : domain ? `https://${domain}` : null;
  const desc = description(units, name);

  const round = fund ? null : companyRound(units);
  const size = fund ? fundSize(units) : null;
  const target = size?.target && size.target.amount !== null ? size.target : null;
  const facts: DealFacts = {
    company: { name, domain, website, description: desc, sector: sector(units, name, desc, hints.siteTitle), location: location(units), founded_year: foundedYear(units) },
    // A fund's "round" is the fund itself: its target size, and it has no round stage.
    round: round
      ? { stage: round.stage, amount: round.amount, currency: round.currency, pre_money_valuation: round.pre_money_valuation }
      : { stage: null, amount: target?.amount ?? null, currency: target?.currency ?? null, pre_money_valuation: null },
    team: team.map(({ name, title, linkedin_url }) => ({ name, title, linkedin_url })),
  };
  return { facts, units, round, fund: size, teamSources: team.map((m) => m.source) };
}

export function extractFacts(pages: SourcePage[], hints: Hints): DealFacts {
  return readFacts(pages, hints).facts;
}
