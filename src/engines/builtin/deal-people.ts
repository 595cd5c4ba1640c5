// What a person's name and a role look like on a deck's page: a given and a family name (an
// honorific or a degree around it, in capitals or not, where they are based after a comma), and a
// role by its shape (founder, C-level, chief/head/VP/director of something, a lead, an engineer),
// never from a fixed list. Where on the page the team stands is deal-team.ts's.

const CAP = "\\p{Lu}[\\p{Ll}]+";
const ROLE_WORD =
  "(?:(?:[Cc]o-?)?[Ff]ounder|Founding (?:Engineer|Partner|Member|Designer|Scientist)|C(?:[EOTFPMRSIDH]|HR)O" +
  `|Chief(?: ${CAP}){1,3} Officer|(?:Senior |Executive )?(?:Vice President|S?VP|EVP)(?: of)?(?: (?:${CAP}|&)){1,3}` +
  `|Head of(?: (?:${CAP}|\\p{Lu}[\\p{Lu}&]{0,5}|&|and)){1,4}|(?:Managing|Technical|Medical|Creative|Executive|Commercial|Finance|Sales) Director|Director(?: of)?(?: ${CAP}){1,2}` +
  `|(?:(?:Lead|Senior|Principal|Staff) )?(?:(?:${CAP}|\\p{Lu}{2,4}|iOS) ){0,2}(?:Engineer|Scientist|Designer|Architect|Developer|Researcher|Manager|Analyst|Marketer|Specialist)|(?:(?:${CAP}|\\p{Lu}{2,4}) )?Lead|Chief of Staff` +
  "|General Counsel|President|Chair(?:man|woman|person)?|(?:General |Managing |Venture |Operating )?Partner|Principal" +
  "|(?:Mit)?[Gg]ründer(?:in)?|Geschäftsführer(?:in)?|Co-?fondat(?:eur|rice)|Fondat(?:eur|rice)|Directeur(?: \\p{L}+)?|Président(?:e)?)";
export const ROLE = `${ROLE_WORD}(?:\\s*(?:,|&|and|/|\\+)\\s*${ROLE_WORD})*`;
const TOKEN = "\\p{Lu}(?:['’]\\p{Lu})?\\p{Ll}+(?:\\p{Lu}\\p{Ll}+)?(?:-\\p{Lu}\\p{Ll}+)?";
const PARTICLE = "(?:van|von|de|der|den|da|di|du|del|della|la|le|bin|ibn|al|el|dos|das|ten|ter|zu)";
const NAME = `${TOKEN}(?:\\s\\p{Lu}\\.?)?(?:\\s${PARTICLE}){0,2}\\s${TOKEN}(?:\\s${TOKEN})?`;
// Honorifics with their dot or, as British decks write them, without ("Prof Alan ...", "Dr Syed ...").
const HONORIFIC = "(?:(?:(?:Prof|Dr|Mr|Ms|Mrs|Mx)\\.\\s*|(?:Prof|Dr|Mr|Ms|Mrs|Mx|Sir)\\s+|Dipl\\.-Ing\\.\\s*))+";
// Degrees and post-nominal letters after a name ("PhD", "MEP", "OBE").
const DEGREE = "(?:,?\\s(?:PhD|Ph\\.D\\.|MBA|MD|MSc|M\\.Sc\\.|DPhil|CFA|CPA|MEP|MP|OBE|CBE|MBE|FRS|FREng|JD|MPH|MEng)\\b)+";
// "Delft Co-founder" is no name: a name's last word is not the start of a hyphenated lower-case word.
export const PERSON = `(?:${HONORIFIC})?(?<name>${NAME})(?!-\\p{Ll})(?:${DEGREE})?`;
export const END = "(?![\\p{L}])";

// Words that make a capitalised pair an organisation, a place or a slide, not a person.
const NOT_A_NAME = new Set(
  ("Capital Group Ventures Venture Partners Labs Lab Inc Ltd Llc Gmbh Ag Sa Sas Fund Funds Bank Holdings Technologies Technology Robotics Systems " +
    "Solutions Healthcare Health Analytics Software Cloud Data Network Networks Media Studio Studios Foundation Institute University College School " +
    "Global International Associates Management Consulting Advisors Advisory Investments Equity Energy Motors Pharma Therapeutics Dynamics " +
    "Series Seed Round Ask Team Board Market Product Traction Pricing Revenue Platform Services Street Road Avenue Company Group Angels " +
    "Officer Executive Chief Head Operations Engineering Science Scientific Sales Growth Marketing Finance Product Commercial Technical " +
    "Name Role Background Title Position Mr Ms Mrs Mx Dr Prof " +
    // A role's words are no one's name ("Industry Advisor" on a card).
    "Advisor Adviser Advisors Investor Investors Mentor Mentors Professor Lecturer Consultant Industry Director Manager Engineer Designer Developer " +
    "Partner Lawyer Attorney Counsel Analyst Strategist Coordinator Assistant Associate Intern Accountant Auditor Specialist Architect Scientist Researcher Lead " +
    // A department's or a trade's words ("Frontend Development", "Watson Expert") are no one's name either.
    "Development Frontend Backend Fullstack Design Strategy Business Legal Compliance Research Support Communications Partnerships Content Community Security " +
    "Infrastructure Operations Editor Writer Animator Photographer Producer Hacker Expert Guru Tester Officer Ambassador Volunteer " +
    "Technician Marketer Modeler Artist Project Projects Monitoring Accounting Recruiting Recruitment Purchasing Procurement Manufacturing Programming Training Planning Testing Reporting Quality Logistics Administration Admin " +
    // Nor a slide's ("Problem Statement", "Solution Overview").
    "Problem Solution Overview Statement Summary Introduction Roadmap Demo Diagram Contents Agenda Vision Mission " +
    "January February March April May June July August September October November December Monday Tuesday Wednesday Thursday Friday").split(" "),
);
// Words that can start a line before a name but are not given names.
const LEAD_INS = new Set(
  ("Team Our The Meet Founders Founder Founding Founded Advisors Investors Board Contact Ex Former Previously Chief Head Partner Principal Managing General Venture With And By Led " +
    // A pronoun or a question word opens a slogan ("We Care, We Connect"), never a name.
    "We You They It Your Their My His Her Its This That These Those What Why How Who When Where").split(" "),
);

// After a comma, only an organisation's name says where a role is held ("Partner, Brightlake Capital"; not "CEO, Co-founder").
export const ORGANISATION = /\b(?:Capital|Ventures?|Partners|VC|Fund|Funds|Bank|Group|Holdings?|Labs?|Inc|Ltd|LLC|GmbH|AG|SA|SAS|BV|University|Institute|Foundation|Investments?|Equity|Angels|Management|Advisors|Associates|Consulting|Technologies|Systems|Health|Pharma|Bio|AI|Robotics|Energy|Logistics|Insurance|Clinics?|Hospital)\b/u;
export const NOT_TEAM_ROLE = /\b(?:advis[oe]r|advisory|investor|angel|board member|board director|non-executive|mentor|observer|customer|client)\b/i;

// A name may close with the separator a card sets before its caption ("<NAME>;" over "TEAM'S WRITER").
const NAME_ALONE = new RegExp(`^${PERSON}[.,;:]?$`, "u");
const ROLE_FIRST = new RegExp(`^(?<title>${ROLE})${END}`, "u");

// A role set in capitals on a card ("CO-FOUNDER · DEVICE", "HEAD OF SALES") is read in the case the
// role's shape is written in; its acronyms (CEO, VP, R&D) stay as they are.
const KEEP_CAPS = /^(?:C(?:[EOTFPMRSIDH]|HR)O|S?VP|EVP|R&D|UX|UI|HR|IT|AI|ML|QA|BD|GTM|PR|IOS)$/;
export function uncapped(text: string): string {
  if (/\p{Ll}/u.test(text) || !/\p{Lu}{2}/u.test(text)) return text;
  return text.replace(/[\p{L}&]+/gu, (w) => (KEEP_CAPS.test(w) ? w : /^(?:OF|AND|THE|FOR|AT)$/.test(w) ? w.toLowerCase() : w.charAt(0) + w.slice(1).toLowerCase()));
}
/** A role at the start of a line (in capitals or not): the match, its title as written on the page. */
export function roleAtStart(text: string): { title: string } | null {
  const m = ROLE_FIRST.exec(uncapped(text));
  return m ? { title: text.slice(0, m.groups!.title.length) } : null;
}
// A short qualifier after a role on its own line: "Co-founder · Device", "Head of Biz Dev –".
const QUALIFIED = new RegExp(`^(?:${ROLE})(?:\\s*[·|–—-]\\s*(?:[\\p{L}&/+]+(?:\\s+[\\p{L}&/+]+){0,2})?)?$`, "u");
/** Whether a line is a role and nothing else ("Chief Scientific Officer", "CTO · Infra"): never a company's name. */
export const isRole = (text: string) => QUALIFIED.test(uncapped(text.trim()));

/** The person's name when its words have the shape of one (leading words like "Team" dropped), else null. */
export function personName(raw: string): string | null {
  const words = raw.split(/\s+/);
  while (words.length > 2 && LEAD_INS.has(words[0])) words.shift();
  if (LEAD_INS.has(words[0]) || /\p{Lu}\./u.test(words[0])) return null;
  const capitalised = words.filter((w) => /^\p{Lu}/u.test(w) && !/^\p{Lu}\.$/u.test(w));
  if (capitalised.length < 2 || capitalised.some((w) => NOT_A_NAME.has(w.replace(/['’].*$/, "")))) return null;
  // "CEO CTO" read in a name's case is roles, not a name.
  if (capitalised.some((w) => /^(?:C(?:[EOTFPMRSIDH]|HR)O|S?VP|EVP)$/i.test(w))) return null;
  // "Economic Model", "Intellectual Property": a given name does not have an adjective's shape.
  if (ADJECTIVE_SHAPE.test(capitalised[0])) return null;
  return words.join(" ");
}
const ADJECTIVE_SHAPE = /^\p{Lu}\p{Ll}{3,}(?:ical|tial|cial|ual|ional|tive|sive|ous|omic|etic|atic|istic|ific|able|ible|ful|less)$/u;

// A card may set the name in capitals: "JANE DOE" over "Co-founder / CEO".
const CAPS_NAME = /^(?:(?:PROF|DR)\.?\s+)*(\p{Lu}{2,}(?:['’-]\p{Lu}{2,})?(?:\s(?:VAN|VON|DE|DER|DA|DI|DU|LA|LE))*\s\p{Lu}{2,}(?:['’-]\p{Lu}+)?(?:\s\p{Lu}{2,})?)$/u;
const titleCase = (s: string) => s.toLowerCase().replace(/(^|[\s'’-])(\p{Ll})/gu, (_, a: string, b: string) => a + b.toUpperCase()).replace(/\b(Van|Von|De|Der|Da|Di|Du|La|Le)\b(?=\s)/g, (w) => w.toLowerCase());

/**
 * A given name alone on its line ("Daniel", "NAIMA"): one capitalised word that is no role's, no
 * department's, no slide's and no lead-in word, nor shaped like an adjective or a verb in -ing; else null.
 * (Only a card's layout can tell a given name from a word: deal-team.ts asks for one.)
 */
export function givenNameAlone(raw: string): string | null {
  const t = raw.replace(/[\uE000-\uF8FF]/g, "").trim();
  if (!/^(?:\p{Lu}\p{Ll}{2,13}|\p{Lu}{3,14})$/u.test(t)) return null;
  const word = t.charAt(0) + t.slice(1).toLowerCase();
  if (NOT_A_NAME.has(word) || LEAD_INS.has(word) || ADJECTIVE_SHAPE.test(word) || /ing$/.test(word) || isRole(t) || isRole(word)) return null;
  return word;
}

const MONTH = /^(?:January|February|March|April|May|June|July|August|September|October|November|December)$/;
/**
 * A given name alone in a column of given names ("JASON" / "YILING" / "JUNE"): there a month's name
 * or a word in -ing may be a person's; else as givenNameAlone. (The column decides: most of its
 * lines must be given names of no other word's shape.)
 */
export function givenNameInColumn(raw: string): string | null {
  const t = raw.trim();
  const word = t.charAt(0) + t.slice(1).toLowerCase();
  if (!/^(?:\p{Lu}\p{Ll}{2,13}|\p{Lu}{3,14})$/u.test(t)) return null;
  return MONTH.test(word) || (/ing$/.test(word) && !NOT_A_NAME.has(word) && !isRole(word)) ? word : givenNameAlone(raw);
}

/**
 * A name written family name first, a comma, then the given names ("Chan, Yao Ying"), alone on its
 * line: the name as written, else null. (Only a column of such lines tells it from "Place, Country".)
 */
export function invertedNameAlone(raw: string): string | null {
  const m = /^((?:\p{Lu}\p{Ll}+\s){0,2}\p{Lu}\p{Ll}+),\s*((?:\p{Lu}\p{Ll}+\s){0,2}\p{Lu}\p{Ll}+)$/u.exec(raw.trim());
  if (!m || !personName(`${m[2]} ${m[1]}`) || ORGANISATION.test(raw) || isRole(m[1]) || isRole(m[2])) return null;
  return `${m[1]}, ${m[2]}`;
}

/** A given and a family name (or both in capitals) alone on its line, an honorific or degree around it: the name, else null. */
export function nameAlone(raw: string): string | null {
  // An icon font's glyph beside the name (a LinkedIn or mail icon drawn as a private-use character) is no part of it.
  const text = raw.replace(/[\uE000-\uF8FF]/g, "").trim();
  // "<Name>, Malaysia": where a member is based, after a comma, is no part of the name (a role or an
  // organisation there is something else).
  const placed = /^(.+?),\s*(\p{Lu}\p{Ll}+(?:[\s-]\p{Lu}\p{Ll}+)?)$/u.exec(text.trim());
  if (placed && !isRole(placed[2]) && !ORGANISATION.test(placed[2]) && !NOT_TEAM_ROLE.test(placed[2]) && !NOT_A_NAME.has(placed[2])) return nameAlone(placed[1]);
  const m = NAME_ALONE.exec(text.trim());
  if (m) return personName(m.groups!.name);
  const caps = CAPS_NAME.exec(text.trim().replace(/[;:]$/, ""));
  // "WHO WE ARE", "THE ASK": a title in capitals, not a name.
  if (!caps || /\b(?:WE|ARE|IS|OF|AND|WHO|WHAT|WHY|HOW|OUR|THE|US|TO|FOR)\b/.test(caps[1])) return null;
  return personName(titleCase(caps[1]));
}
