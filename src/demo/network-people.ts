// The people a venture firm's partners deal with, for the generated demo network: founders and
// their teams at startups (each with a sector), co-investors, limited partners, lawyers and
// bankers, operators at larger companies, and angels on free-mail addresses. Deterministic for a
// seed; every name, domain and LinkedIn URL is made up.
import { rng, type Rng } from "./rng.ts";


export type Kind = "founder" | "startup" | "investor" | "lp" | "advisor" | "operator" | "angel";

export type Company = { name: string; domain: string; kind: "startup" | "fund" | "lp" | "firm" | "corporate"; sector: string | null };

export type Person = {
  name: string;
  email: string;
  /** A second address (personal mail) some address books hold too. */
  altEmail: string | null;
  title: string;
  company: string | null;
  linkedinUrl: string | null;
  location: string;
  kind: Kind;
};

const FIRST = [
  "Aaliyah", "Aarav", "Abigail", "Adrian", "Aisha", "Alejandro", "Alexei", "Amara", "Amelia", "Anders", "Andrea", "Anika", "Arjun",
  "Astrid", "Ben", "Bianca", "Camille", "Carlos", "Chiara", "Chloe", "Dario", "David", "Deepa", "Diego", "Elif", "Eliza", "Emeka",
  "Emil", "Emma", "Ethan", "Fatima", "Femi", "Freya", "Gabriel", "Hana", "Hugo", "Ines", "Isaac", "Ivan", "Jade", "Jakob", "Jamal",
  "James", "Javier", "Jin", "Julia", "Kai", "Karan", "Katarina", "Kenji", "Laila", "Lars", "Laura", "Leo", "Lina", "Lucas", "Luis",
  "Mateo", "Mei", "Mia", "Mikhail", "Nadia", "Naomi", "Nikhil", "Nina", "Olivia", "Oscar", "Paolo", "Paula", "Rafael", "Rania",
  "Rohan", "Rosa", "Ruth", "Sam", "Sara", "Sean", "Sienna", "Simone", "Sven", "Tariq", "Tessa", "Theo", "Uma", "Valentina", "Victor",
  "Wei", "Yara", "Yusuf", "Zara", "Zoë", "José", "Björn", "Chloé", "Łukasz", "Søren",
];
const LAST = [
  "Abara", "Achterberg", "Ahmed", "Albrecht", "Alvarez", "Andersen", "Bauer", "Becker", "Bhatt", "Blackwood", "Bose", "Caldwell",
  "Carvalho", "Chang", "Choi", "Costa", "Dahl", "Das", "Dubois", "Dunn", "Eriksen", "Espinoza", "Farouk", "Ferrari", "Fitzgerald",
  "Fontaine", "Garcia", "Goldberg", "Gupta", "Hansen", "Hayes", "Herrera", "Hoffmann", "Hughes", "Ibrahim", "Iyer", "Jansen",
  "Jensen", "Kapoor", "Keller", "Khan", "Kim", "Klein", "Kumar", "Larsen", "Lee", "Lehmann", "Lopez", "Malik", "Marino", "Martin",
  "Mehta", "Meyer", "Moretti", "Murphy", "Nair", "Nguyen", "Nielsen", "Nowak", "O'Brien", "Oliveira", "Ortiz", "Park", "Patel",
  "Petrov", "Quinn", "Ramos", "Reyes", "Ricci", "Rossi", "Santos", "Schmidt", "Schneider", "Shah", "Silva", "Singh", "Sørensen",
  "Suzuki", "Tanaka", "Thompson", "Torres", "Van Dijk", "Vogel", "Wagner", "Walsh", "Weber", "Wong", "Yamamoto", "Yilmaz", "Zhang",
  "Zimmermann", "Müller", "Núñez", "García",
];
const CITIES = [
  "San Francisco, CA, USA", "New York, NY, USA", "Boston, MA, USA", "Austin, TX, USA", "Seattle, WA, USA", "London, United Kingdom",
  "Berlin, Germany", "Paris, France", "Amsterdam, Netherlands", "Stockholm, Sweden", "Copenhagen, Denmark", "Zurich, Switzerland",
  "Tel Aviv, Israel", "Toronto, ON, Canada", "Bangalore, India", "Singapore", "Lisbon, Portugal", "Munich, Germany", "Dublin, Ireland",
  "Los Angeles, CA, USA",
];
// Startup sectors, as a founder would describe the company in a title line.
const SECTORS = [
  "fintech infrastructure", "B2B payments", "embedded lending", "insurtech", "digital health", "AI diagnostics", "clinical trials software",
  "climate: grid batteries", "carbon accounting", "EV charging", "AI agents for support", "machine learning infrastructure",
  "developer tools", "observability", "cloud security", "identity and fraud", "vertical SaaS for construction", "HR tech", "B2B marketplaces",
  "e-commerce logistics", "supply chain software", "edtech", "proptech", "industrial robotics", "consumer social", "creator tools",
];
const STEMS = ["Ledger", "Tessel", "Bright", "Nimbus", "Quill", "Harbor", "Vector", "Lumen", "Cobalt", "Arbor", "Pivot", "Kinetic", "Atlas", "Meridian", "Sable", "Verity", "Orbit", "Fable", "Helix", "Juniper", "Crest", "Flux", "Nova", "Prism", "Relay", "Summit", "Tandem", "Umbra", "Wren", "Zephyr", "Cinder", "Drift", "Ember", "Fathom", "Grove", "Halo", "Iris", "Keel", "Lattice", "Mosaic"];
const ENDINGS = ["ly", "io", "ify", "labs", "stack", "works", "base", "loop", "grid", "wise", "path", "hub", "sense", "scale", "mint", "forge"];
const FUND_WORDS = ["Capital", "Ventures", "Partners", "Growth", "Fund"];
const FUND_STEMS = ["Redwood", "Granite", "Bluewater", "Ironbridge", "Lakeshore", "Silverline", "Kestrel", "Pinecrest", "Ashford", "Highland", "Westbrook", "Stonegate", "Clearwater", "Maple", "Beacon", "Falcon", "Horizon", "Oakmont", "Sterling", "Summit Peak"];
const LPS = ["State Teachers' Pension", "Ridgeview University Endowment", "Hollis Family Office", "Marlow Foundation", "Nordic Pension Fund", "Caldera Fund of Funds", "Amberly Insurance", "Whitlock Family Office"];
const FIRMS = ["Hart & Keller LLP", "Abara Quinn LLP", "Meridian Bank", "Fontaine Advisory", "Lakeshore Accounting", "Vogel & Partners"];
const CORPS = ["Globex", "Initech", "Umbrella Systems", "Hooli", "Stark Industrial", "Wayne Logistics", "Acme Cloud", "Soylent Foods"];

const FOUNDER_TITLES = ["Co-founder & CEO", "Founder & CEO", "Co-founder & CTO", "Co-founder & COO", "Founder"];
const STARTUP_TITLES = ["VP Engineering", "Head of Growth", "Head of Product", "CFO", "Head of Sales", "Chief of Staff", "VP Marketing"];
const INVESTOR_TITLES = ["Partner", "General Partner", "Principal", "Managing Director", "Associate", "Venture Partner"];
const LP_TITLES = ["Director, Private Markets", "Investment Officer", "Head of Venture Investments", "Managing Director", "Principal"];
const ADVISOR_TITLES = ["Partner", "Senior Associate", "Managing Director", "Counsel", "Director"];
const OPERATOR_TITLES = ["VP Corporate Development", "Head of Partnerships", "Director of Engineering", "SVP Product", "Chief Strategy Officer"];

export const slug = (s: string) => s.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/ø/g, "o").replace(/ł/g, "l").replace(/[^a-z0-9]+/g, "");

function companies(r: Rng, startups: number): Company[] {
  const out: Company[] = [];
  const used = new Set<string>();
  const add = (name: string, kind: Company["kind"], tld: string, sector: string | null) => {
    let domain = `${slug(name)}.${tld}`;
    for (let i = 2; used.has(domain); i++) domain = `${slug(name)}${i}.${tld}`;
    used.add(domain);
    out.push({ name, domain, kind, sector });
  };
  for (let i = 0; i < startups; i++) {
    let name: string;
    do name = r.pick(STEMS) + r.pick(ENDINGS);
    while (used.has(name) && used.size < STEMS.length * ENDINGS.length);
    used.add(name);
    add(name[0].toUpperCase() + name.slice(1), "startup", r.pick(["com", "io", "ai", "co"]), r.pick(SECTORS));
  }
  for (const stem of FUND_STEMS) add(`${stem} ${r.pick(FUND_WORDS)}`, "fund", r.pick(["vc", "com", "capital"]), null);
  for (const lp of LPS) add(lp, "lp", r.pick(["org", "com"]), null);
  for (const f of FIRMS) add(f, "firm", "com", null);
  for (const c of CORPS) add(c, "corporate", "com", null);
  return out;
}

/**
 * A universe of about `size` people at generated companies (roughly: half startup founders and
 * teams, the rest investors, LPs, advisors, operators and angels). Emails are unique.
 */
export function generatePeople(seed: number, size: number): { people: Person[]; companies: Company[] } {
  const r = rng(seed);
  const comps = companies(r, Math.max(20, Math.round(size / 5)));
  const people: Person[] = [];
  const emails = new Set<string>();
  const make = (kind: Kind, company: Company | null, title: string) => {
    const first = r.pick(FIRST);
    const last = r.pick(LAST);
    const [f, l] = [slug(first), slug(last)];
    const domain = company ? company.domain : r.pick(["gmail.com", "outlook.com", "icloud.com", "proton.me"]);
    const style = r.int(0, 2);
    let local = company ? [f, `${f}.${l}`, `${f[0]}${l}`][style] : `${f}.${l}`;
    if (emails.has(`${local}@${domain}`)) local = `${f}.${l}`;
    for (let i = 2; emails.has(`${local}@${domain}`); i++) local = `${f}.${l}${i}`;
    const email = `${local}@${domain}`;
    emails.add(email);
    const sectorNote = kind === "founder" && company?.sector ? ` (${company.sector})` : "";
    people.push({
      name: `${first} ${last}`,
      email,
      altEmail: company && r.chance(0.12) ? `${f}${l}${r.int(1, 99)}@gmail.com` : null,
      title: `${title}${sectorNote}`,
      company: company?.name ?? null,
      linkedinUrl: r.chance(0.75) ? `https://www.linkedin.com/in/${f}-${l}-${r.int(0x1000, 0xffff).toString(16)}` : null,
      location: r.pick(CITIES),
      kind,
    });
  };
  while (people.length < size) {
    const c = r.pick(comps);
    if (c.kind === "startup") {
      make("founder", c, r.pick(FOUNDER_TITLES));
      if (r.chance(0.6)) make("founder", c, r.pick(FOUNDER_TITLES.slice(2)));
      if (r.chance(0.5)) make("startup", c, r.pick(STARTUP_TITLES));
    } else if (c.kind === "fund") make("investor", c, r.pick(INVESTOR_TITLES));
    else if (c.kind === "lp") make("lp", c, r.pick(LP_TITLES));
    else if (c.kind === "firm") make("advisor", c, r.pick(ADVISOR_TITLES));
    else make("operator", c, r.pick(OPERATOR_TITLES));
    if (r.chance(0.05)) make("angel", null, r.pick(["Angel investor", "Founder & angel investor", "Advisor"]));
  }
  return { people: people.slice(0, size), companies: comps };
}

/** The chief executive of a company in the firm's deal flow, as an address book holds them (title "CEO" or "Co-founder & CEO"). */
export function pipelineFounder(r: Rng, company: { name: string; domain: string }): Person {
  const [first, last] = [r.pick(FIRST), r.pick(LAST)];
  return {
    name: `${first} ${last}`,
    email: `${slug(first)}@${company.domain}`,
    altEmail: null,
    title: r.chance(0.5) ? "CEO" : "Co-founder & CEO",
    company: company.name,
    linkedinUrl: null,
    location: r.pick(CITIES),
    kind: "founder",
  };
}
