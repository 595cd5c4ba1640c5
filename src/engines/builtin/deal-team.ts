// The team as the material names it: people (a given name and a family name, never an
// organisation) next to a role, in the order they appear. Advisors, board members and investors
// are not the team: a heading or a label ("Advisors:", "Backed by") says where they are listed.
import type { DealFacts } from "../deal-engine.ts";
import type { Unit } from "./deal-text.ts";

type Member = DealFacts["team"][number];

const ROLE =
  "(?:Co-?[Ff]ounder|Founder|Founding (?:Engineer|Partner)|CEO|CTO|COO|CFO|CPO|CMO|CRO|CSO|President|Chair(?:man|woman)?" +
  "|Chief (?:[A-Z][a-z]+ ){1,2}Officer|(?:S|E)?VP(?: of)? [A-Z][a-z]+(?: [A-Z][a-z]+)?|Head of [A-Z][a-z]+(?: [A-Z][a-z]+)?|Director of [A-Z][a-z]+" +
  "|(?:General|Managing|Venture|Operating|Founding) Partner|Partner|Principal)";
const TITLE = `${ROLE}(?:\\s*(?:&|and|\\/)\\s*${ROLE})?`;
const TOKEN = "\\p{Lu}(?:['’]\\p{Lu})?\\p{Ll}+(?:\\p{Lu}\\p{Ll}+)?(?:-\\p{Lu}\\p{Ll}+)?";
const PARTICLE = "(?:van|von|de|der|den|da|di|du|del|della|la|le|bin|ibn|al|el|dos|das|ten|ter|zu)";
const NAME = `${TOKEN}(?:\\s\\p{Lu}\\.)?(?:\\s${PARTICLE}){0,2}\\s${TOKEN}(?:\\s${TOKEN})?`;

const PATTERNS = [
  // "Jane Smith, CEO", "Jörg Müller – CEO & Co-founder", "Sam Lee: CTO", "Ann Moss COO"
  new RegExp(`(?<name>${NAME})(?:\\s*(?:,|–|—|-|:|\\|)\\s*|\\s+)(?<title>${TITLE})(?![\\p{L}])`, "gu"),
  // "Maria Garcia (CEO)", "Ana Tech (CTO, ex-Google)"
  new RegExp(`(?<name>${NAME})\\s*\\((?<title>${TITLE})(?![\\p{L}])[^)]*\\)`, "gu"),
  // "CEO: Priya Raman", "CTO Daniel Okafor"
  new RegExp(`(?<![\\p{L}])(?<title>${TITLE})\\s*(?:[:,–—-]\\s*)?(?<name>${NAME})`, "gu"),
];

// Words that make a capitalised pair an organisation, a place or a slide, not a person.
const NOT_A_NAME = new Set(
  ("Capital Group Ventures Venture Partners Labs Lab Inc Ltd Llc Gmbh Fund Funds Bank Holdings Technologies Technology Robotics Systems " +
    "Solutions Healthcare Analytics Software Cloud Data Network Networks Media Studio Studios Foundation Institute University College School " +
    "Global International Associates Management Consulting Advisors Advisory Investments Equity Energy Motors Pharma Therapeutics Dynamics " +
    "Series Seed Round Ask Team Board Market Product Traction Pricing Revenue Platform Services Street Road Avenue Company Group Angels " +
    "January February March April May June July August September October November December Monday Tuesday Wednesday Thursday Friday").split(" "),
);
// Words that can start a line before a name but are not given names.
const LEAD_INS = new Set("Team Our The Meet Founders Founder Founding Advisors Investors Board Contact Ex Former Previously Chief Head Partner Principal Managing General Venture With And".split(" "));

// Labels after which a unit lists people who are not the team.
const NOT_TEAM_LABEL = /\b(?:advis[oe]rs?|advisory board|board(?: of directors| members?)?|investors?|angels?|mentors?|board observers?)\s*:|\bbacked by\b/i;
// A team slide laid out as blocks: the name on one line, the role on the next.
const NAME_ALONE = new RegExp(`^(?<name>${NAME})[.,]?$`, "u");
const TITLE_FIRST = new RegExp(`^(?<title>${TITLE})(?![\\p{L}])`, "u");

const INVESTOR_TITLE = /^(?:General |Managing |Venture )?Partner$|^Principal$/;
const INVESTING = /\b(invest(?:ed|or|ors|s)?|backed|led our|angels?)\b/i;
const LINKEDIN = /(?:https?:\/\/)?(?:[a-z]{2,3}\.)?linkedin\.com\/in\/[\w%-]+\/?/gi;

/** The person's name when its words have the shape of one (leading words like "Team" dropped), else null. */
function personName(raw: string): string | null {
  const words = raw.split(/\s+/);
  while (words.length > 2 && LEAD_INS.has(words[0])) words.shift();
  if (LEAD_INS.has(words[0]) || /\p{Lu}\./u.test(words[0])) return null;
  const capitalised = words.filter((w) => /^\p{Lu}/u.test(w) && !/^\p{Lu}\.$/u.test(w));
  if (capitalised.length < 2 || capitalised.some((w) => NOT_A_NAME.has(w.replace(/['’].*$/, "")))) return null;
  return words.join(" ");
}

type Found = { name: string; title: string; at: number; pageIndex: number; end: number };

/**
 * @param units the material in reading order
 * @param fund in a fund's deck partners are the team; in a company's a partner "who invested" is an investor
 */
export function extractTeam(units: Unit[], fund: boolean): Member[] {
  const found: Found[] = [];
  const links: { url: string; at: number; pageIndex: number }[] = [];
  let offset = 0;
  const excluded = (u: Unit) => u.boilerplate || u.topic === "advisors" || u.topic === "investors";
  units.forEach((u, i) => {
    const at = offset;
    offset += u.text.length + 1;
    for (const m of u.text.matchAll(LINKEDIN)) links.push({ url: m[0].startsWith("http") ? m[0].replace(/\/$/, "") : `https://${m[0].replace(/\/$/, "")}`, at: at + m.index!, pageIndex: u.pageIndex });
    if (excluded(u)) return;
    const next = units[i + 1];
    const alone = NAME_ALONE.exec(u.text);
    const role = next && next.pageIndex === u.pageIndex && !excluded(next) ? TITLE_FIRST.exec(next.text) : null;
    const stacked = alone && role ? personName(alone.groups!.name) : null;
    if (stacked) found.push({ name: stacked, title: role!.groups!.title.replace(/\s+/g, " "), at, pageIndex: u.pageIndex, end: at + u.text.length });
    const label = NOT_TEAM_LABEL.exec(u.text);
    const text = label ? u.text.slice(0, label.index) : u.text;
    for (const re of PATTERNS) {
      for (const m of text.matchAll(re)) {
        const name = personName(m.groups!.name);
        const title = m.groups!.title.replace(/\s+/g, " ");
        if (!name) continue;
        if (!fund && INVESTOR_TITLE.test(title) && INVESTING.test(u.text)) continue;
        const nameAt = m.index! + m[0].indexOf(name);
        found.push({ name, title, at: at + nameAt, pageIndex: u.pageIndex, end: at + m.index! + m[0].length });
      }
    }
  });
  found.sort((a, b) => a.at - b.at);
  const team = new Map<string, Member & { at: number; pageIndex: number }>();
  for (const f of found) if (!team.has(f.name) && team.size < 12) team.set(f.name, { name: f.name, title: f.title, linkedin_url: null, at: f.at, pageIndex: f.pageIndex });

  // A LinkedIn address belongs to the person named just before it on the same page (before the
  // next person); failing that, to the person whose name its slug spells.
  const members = [...team.values()];
  const used = new Set<string>();
  members.forEach((member, i) => {
    const nextAt = members[i + 1]?.pageIndex === member.pageIndex ? members[i + 1].at : Infinity;
    const near = links.find((l) => l.pageIndex === member.pageIndex && l.at > member.at && l.at < nextAt && !used.has(l.url));
    if (near) (member.linkedin_url = near.url), used.add(near.url);
  });
  for (const member of members) {
    if (member.linkedin_url) continue;
    const parts = member.name.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().split(/\s+/).map((p) => p.replace(/[^a-z]/g, ""));
    const slugged = links.find((l) => !used.has(l.url) && parts.every((p) => l.url.toLowerCase().includes(p)));
    if (slugged) (member.linkedin_url = slugged.url), used.add(slugged.url);
  }
  return members.map(({ name, title, linkedin_url }) => ({ name, title, linkedin_url }));
}
