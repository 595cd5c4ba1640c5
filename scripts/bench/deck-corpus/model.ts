// What a corpus deck says, and the labels a careful reader would write down for it. Written apart
// from the demo generator (src/demo/decks.ts) on purpose: other names, other phrasings, other
// number styles, and the distractors real decks carry (earlier rounds, customers' rounds, other
// people's money, valuations, advisors, investors, customers' people, projections).
import { rng, type Rng } from "../../../src/demo/rng.ts";

export type { Rng };

/** The corpus's randomness, seeded: the same corpus on every machine (the demo's generator's PRNG, not its content). */
export const seeded = rng;

export const SECTION_KEYS = ["team", "market", "product", "traction", "business_model", "competition", "financials", "round"] as const;
export type SectionKey = (typeof SECTION_KEYS)[number];

export type Labels = {
  company: string;
  /** Normalised: "pre-seed", "seed", "series a", "bridge", ... null when the deck names none. */
  stage: string | null;
  /** The raise in units, null when the deck states none (or only a range). */
  amount: number | null;
  currency: string | null;
  team: string[];
  sections: SectionKey[];
};

export type Person = { name: string; honorific: string; degree: string; role: string; bio: string };
export type Locale = "en" | "uk" | "de" | "fr" | "ch";

/** One company's deck content, before any layout. */
export type DeckModel = {
  id: string;
  company: string;
  domain: string;
  tagline: string;
  city: string;
  founded: number;
  locale: Locale;
  currency: string;
  /** The cover shows a logo, not the name: the name is only in prose. */
  nameOnlyInProse: boolean;
  team: Person[];
  advisors: Person[];
  investors: string[];
  has: Record<SectionKey, boolean>;
  problem: string[];
  product: string[];
  market: string[];
  traction: string[];
  testimonial: { quote: string; by: string } | null;
  model: string[];
  competition: { lines: string[]; rivals: string[] };
  financials: { lines: string[]; table: string[][] };
  round: { lines: string[]; kv: [string, string][]; useOfFunds: string[] } | null;
  /** Earlier rounds and other people's money, told wherever decks tell them. */
  history: string[];
  customersStage: string | null;
  labels: Labels;
};

const COMPANY_A = ["Lumora", "Kestrel", "Nordvolt", "Tessaly", "Quarrel", "Brindle", "Osmic", "Veltra", "Corvid", "Halden", "Sprig", "Marlo", "Tiderun", "Fennel", "Ostara", "Pylon", "Rivet", "Aurel", "Calyx", "Dovetail", "Ember", "Gantry", "Juniper", "Keel", "Lodestar", "Mirada", "Nimbus", "Orrery", "Parsec", "Quill", "Runnel", "Solenne", "Tamber", "Umbra", "Vireo", "Wyvern", "Xylo", "Yonder", "Zest", "Alpenlink", "Bergwerk", "Cirrus", "Deltaflow", "Eisvogel", "Flintlock", "Glimmer", "Heron", "Isarwerk"];
const COMPANY_B = ["", "", "", "Grid", "Labs", "Health", "Bio", "Systems", "AI", "Robotics", "Pay", "Works", "Energy", "Logistics", "Analytics", "Security", "Care", "Metrics"];
const FIRST = ["Anna", "Lukas", "Sophie", "Jonas", "Camille", "Mathis", "Léa", "Pieter", "Saskia", "Matteo", "Giulia", "Aleksander", "Zofia", "Henrik", "Ingrid", "Mehmet", "Elif", "Arjun", "Meera", "Kenji", "Yuki", "Chidi", "Ngozi", "Tomás", "Inés", "Oisín", "Siobhan", "Rafael", "Beatriz", "Nils", "Freya", "Anna-Lena", "Jean-Marc", "Zoë", "Dmitri", "Olga", "Hamza", "Leila", "Ethan", "Charlotte"];
const LAST = ["Keller", "Brunner", "Dubois", "Lefèvre", "Janssen", "de Vries", "van der Meer", "Rossi", "Bianchi", "Nowak", "Kowalczyk", "Lindqvist", "Halvorsen", "Yilmaz", "Demir", "Iyer", "Kapoor", "Tanaka", "Watanabe", "Okonkwo", "Eze", "García", "Fernández", "O'Neill", "Murphy", "Costa", "Almeida", "Berg", "Sørensen", "Müller", "Schäfer", "Moreau", "Fontaine", "Petrov", "Ivanova", "Haddad", "Mansour", "Clarke", "Whitaker", "Ashworth"];
const ROLES_FOUNDER = ["CEO & Co-founder", "Co-founder & CEO", "Founder & CEO", "Co-founder, CEO", "Chief Executive Officer", "Founder, Managing Director", "CEO"];
const ROLES_TECH = ["CTO & Co-founder", "Co-founder & CTO", "Chief Technology Officer", "CTO", "Co-founder, Chief Science Officer", "Chief Scientific Officer"];
const ROLES_OTHER = ["COO", "Chief Operating Officer", "Co-founder & CPO", "Chief Product Officer", "Head of Growth", "VP Engineering", "Head of Sales", "Chief Commercial Officer", "Head of Partnerships", "Clinical Lead", "Founding Engineer", "Lead Data Scientist", "Head of Operations", "CFO", "General Counsel", "Head of Product"];
const ALMA = ["ETH Zurich", "TU Munich", "INSEAD", "Oxford", "Imperial College", "EPFL", "Sciences Po", "KTH", "Bocconi", "TU Delft"];
const FORMER = ["Google", "Siemens", "Zalando", "N26", "Revolut", "SAP", "McKinsey", "BCG", "Spotify", "Adyen", "Roche", "Novartis", "Airbus", "Booking.com", "Klarna"];
const CITIES = ["Zurich", "Berlin", "Munich", "Paris", "Lyon", "Amsterdam", "Copenhagen", "Vienna", "Geneva", "Lisbon", "Milan", "Warsaw", "Dublin", "London", "Stockholm"];
const FUNDS = ["Alpine Peak Ventures", "Northstar Capital", "Redwood Angels", "Blue Lake Partners", "Seedcamp", "Point Nine", "Helvetic Ventures", "Cobalt Fund", "Fjord Capital", "Atlas Seed"];
const CUSTOMERS = ["Brightwave", "Hollis Group", "Medora Clinics", "Castellan Foods", "Aldwych Retail", "Vantor Freight", "Orbis Insurance", "Kessler AG"];

type Sector = { what: string; who: string; unit: string; rivals: string[]; problem: string; suffix: string[] };
const SECTORS: Sector[] = [
  { what: "treasury automation", who: "mid-market CFOs", unit: "entity", rivals: ["Kyriba", "spreadsheets"], problem: "Finance teams still reconcile cash across 12 banks by hand, every single week.", suffix: ["Pay", ""] },
  { what: "remote patient monitoring", who: "cardiology clinics", unit: "patient", rivals: ["BioTelemetry", "in-clinic visits"], problem: "Heart-failure patients are readmitted within 30 days far too often.", suffix: ["Health", "Care"] },
  { what: "grid-scale battery scheduling", who: "utilities and storage owners", unit: "MWh", rivals: ["Fluence", "in-house trading desks"], problem: "Batteries earn a fraction of what they could because dispatch is planned a day ahead.", suffix: ["Grid", "Energy"] },
  { what: "contract review with AI", who: "in-house legal teams", unit: "seat", rivals: ["Kira", "outside counsel"], problem: "Lawyers lose a third of their week to first-pass contract review.", suffix: ["AI", "Labs"] },
  { what: "freight visibility", who: "shippers and forwarders", unit: "shipment", rivals: ["project44", "phone calls"], problem: "Shippers find out about late trucks when their customers complain.", suffix: ["Logistics", ""] },
  { what: "identity threat detection", who: "security teams", unit: "employee", rivals: ["CrowdStrike", "manual audits"], problem: "Most breaches start with a stolen login that nobody notices for weeks.", suffix: ["Security", ""] },
  { what: "warehouse picking robots", who: "3PL warehouses", unit: "robot", rivals: ["Locus Robotics", "manual picking"], problem: "Warehouse pickers walk up to 15 km per shift and turnover is high.", suffix: ["Robotics", "Works"] },
  { what: "lab-grown enzymes", who: "food manufacturers", unit: "tonne", rivals: ["Novozymes", "animal-derived enzymes"], problem: "Food producers depend on animal-derived enzymes with volatile prices.", suffix: ["Bio", ""] },
  { what: "construction scheduling", who: "general contractors", unit: "site", rivals: ["Procore", "whiteboards"], problem: "Large building projects run late because schedules live in spreadsheets.", suffix: ["Works", ""] },
  { what: "revenue analytics", who: "B2B SaaS companies", unit: "seat", rivals: ["ChartMogul", "BI consultants"], problem: "Revenue teams argue about which numbers are right every Monday.", suffix: ["Analytics", "Metrics"] },
];

// ---- money as decks in each locale write it ----

const SYMBOL: Record<string, string> = { USD: "$", EUR: "€", GBP: "£", CHF: "CHF" };

/** One way to write an amount, in the locale's style. */
export function writeMoney(r: Rng, amount: number, currency: string, locale: Locale): string {
  const m = amount / 1e6;
  const sym = SYMBOL[currency];
  const dec = (x: number, sep: string) => {
    const s = Number.isInteger(x) ? String(x) : String(Math.round(x * 100) / 100);
    return s.replace(".", sep);
  };
  const group = (n: number, sep: string) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, sep);
  const small = amount < 1e6;
  const k = amount / 1e3;
  if (amount >= 1e9) {
    const b = amount / 1e9;
    const options = {
      en: [`${sym}${dec(b, ".")}B`, `${sym}${dec(b, ".")}bn`, `${dec(b, ".")} billion ${currency}`, `${sym}${dec(b, ".")} billion`],
      uk: [`£${dec(b, ".")}bn`, `£${dec(b, ".")} billion`, `GBP ${dec(b, ".")}bn`],
      de: [`${dec(b, ",")} Mrd. €`, `€${dec(b, ",")} Mrd.`, `EUR ${dec(b, ",")} Mrd.`],
      fr: [`${dec(b, ",")} Md€`, `${dec(b, ",")} milliards d'euros`, `EUR ${dec(b, ",")} Mrd`],
      ch: [`CHF ${dec(b, ".")} Mrd.`, `CHF ${dec(b, ".")}bn`, `${dec(b, ".")} Mrd. CHF`],
    }[locale];
    return r.pick(options);
  }
  switch (locale) {
    case "de":
      return r.pick(
        small
          ? [`${group(amount, ".")} €`, `EUR ${group(amount, ".")}`, `${dec(k, ",")} Tsd. €`]
          : [`${dec(m, ",")} Mio. €`, `EUR ${dec(m, ",")} Mio.`, `${group(amount, ".")} €`, `€${dec(m, ",")} Mio`, `${dec(m, ",")} Mio. EUR`],
      );
    case "fr":
      return r.pick(small ? [`${group(amount, "\u00a0")} €`, `${dec(k, ",")} k€`] : [`${dec(m, ",")} M€`, `${group(amount, " ")} €`, `${dec(m, ",")} millions d'euros`, `EUR ${dec(m, ",")} M`]);
    case "ch":
      return r.pick(small ? [`CHF ${group(amount, "'")}`, `CHF ${dec(k, ".")}k`] : [`CHF ${dec(m, ".")} Mio.`, `CHF ${group(amount, "'")}`, `${dec(m, ".")} Mio. CHF`, `CHF ${dec(m, ".")} million`, `CHF ${dec(m, ".")}M`]);
    case "uk":
      return r.pick(small ? [`£${dec(k, ".")}K`, `£${group(amount, ",")}`, `GBP ${dec(k, ".")}k`] : [`£${dec(m, ".")}m`, `£${group(amount, ",")}`, `GBP ${dec(m, ".")} million`, `£${dec(m, ".")} million`]);
    default:
      return r.pick(
        small
          ? [`${sym}${dec(k, ".")}K`, `${sym}${group(amount, ",")}`, `${currency} ${dec(k, ".")}k`, `${group(amount, ",")} ${currency === "EUR" ? "euros" : "USD"}`]
          : [`${sym}${dec(m, ".")}M`, `${sym}${group(amount, ",")}`, `${currency} ${dec(m, ".")} million`, `${sym}${dec(m, ".")}m`, `${sym}${dec(m, ".")}MM`, `${dec(m, ".")} million ${currency}`, `${sym}${dec(m, ".")} mn`],
      );
  }
}

/** A range as decks write one: "$2–3M", "2–3 Mio. €", "CHF 2-3 Mio.", "£2m to £3m". */
function writeRange(lo: number, hi: number, currency: string, locale: Locale): string {
  const m = (x: number, sep = ".") => String(Math.round((x / 1e6) * 10) / 10).replace(".", sep);
  if (locale === "de" || locale === "fr") return `${m(lo, ",")}–${m(hi, ",")} Mio. €`;
  if (locale === "ch") return `CHF ${m(lo)}-${m(hi)} Mio.`;
  if (locale === "uk") return `£${m(lo)}m to £${m(hi)}m`;
  return `${SYMBOL[currency]}${m(lo)}–${m(hi)}M`;
}

const STAGES = [
  { key: "pre-seed", spellings: ["Pre-Seed", "pre-seed", "Pre-seed", "Preseed"], range: [0.3, 1.5] },
  { key: "seed", spellings: ["Seed", "seed", "SEED"], range: [1, 5] },
  { key: "series a", spellings: ["Series A", "Series-A", "Serie A", "series A"], range: [5, 20] },
  { key: "series b", spellings: ["Series B", "Series-B", "Serie B"], range: [15, 50] },
  { key: "bridge", spellings: ["bridge", "Bridge"], range: [0.5, 3] },
] as const;

const nice = (r: Rng, lo: number, hi: number) => {
  const x = lo + (hi - lo) * r.next();
  const step = x < 1 ? 0.05 : x < 10 ? r.pick([0.25, 0.5, 0.1]) : 1;
  return Math.round(Math.round(x / step) * step * 1e6);
};

function person(r: Rng, used: Set<string>, role: string): Person {
  let name = "";
  while (!name || used.has(name)) name = `${r.pick(FIRST)} ${r.pick(LAST)}`;
  used.add(name);
  const honorific = r.chance(0.15) ? r.pick(["Dr.", "Dr.", "Prof. Dr.", "Dipl.-Ing."]) : "";
  const degree = !honorific && r.chance(0.12) ? r.pick(["PhD", "MBA", "MD"]) : "";
  const bio = r.pick([`ex-${r.pick(FORMER)}, ${r.int(6, 15)} years in the field`, `previously at ${r.pick(FORMER)}`, `PhD from ${r.pick(ALMA)}`, `built and sold a startup to ${r.pick(FORMER)}`, `${r.int(5, 20)} years at ${r.pick(FORMER)}`]);
  return { name, honorific, degree, role, bio };
}

/** A person as decks write them: "Dr. Anna Keller", "Anna Keller, PhD". */
export const displayName = (p: Person) => `${p.honorific ? `${p.honorific} ` : ""}${p.name}${p.degree ? `, ${p.degree}` : ""}`;

export function deckModel(seed: number, index: number): DeckModel {
  const r = seeded(seed * 7919 + index * 104729);
  const sector = SECTORS[index % SECTORS.length];
  const base = COMPANY_A[(index * 7 + seed) % COMPANY_A.length];
  const suffix = r.pick([...COMPANY_B, ...sector.suffix]);
  const company = suffix && r.chance(0.5) ? `${base} ${suffix}` : suffix && r.chance(0.5) ? `${base}${suffix}` : base;
  const slug = company.toLowerCase().replace(/[^a-z0-9]/g, "");
  const locale: Locale = r.pick(["en", "en", "uk", "de", "fr", "ch", "en"]);
  const currency = { en: r.pick(["USD", "USD", "EUR"]), uk: "GBP", de: "EUR", fr: "EUR", ch: "CHF" }[locale];
  const domain = `${r.chance(0.15) ? "get" : ""}${slug}.${r.pick(locale === "ch" ? ["ch", "com"] : locale === "de" ? ["de", "io", "com"] : locale === "fr" ? ["fr", "io"] : ["com", "io", "ai"])}`;
  const city = r.pick(CITIES);
  const founded = r.int(2016, 2024);
  const money = (amount: number) => writeMoney(r, amount, currency, locale);

  const has: Record<SectionKey, boolean> = {
    team: r.chance(0.8),
    market: r.chance(0.7),
    product: r.chance(0.75),
    traction: r.chance(0.7),
    business_model: r.chance(0.6),
    competition: r.chance(0.6),
    financials: r.chance(0.55),
    round: r.chance(0.85),
  };

  const used = new Set<string>();
  const size = r.int(2, 4);
  const team = [person(r, used, r.pick(ROLES_FOUNDER)), person(r, used, r.pick(ROLES_TECH)), ...Array.from({ length: size - 2 }, () => person(r, used, r.pick(ROLES_OTHER)))];
  const advisors = r.chance(0.5)
    ? Array.from({ length: r.int(1, 2) }, () => person(r, used, r.pick([`Former CFO of ${r.pick(FORMER)}`, `Former CTO, ${r.pick(FORMER)}`, `Professor at ${r.pick(ALMA)}`, `Partner at ${r.pick(FUNDS)}`])))
    : [];
  const investors = r.chance(0.5) ? [r.pick(FUNDS), r.pick(FUNDS)].filter((v, i, a) => a.indexOf(v) === i) : [];

  const stage = r.pick(STAGES);
  const amount = nice(r, stage.range[0], stage.range[1]);
  const stageWord = r.pick(stage.spellings);
  const named = r.chance(0.85); // the raise names its stage
  const ranged = r.chance(0.05); // "€2-3M": a range, no single amount
  const amountText = ranged ? writeRange(amount, Math.round(amount * 1.5), currency, locale) : money(amount);
  const preMoney = Math.round(amount * r.int(3, 6));
  const lead = r.pick(FUNDS);
  const milestone = r.pick(["reach €3M ARR", "launch in the US", "get CE marking", "scale to 200 customers", "hire 15 engineers", "reach break-even"]);
  const st = named ? stageWord : "";
  const roundPhrases = [
    `We are raising ${amountText}${st ? ` in a ${st} round` : ""} to ${milestone}.`,
    `We are looking for ${amountText} to close our ${st || "current"} round.`,
    `Total round size ${amountText}${st ? ` (${st})` : ""}`,
    `Seeking ${amountText}${st ? ` ${st} funding` : ""} to ${milestone}.`,
    `The ask: ${amountText}${st ? ` ${st}` : ""}`,
    `Total Required Investment is ${amountText}.`,
    `${st ? `${st} round: ` : "Round size: "}${amountText}, of which ${money(Math.round(amount * 0.4))} is already committed.`,
    `We're opening a ${amountText}${st ? ` ${st}` : ""} round, with ${lead} in the lead.`,
    `Funding need: ${amountText}${st ? ` (${st})` : ""} over the next 18 months.`,
    `Our ${st || "current"} raise: ${amountText} to ${milestone}.`,
    `Raising ${amountText}${st ? ` ${st}` : ""} at a ${money(preMoney)} pre-money valuation.`,
    `Investment opportunity: a ${amountText}${st ? ` ${st}` : ""} financing on a SAFE.`,
  ];
  const roundLine = r.pick(roundPhrases);
  const statesStage = named && roundLine.includes(st) && !!st;
  const useOfFunds = [`${r.int(40, 60)}% product and engineering`, `${r.int(20, 35)}% sales and marketing`, `${r.int(5, 15)}% operations`];
  const round = has.round
    ? {
        lines: [roundLine, ...(r.chance(0.5) && !roundLine.includes("pre-money") ? [`Pre-money valuation: ${money(preMoney)}.`] : [])],
        kv: [
          ...(statesStage ? ([["Round", stageWord]] as [string, string][]) : []),
          ["Amount", amountText] as [string, string],
          ["Instrument", r.pick(["Equity", "SAFE", "Convertible note"])] as [string, string],
          ["Pre-money", money(preMoney)] as [string, string],
        ],
        useOfFunds,
      }
    : null;

  // Earlier rounds and other people's money: never this round.
  const prevAmount = nice(r, 0.2, 1.2);
  const history = [
    r.pick([`Previously raised ${money(prevAmount)} pre-seed from angels.`, `In ${founded + 1} we closed a ${money(prevAmount)} pre-seed led by ${r.pick(FUNDS)}.`, `Total funding to date: ${money(prevAmount)}.`, `Backed by ${r.pick(FUNDS)}, who led our ${money(prevAmount)} angel round.`]),
  ];
  const customersStage = r.chance(0.4) ? r.pick([`Our customers are Series B to D scale-ups.`, `We sell to seed-stage and Series A startups first.`, `Most of our clients raised a Series A in the last two years.`]) : null;
  const othersMoney = r.chance(0.3) ? r.pick([`Our customers raised over ${money(nice(r, 50, 400))} from their investors last year.`, `We help SMEs raise up to ${money(500_000)} in working capital.`]) : null;

  const arr = nice(r, 0.2, 4);
  const customers = r.int(8, 140);
  const growth = r.int(8, 25);
  const tam = r.int(5, 60);
  const cagr = r.int(8, 30);
  const price = r.int(20, 900);
  const margin = r.int(60, 85);
  const burn = nice(r, 0.05, 0.6);
  const runway = r.int(10, 28);
  const year = 2025;

  const nameOnlyInProse = r.chance(0.12);
  const problem = [
    sector.problem,
    r.pick([`Existing tools were built for a different era.`, `The status quo is slow, manual and error-prone.`]),
    ...(nameOnlyInProse ? [`That is why we started ${company} in ${founded}.`] : []),
  ];
  const product = r.pick([
    [`${company} is a ${sector.what} platform for ${sector.who}.`, `It connects to existing systems in minutes and automates the manual steps.`, `Launched in ${Math.max(founded + 1, 2022)}; live in ${r.int(3, 12)} countries.`],
    [`Our product automates ${sector.what} end to end.`, `A cloud dashboard and an open API, with ${r.int(10, 60)} integrations.`, `Patent-pending scheduling engine.`],
    [`At ${company}, we built the first ${sector.what} system designed for ${sector.who}.`, `Our app runs on any device and needs no on-site hardware.`],
  ]);
  const market = r.pick([
    [`TAM ${money(tam * 1e9)}, SAM ${money(Math.round(tam / 4) * 1e9)}, SOM ${money(Math.round(tam * 40) * 1e6)}.`, `The market grows ${cagr}% a year (CAGR).`],
    [`${sector.what[0].toUpperCase()}${sector.what.slice(1)} is a ${money(tam * 1e9)} market growing at ${cagr}% CAGR.`, `Europe alone accounts for a third of global demand.`],
    [`A ${money(tam * 1e9)} opportunity across Europe and North America.`, `Regulation is pushing demand: the market doubles by 2030.`],
  ]);
  const traction = r.pick([
    [`ARR ${money(arr)}, up ${growth}% month over month.`, `${customers} paying customers, net revenue retention ${r.int(105, 140)}%.`],
    [`${customers} customers and ${money(arr)} in annual recurring revenue.`, `${r.int(2, 6)} signed LOIs with enterprise accounts.`],
    [`Revenue grew ${r.int(2, 5)}x in ${year - 1}.`, `${r.int(3, 12)} paid pilots, ${r.int(1, 4)} converted to annual contracts.`],
    [`${customers * 100} active users, ${growth}% monthly growth.`, `Logos include ${r.pick(CUSTOMERS)} and ${r.pick(CUSTOMERS)}.`],
  ]);
  const testimonial = has.traction && r.chance(0.35)
    ? { quote: r.pick([`“It cut our month-end close from ten days to three.”`, `“The first tool my team actually asked for.”`, `“We saw the payback in one quarter.”`]), by: `${r.pick(FIRST)} ${r.pick(LAST)}, ${r.pick(["CFO", "Head of Operations", "COO", "CTO"])} at ${r.pick(CUSTOMERS)}` }
    : null;
  const model = r.pick([
    [`SaaS subscription: ${money(price * 1000).replace(/\.0+\b/, "")} per ${sector.unit} per year.`, `Gross margin ${margin}% today.`],
    [`Annual licence per site, priced from ${money(price * 100)}.`, `Implementation fee covers onboarding.`],
    [`Usage-based pricing: we charge per ${sector.unit}, with annual minimums.`, `CAC payback ${r.int(6, 18)} months, LTV/CAC ${r.int(3, 7)}x.`],
    [`We take a ${r.int(1, 4)}% fee on every transaction.`, `Freemium entry plan, paid tiers for teams.`],
  ]);
  const competition = {
    rivals: sector.rivals,
    lines: r.pick([
      [`Unlike ${sector.rivals[0]}, we are built for ${sector.who}.`, `${sector.rivals[1][0].toUpperCase()}${sector.rivals[1].slice(1)} remain the main alternative.`],
      [`Competitors: ${sector.rivals.join(", ")} and a long tail of consultancies.`, `Our moat is proprietary data from every deployment.`],
      [`${sector.rivals[0]} focuses on large enterprises; we win on time to value.`, `No incumbent offers real-time ${sector.what}.`],
    ]),
  };
  const years = [year, year + 1, year + 2, year + 3, year + 4];
  const revenues = years.map((_, i) => Math.round(arr * Math.pow(2.6, i + 1)));
  const financials = {
    lines: r.pick([
      [`Monthly burn ${money(burn)}; runway of ${runway} months.`, `Break-even expected in ${year + 3}.`],
      [`We plan revenue of ${money(revenues[2])} in ${years[2]} with a positive EBITDA in ${years[3]}.`, `Current runway: ${runway} months.`],
      [`Five-year plan: revenue reaches ${money(revenues[4])} by ${years[4]}.`, `Projected gross margin ${margin + 5}% by ${years[3]}.`],
    ]),
    table: [
      ["", ...years.slice(0, 4).map(String)],
      ["Revenue", ...revenues.slice(0, 4).map((v) => money(v))],
      ["EBITDA", ...revenues.slice(0, 4).map((v, i) => (i < 2 ? `-${money(Math.round(v * 0.6))}` : money(Math.round(v * 0.1 * i))))],
      ["Gross margin", ...[margin, margin + 2, margin + 4, margin + 5].map((v) => `${v}%`)],
    ],
  };

  const labels: Labels = {
    company,
    stage: has.round && statesStage ? stage.key : null,
    amount: has.round && !ranged ? amount : null,
    currency: has.round ? currency : null,
    team: has.team ? team.map((p) => p.name) : [],
    sections: SECTION_KEYS.filter((k) => has[k]),
  };
  return {
    id: `deck-${String(index).padStart(3, "0")}`,
    company,
    domain,
    tagline: `${sector.what[0].toUpperCase()}${sector.what.slice(1)} for ${sector.who}`,
    city,
    founded,
    locale,
    currency,
    nameOnlyInProse,
    team,
    advisors,
    investors,
    has,
    problem,
    product,
    market,
    traction,
    testimonial,
    model,
    competition,
    financials,
    round,
    history: [...history, ...(othersMoney ? [othersMoney] : [])],
    customersStage,
    labels,
  };
}
