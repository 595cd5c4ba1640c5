// What each blind deck says, before any layout: slides of blocks, and its labels. Written from how
// founders and GPs write decks (and the traps they leave for a reader), not from any reader's code.
import { money, moneyRange, niceAmount, num, type Locale } from "./money.ts";
import type { BlindLabels, SectionKey, Stage } from "./labels.ts";
import type { Rand } from "./rng.ts";

export type Person = { name: string; title: string; bio: string };
export type Block =
  | { t: "text"; text: string; size?: "lg" | "md" | "sm" }
  | { t: "bullets"; items: string[] }
  | { t: "people"; heading?: string; people: Person[]; photos: boolean; columns: number }
  | { t: "table"; title?: string; rows: string[][] }
  | { t: "chart"; title: string; xs: string[]; ys: number[]; labels: string[]; yTicks: string[]; yLabel: string }
  | { t: "quote"; text: string; by: string }
  | { t: "logos"; heading: string; names: string[] }
  | { t: "kpis"; items: { value: string; label: string }[] }
  | { t: "kv"; rows: [string, string][] };
export type Slide = { title: string; blocks: Block[]; key: string };
export type Cover = { name: string; logo: "text" | "letterspaced" | "none"; tagline: string; lines: string[] };
export type Voice = "yc" | "consultant" | "european" | "deeptech" | "marketplace" | "saas" | "biotech" | "fund";
export type DeckDoc = { id: string; voice: Voice; locale: Locale; cover: Cover; slides: Slide[]; domain: string | null; labels: Omit<BlindLabels, "filename" | "format" | "style"> };

// ---- names (all in the PDF standard fonts' WinAnsi range) ----
const FIRST = ["Ana", "Björn", "Chiara", "Dario", "Elena", "Farah", "Gustav", "Hanna", "Ibrahim", "Jule", "Kai", "Laura", "Malte", "Nadia", "Oskar", "Paula", "Quentin", "Rosa", "Stefan", "Tara", "Ugo", "Valentina", "Wei", "Xavier", "Yara", "Zeno", "Priya", "Kwame", "Aisha", "Mateo", "Sofia", "Noah", "Emma", "Liam", "Olivia", "Amara", "Ravi", "Hiro", "Mei", "Sven", "Ingrid", "Joaquín", "Renée", "François", "Ciarán", "Eoin", "Nneka", "Tobias", "Clara", "Moritz", "Linnea", "Teodor", "Marisol", "Jasper", "Helena", "Samir", "Greta", "Felix", "Annika", "Daniel"];
const LAST = ["Achterberg", "Baumann", "Castellano", "Duarte", "Eriksen", "Falk", "Gallagher", "Hoffmann", "Iglesias", "Jaeger", "Kovacs", "Lindgren", "Marchetti", "Nakamura", "Okafor", "Pereira", "Quist", "Rahman", "Schmid", "Ueda", "Vogel", "Wagner", "Yamamoto", "Zimmermann", "Banerjee", "Chen", "Dlamini", "Esposito", "Fischer", "Gruber", "Haas", "Mendes", "Novak", "O'Brien", "Park", "Reyes", "Sato", "Thompson", "van Dijk", "Walsh", "Adeyemi", "Bergström", "Côté", "Delacroix", "Ferreira", "Brandt", "Lehmann", "Moreno", "Nyström", "Ricci", "Sandoval", "Tremblay", "Weiss", "Albrecht", "Carvalho", "Dubois", "Engel", "Frey", "Gerber", "Hartmann"];
const BRANDS = ["Brava", "Corvia", "Dunmore", "Elvan", "Ferro", "Glasswing", "Halcy", "Ionis", "Kiona", "Lumen", "Mossfield", "Nereo", "Orbica", "Pallas", "Quanta", "Rilla", "Sorrel", "Tessel", "Ulmo", "Vanta", "Wistra", "Yarrow", "Zephra", "Arclight", "Cobble", "Driftwood", "Fathom", "Granite", "Helio", "Inkwell", "Lattice", "Marrow", "Opal", "Prism", "Quarry", "Redshift", "Saltbox", "Tundra", "Upwell", "Verdant", "Willow", "Zinc", "Aurora", "Basalt", "Cadence", "Delphi", "Ebbtide", "Foxglove", "Gossamer", "Hearth", "Indigo", "Kestral", "Larkspur", "Meridia", "Nettle", "Oxbow", "Pinecone", "Riverbend", "Sable", "Thistle"];
const FUND_BRANDS = ["Northwind", "Harbourline", "Alpenglow", "Greyfriars", "Ironwood", "Saltmarsh", "Bluebell", "Cairn", "Farrow", "Lakeshore", "Moorgate", "Quayside", "Rosehip", "Stonebridge", "Tidewell", "Elmstead"];
const INVESTOR_FUNDS = ["Kettle Seed", "Ironbridge Ventures", "Tidewater Partners", "Lindenhof Capital", "Copperline VC", "Seedcamp", "Y Combinator", "Foundry North", "Brightlake Capital", "Marlow Ventures", "Ostwind Kapital", "Helvetia Angels Club"];
const CUSTOMERS = ["Hartwell Logistics", "Norsk Fjordline", "Caldera Foods", "Meridian Health", "Blackmere Insurance", "Ferrovia Nord", "Quintessa Retail", "Alder & Finch", "Tallis Bank", "Rheinwerk AG", "Polaris Freight", "Vinterhaven", "Cobalt Clinics", "Sunfield Grocers", "Kingsway Group", "Arnsberg Stadtwerke"];
const FORMER = ["Google", "Stripe", "Siemens", "Zalando", "N26", "SAP", "McKinsey", "BCG", "Spotify", "Adyen", "Roche", "Novartis", "Airbus", "Klarna", "Amazon", "Palantir", "Bosch", "Shopify", "Uber", "Meta"];
const SCHOOLS = ["ETH Zurich", "TU Munich", "INSEAD", "Oxford", "Imperial College", "EPFL", "Stanford", "MIT", "KTH", "Bocconi", "TU Delft", "HEC Paris", "Cambridge"];
const PROGRAMS = ["Y Combinator Demo Day W25", "Stanford GSB Venture Studio", "Techstars Berlin Demo Day 2025", "Entrepreneur First LD22", "EIT Health Catapult Finalist", "Venture Kick Final 2025", "Station F Founders Program", "Antler Residency Demo Day", "MassChallenge Switzerland 2025", "Slush 100 Finalist"];

type Sector = { what: string; who: string; unit: string; rivals: string[]; problem: string; suffix: string[] };
const SECTORS: Record<Exclude<Voice, "fund">, Sector[]> = {
  yc: [
    { what: "AI bookkeeping", who: "small agencies", unit: "company", rivals: ["Pilot", "Bench"], problem: "Agencies spend 20 hours a month chasing receipts.", suffix: ["", "AI"] },
    { what: "dev environment previews", who: "engineering teams", unit: "seat", rivals: ["Vercel", "homegrown scripts"], problem: "Every PR review waits for someone to spin up staging.", suffix: ["", "Labs"] },
    { what: "voice agents for clinics", who: "dental practices", unit: "location", rivals: ["front-desk staff", "Weave"], problem: "Clinics miss a third of inbound calls.", suffix: ["AI", ""] },
  ],
  consultant: [
    { what: "procurement analytics", who: "industrial mid-caps", unit: "site", rivals: ["Coupa", "SAP Ariba"], problem: "Tail spend represents 20% of procurement volume but remains unmanaged.", suffix: ["Analytics", "Systems"] },
    { what: "claims automation", who: "P&C insurers", unit: "claim", rivals: ["Guidewire", "BPO providers"], problem: "Claims handling costs consume 10-12% of premiums.", suffix: ["", "Systems"] },
  ],
  european: [
    { what: "heat-pump installation planning", who: "installers", unit: "installation", rivals: ["Thermondo", "paper forms"], problem: "Installers lose two days per project on planning and permits.", suffix: ["Energy", ""] },
    { what: "payroll compliance", who: "SMEs with cross-border staff", unit: "employee", rivals: ["Personio", "Deel"], problem: "Cross-border payroll rules change every quarter.", suffix: ["", "Pay"] },
    { what: "B2B food waste logistics", who: "supermarkets", unit: "store", rivals: ["Too Good To Go", "disposal contractors"], problem: "Supermarkets throw away 4% of what they buy.", suffix: ["Logistics", ""] },
  ],
  deeptech: [
    { what: "solid-state lidar", who: "industrial robot makers", unit: "sensor", rivals: ["Ouster", "Hesai"], problem: "Lidar is too expensive and fragile for mass-market robots.", suffix: ["Robotics", "Photonics"] },
    { what: "PEM electrolyser stacks", who: "green-hydrogen project developers", unit: "MW", rivals: ["ITM Power", "Nel"], problem: "Electrolysers cost too much per kilowatt to make hydrogen competitive.", suffix: ["Energy", "Hydrogen"] },
    { what: "quantum-grade magnetometers", who: "medical imaging companies", unit: "sensor", rivals: ["SQUID systems", "QuSpin"], problem: "Brain imaging needs cryogenic sensors that cost millions.", suffix: ["Quantum", ""] },
  ],
  marketplace: [
    { what: "a marketplace for used construction equipment", who: "contractors", unit: "listing", rivals: ["Ritchie Bros", "classifieds"], problem: "Selling a used excavator takes 3 months and 5 middlemen.", suffix: ["", "Market"] },
    { what: "on-demand agency nurses", who: "hospitals and care homes", unit: "shift", rivals: ["staffing agencies", "Florence"], problem: "Care homes pay 40% agency margins to fill shifts.", suffix: ["Care", "Health"] },
    { what: "wholesale ordering for independent restaurants", who: "restaurants and suppliers", unit: "order", rivals: ["Choco", "phone and WhatsApp"], problem: "Restaurants order from 12 suppliers through 12 channels.", suffix: ["", "Supply"] },
  ],
  saas: [
    { what: "revenue analytics", who: "B2B SaaS finance teams", unit: "seat", rivals: ["ChartMogul", "spreadsheets"], problem: "Finance and sales argue about the numbers every Monday.", suffix: ["Analytics", "Metrics"] },
    { what: "security questionnaire automation", who: "B2B sales teams", unit: "seat", rivals: ["Vanta", "manual answers"], problem: "Every enterprise deal stalls on a 300-question security review.", suffix: ["", "Trust"] },
    { what: "fleet maintenance software", who: "logistics fleets", unit: "vehicle", rivals: ["Fleetio", "paper logs"], problem: "Unplanned breakdowns cost fleets 8% of revenue.", suffix: ["", "Fleet"] },
  ],
  biotech: [
    { what: "an antibody platform for fibrotic disease", who: "patients with lung fibrosis", unit: "program", rivals: ["Boehringer Ingelheim (nintedanib)", "Roche (pirfenidone)"], problem: "Idiopathic pulmonary fibrosis has a median survival of 3-5 years.", suffix: ["Bio", "Therapeutics"] },
    { what: "microbiome therapeutics for IBD", who: "patients with ulcerative colitis", unit: "program", rivals: ["Seres Therapeutics", "Vedanta Biosciences"], problem: "A third of IBD patients do not respond to biologics.", suffix: ["Bio", "Therapeutics"] },
    { what: "CRISPR-based point-of-care diagnostics", who: "clinics and labs", unit: "test", rivals: ["Cepheid", "Mammoth Biosciences"], problem: "Sepsis diagnosis takes 48 hours in a central lab.", suffix: ["Dx", "Bio"] },
  ],
};

const LEGAL: Record<Locale, string[]> = { us: ["Inc.", "Inc", "Corp."], uk: ["Ltd", "Limited"], de: ["GmbH", "UG (haftungsbeschränkt)"], ch: ["AG", "SA", "GmbH"], fr: ["SAS"], nl: ["B.V."] };
const CUR: Record<Locale, string> = { us: "USD", uk: "GBP", de: "EUR", ch: "CHF", fr: "EUR", nl: "EUR" };
const TLD: Record<Locale, string[]> = { us: ["com", "ai", "io"], uk: ["co.uk", "com", "io"], de: ["de", "io", "com"], ch: ["ch", "com"], fr: ["fr", "io"], nl: ["nl", "io", "com"] };

const STAGE_WORDS: Record<Stage, string[]> = {
  "pre-seed": ["Pre-Seed", "Pre-seed", "pre-seed", "Preseed"],
  seed: ["Seed", "seed", "SEED"],
  "pre-series-a": ["Pre-Series A", "Pre-Series-A", "pre-Series A"],
  "series-a": ["Series A", "Series-A", "series A"],
  "series-b": ["Series B", "Series-B"],
  bridge: ["bridge", "Bridge"],
};
const STAGE_RANGE: Record<Stage, [number, number]> = {
  "pre-seed": [300_000, 1_500_000],
  seed: [1_000_000, 5_000_000],
  "pre-series-a": [2_000_000, 6_000_000],
  "series-a": [5_000_000, 20_000_000],
  "series-b": [20_000_000, 45_000_000],
  bridge: [500_000, 3_000_000],
};
const PREVIOUS: Record<Stage, Stage | null> = { "pre-seed": null, seed: "pre-seed", "pre-series-a": "seed", "series-a": "seed", "series-b": "series-a", bridge: "seed" };

function makePerson(r: Rand, used: Set<string>, title: string, bio: string): Person {
  let name = "";
  for (let i = 0; !name || used.has(name) || used.has(name.split(" ")[1]); i++) name = `${r.pick(FIRST)} ${r.pick(LAST)}`;
  used.add(name);
  used.add(name.split(" ")[1]);
  return { name, title, bio };
}

/** "CHF 8.9 Mrd.." -> "CHF 8.9 Mrd." wherever an amount written with a point ends a sentence. */
function tidy(slides: Slide[]) {
  const fix = (t: string) => t.replace(/\.\.(?=\s|$)/g, ".");
  for (const s of slides)
    for (const b of s.blocks) {
      if (b.t === "text") b.text = fix(b.text);
      if (b.t === "bullets") b.items = b.items.map(fix);
    }
}

const cap = (s: string) => s[0].toUpperCase() + s.slice(1);

export function companyDeck(id: string, r: Rand, voice: Exclude<Voice, "fund">): DeckDoc {
  const traps = new Set<string>();
  const sector = r.pick(SECTORS[voice]);
  const locale: Locale =
    voice === "european" ? r.pick(["de", "de", "ch", "ch", "fr", "uk", "nl"]) : voice === "consultant" ? r.pick(["us", "de", "ch", "uk"]) : voice === "yc" ? r.pick(["us", "us", "us", "uk"]) : r.pick(["us", "us", "uk", "de", "ch", "fr", "nl"]);
  const currency = voice !== "european" && locale === "nl" && r.chance(0.3) ? "USD" : CUR[locale];
  const M = (n: number) => money(r, n, currency, locale);
  const brand = r.pick(BRANDS);
  const suffix = r.pick(sector.suffix);
  const company = suffix ? (r.chance(0.6) ? `${brand} ${suffix}` : `${brand}${suffix}`) : brand;
  const legal = r.chance(0.35) ? `${company} ${r.pick(LEGAL[locale])}` : company;
  const slug = company.toLowerCase().replace(/[^a-z0-9]/g, "");
  const domain = r.chance(0.08) ? null : `${r.chance(0.15) ? r.pick(["get", "try", "use"]) : ""}${slug}.${r.pick(TLD[locale])}`;
  const used = new Set<string>([brand]);
  const year = 2025;

  // ---- which sections the deck has ----
  const has = {
    team: r.chance(0.82),
    market: r.chance(0.75),
    product: r.chance(0.85),
    traction: voice === "biotech" || voice === "deeptech" ? r.chance(0.55) : r.chance(0.8),
    business_model: r.chance(voice === "yc" ? 0.5 : 0.65),
    competition: r.chance(0.6),
    financials: r.chance(voice === "yc" ? 0.3 : 0.6),
  };
  if (!has.team) traps.add("no-team-slide");
  if (!has.financials) traps.add("no-financials-slide");
  if (!has.competition) traps.add("no-competition-slide");

  // ---- the round ----
  const stagePool: Stage[] =
    voice === "yc" ? ["pre-seed", "seed", "seed"] : voice === "biotech" ? ["seed", "series-a", "series-a"] : voice === "deeptech" ? ["pre-seed", "seed", "pre-series-a", "series-a"] : voice === "consultant" ? ["seed", "pre-series-a", "series-a", "series-b", "bridge"] : ["pre-seed", "seed", "seed", "pre-series-a", "series-a", "series-b", "bridge"];
  const stage = r.pick(stagePool);
  const mode = r.pick(["single", "single", "single", "single", "single", "single", "single", "single", "single", "single", "range", "none", "stage-only"] as const);
  const amount = niceAmount(r, ...STAGE_RANGE[stage]);
  const stageNamed = mode === "stage-only" || r.chance(0.82);
  const stageWord = r.pick(STAGE_WORDS[stage]);
  if (stage === "pre-series-a" && stageNamed) traps.add("pre-series-a");
  if (stage === "pre-seed" && stageNamed) traps.add("pre-seed");
  const multiple = r.int(3, 6);
  const preMoney = niceAmount(r, amount * multiple * 0.9, amount * multiple * 1.1);
  const valuation = mode === "single" ? r.pick(["pre", "pre", "none", "none", "post", ...(stage === "pre-seed" || stage === "seed" ? (["cap"] as const) : [])] as const) : "none";
  const label = {
    stage: mode === "none" || !stageNamed ? null : stage,
    amount: mode === "single" ? amount : null,
    currency: mode === "single" ? currency : null,
    pre_money: valuation === "pre" ? preMoney : valuation === "post" ? preMoney : null,
  };
  if (mode === "range") traps.add("range-raise");
  if (mode === "none") traps.add("no-raise");
  if (mode === "stage-only") traps.add("stage-without-amount");
  if (valuation === "post") traps.add("post-money-only");
  if (valuation === "cap") traps.add("safe-valuation-cap");

  const prevStage = PREVIOUS[stage];
  const past = prevStage && r.chance(mode === "none" ? 0.8 : 0.5)
    ? { stage: prevStage, amount: niceAmount(r, ...STAGE_RANGE[prevStage]), year: r.int(2021, 2024), lead: r.pick(INVESTOR_FUNDS), post: 0 }
    : null;
  if (past) {
    past.post = niceAmount(r, past.amount * 4, past.amount * 6);
    traps.add("past-round");
  }
  const burn = niceAmount(r, amount / 30, amount / 15);
  const months = Math.round(amount / burn);
  const burnInRaise = mode === "single" && r.chance(0.25);
  if (burnInRaise) traps.add("burn-in-raise-sentence");
  const committed = mode === "single" && r.chance(0.2) ? niceAmount(r, amount * 0.3, amount * 0.6) : 0;
  const angel = committed && r.chance(0.5) ? makePerson(r, used, "Angel investor", `${r.pick(["former CEO", "co-founder"])} of ${r.pick(FORMER)}`) : null;
  if (committed) traps.add("committed-portion");

  // ---- the team ----
  const founderTitles = voice === "consultant" ? ["Chief Executive Officer", "Managing Director", "CEO"] : voice === "european" && locale === "de" ? ["CEO & Mitgründer", "Geschäftsführer", "Co-Founder & CEO"] : ["CEO & Co-founder", "Co-founder, CEO", "Founder & CEO", "CEO"];
  const techTitles = voice === "biotech" ? ["Chief Scientific Officer", "CSO & Co-founder"] : voice === "deeptech" ? ["CTO & Co-founder", "Chief Technology Officer", "Head of R&D"] : ["CTO & Co-founder", "Co-founder, CTO", "CTO"];
  const otherTitles = voice === "biotech" ? ["Chief Medical Officer", "VP Translational Science", "Head of CMC"] : ["COO", "Head of Growth", "VP Engineering", "Head of Sales", "Chief Product Officer", "Founding Engineer", "CFO", "Head of Operations"];
  const bio = () => r.pick([`ex-${r.pick(FORMER)}, ${r.int(5, 15)} years in ${sector.what.replace(/^an? /, "")}`, `previously ${r.pick(["Director", "Lead", "Principal", "Head of Product"])} at ${r.pick(FORMER)}`, `PhD, ${r.pick(SCHOOLS)}`, `2nd-time founder (exit to ${r.pick(FORMER)})`, `${r.pick(SCHOOLS)}; ${r.int(4, 12)} yrs at ${r.pick(FORMER)}`]);
  const teamSize = r.int(2, 5);
  const team: Person[] = [makePerson(r, used, r.pick(founderTitles), bio()), makePerson(r, used, r.pick(techTitles), bio())];
  while (team.length < teamSize) team.push(makePerson(r, used, r.pick(otherTitles.filter((t) => !team.some((p) => p.title === t))), bio()));
  if (voice === "biotech" || voice === "deeptech") for (const p of team) if (r.chance(0.3)) p.name = `${r.pick(["Dr.", "Prof. Dr.", "Dr."])} ${p.name}`;
  const advisors = r.chance(0.5) ? Array.from({ length: r.int(1, 3) }, () => makePerson(r, used, r.pick(["Advisor", "Board Advisor", "Scientific Advisor", "Industry Advisor"]), r.pick([`former CFO, ${r.pick(FORMER)}`, `Professor, ${r.pick(SCHOOLS)}`, `Partner, ${r.pick(INVESTOR_FUNDS)}`, `ex-VP Sales, ${r.pick(FORMER)}`]))) : [];
  const angels = r.chance(0.3) ? Array.from({ length: r.int(1, 2) }, () => makePerson(r, used, "Angel investor", `founder of ${r.pick(FORMER)} ${r.pick(["Labs", "Pay", "Health"])}`)) : [];
  const notTeam: string[] = [...advisors, ...angels, ...(angel ? [angel] : [])].map((p) => p.name);
  if (advisors.length && has.team) traps.add("advisors-on-team-slide");
  if (angels.length && has.team) traps.add("investors-on-team-slide");

  // ---- cover ----
  const coverLines: string[] = [];
  const program = r.chance(0.25) ? r.pick(PROGRAMS) : null;
  if (program) {
    coverLines.push(program);
    traps.add("program-on-cover");
  }
  coverLines.push(r.pick([`${r.pick(["March", "April", "September", "October", "January"])} ${year + 1}`, `Investor presentation | ${year + 1}`, "Confidential", `${label.stage && r.chance(0.4) ? `${stageWord} round` : "Investor deck"} | ${year + 1}`]));
  const coverAdvisor = advisors.length && r.chance(0.35) ? advisors[0] : null;
  if (coverAdvisor) {
    coverLines.push(r.pick([`Advised by ${coverAdvisor.name} (${coverAdvisor.bio})`, `With the support of ${coverAdvisor.name}, ${coverAdvisor.bio}`]));
    traps.add("advisor-near-cover");
  } else if (angels.length && r.chance(0.4)) {
    coverLines.push(`Backed by ${angels[0].name} and ${r.pick(INVESTOR_FUNDS)}`);
    traps.add("investor-near-cover");
  } else if (past && r.chance(0.3)) {
    coverLines.push(`Backed by ${past.lead}`);
    traps.add("investor-near-cover");
  }
  const logo = r.pick(["text", "text", "text", "letterspaced", "none"] as const);
  if (logo === "letterspaced") traps.add("letterspaced-logo");
  if (logo === "none") traps.add("name-not-on-cover");
  const cover: Cover = { name: legal, logo, tagline: cap(`${sector.what} for ${sector.who}`), lines: coverLines };
  if (legal !== company) traps.add("legal-suffix");

  const slides: Slide[] = [];
  const terse = voice === "yc";
  // Problem (never a scored section on its own)
  slides.push({ key: "problem", title: r.pick(["Problem", "The problem", "Why this matters", terse ? "Problem" : "The challenge"]), blocks: [{ t: "text", text: sector.problem, size: "lg" }, { t: "bullets", items: r.sample([`Manual work and spreadsheets everywhere.`, `Existing tools were built for a different buyer.`, `Costs keep rising every year.`, `Regulation is tightening.`], 2) }] });
  if (logo === "none") slides[0].blocks.push({ t: "text", text: `That is why we started ${company} in ${r.int(2019, 2024)}.`, size: "sm" });

  if (has.product) {
    const blocks: Block[] = [{ t: "text", text: terse ? `${company}: ${sector.what} for ${sector.who}.` : `${company} provides ${sector.what} for ${sector.who}, ${r.pick(["deployed in days, not months", "integrated with existing systems", "built on proprietary data"])}.` }];
    if (voice === "biotech") {
      blocks.push({ t: "table", title: "Pipeline", rows: [["Program", "Indication", "Status"], [`${brand.slice(0, 3).toUpperCase()}-101`, r.pick(["IPF", "Ulcerative colitis", "Sepsis"]), r.pick(["IND-enabling", "Preclinical", "Phase 1 (FIH 2026)"])], [`${brand.slice(0, 3).toUpperCase()}-204`, r.pick(["SSc-ILD", "Crohn's disease", "UTI"]), "Discovery"]] });
      traps.add("clinical-phase-words");
    } else if (voice === "deeptech") {
      blocks.push({ t: "bullets", items: [`TRL ${r.int(4, 7)} prototype validated with ${r.int(2, 5)} industrial partners`, `${r.int(2, 9)} patent families filed`, `${r.int(3, 10)}x lower cost per ${sector.unit} than incumbents`] });
    } else blocks.push({ t: "bullets", items: r.sample([`Connects to existing tools in minutes`, `Works on web and mobile`, `Open API and ${r.int(10, 40)} integrations`, `SOC 2 Type II in progress`, `Live in ${r.int(2, 9)} countries`], 3) });
    slides.push({ key: "product", title: r.pick(["Solution", "Product", "How it works", "Our solution"]), blocks });
  }

  if (has.market) {
    const tam = niceAmount(r, 5e9, 80e9);
    const sam = Math.round(tam / r.int(4, 8) / 1e8) * 1e8;
    const som = Math.round(sam / r.int(10, 30) / 1e6) * 1e6;
    const blocks: Block[] = r.chance(0.5)
      ? [{ t: "kpis", items: [{ value: M(tam), label: "TAM" }, { value: M(sam), label: "SAM" }, { value: M(som), label: "SOM" }] }, { t: "text", text: `Growing ${r.int(8, 30)}% CAGR through 2030.`, size: "sm" }]
      : [{ t: "text", text: `${cap(sector.what.replace(/^an? /, ""))} is a ${M(tam)} market (TAM); our serviceable market is ${M(sam)}.` }, { t: "bullets", items: [`${r.int(20, 400)}k ${sector.who} in Europe and North America`, `Source: ${r.pick(["Gartner", "McKinsey", "Grand View Research", "company analysis"])}, ${year}`] }];
    slides.push({ key: "market", title: r.pick(["Market", "Market opportunity", "Market size", "A large and growing market"]), blocks });
    traps.add("market-size-money");
  }

  const arr = niceAmount(r, 200_000, 4_000_000);
  const customers = r.pick(CUSTOMERS);
  const logos = r.sample(CUSTOMERS, r.int(3, 6));
  if (has.traction) {
    const blocks: Block[] = [];
    if (voice === "marketplace") {
      const gmv = niceAmount(r, 1e6, 40e6);
      blocks.push({ t: "kpis", items: [{ value: M(gmv), label: "GMV last 12 months" }, { value: `${r.int(15, 40)}%`, label: "take rate" }, { value: `${r.int(200, 9000)}`, label: `active ${sector.who.split(" ")[0]}` }] });
      traps.add("traction-money");
    } else if (voice === "biotech" || voice === "deeptech") {
      blocks.push({ t: "bullets", items: [`${r.int(2, 6)} paid pilots / research collaborations`, `Non-dilutive funding: ${M(niceAmount(r, 300_000, 2_500_000))} ${r.pick(["EIC Accelerator grant", "Innosuisse grant", "Horizon Europe grant", "NIH SBIR grant"])}`, `Key data: ${r.pick(["in-vivo efficacy in 2 models", "10,000 h endurance test passed", "clinical sample study n=420"])}`] });
      traps.add("grant-money");
    } else {
      const processed = niceAmount(r, 5e6, 80e6);
      blocks.push({ t: "bullets", items: r.shuffle([`ARR ${M(arr)}, ${r.int(8, 25)}% month-over-month`, `${r.int(12, 300)} paying customers, NRR ${r.int(105, 145)}%`, r.chance(0.5) ? `Customers have processed ${M(processed)} through ${company}` : `${M(processed)} in transactions handled since launch`]) });
      traps.add("traction-money");
      if (r.chance(0.5)) {
        const goal = niceAmount(r, arr * 3, arr * 5);
        blocks.push({ t: "text", text: r.pick([`Next: grow ARR from ${M(arr)} to ${M(goal)} by end of ${year + 1}.`, `Goal ${year + 1}: ${M(goal)} ARR.`]), size: "sm" });
        traps.add("arr-goal");
      }
      if (r.chance(0.5)) {
        const xs = [`Q1`, `Q2`, `Q3`, `Q4`, `Q1 '${String(year + 1).slice(2)}`];
        const ys = xs.map((_, i) => Math.round((arr / 1000) * Math.pow(1.35, i - 4)));
        const top = Math.ceil(Math.max(...ys) / 500) * 500;
        blocks.push({ t: "chart", title: `ARR (${currency} k)`, xs, ys, labels: ys.map((y) => num(y, locale)), yTicks: [0, top / 2, top].map((v) => num(v, locale)), yLabel: `${currency} thousands` });
        traps.add("chart-numbers");
      }
    }
    if (r.chance(0.6)) {
      blocks.push({ t: "logos", heading: r.pick(["Trusted by", "Customers", "Selected customers", "Pilots with"]), names: logos });
      traps.add("customer-logos");
    }
    slides.push({ key: "traction", title: r.pick(["Traction", "Momentum", "Where we are", "Progress to date"]), blocks });
    if (r.chance(0.45)) {
      const buyer = makePerson(r, used, r.pick(["CFO", "COO", "Head of Operations", "VP Finance", "Chief Medical Officer"]), "");
      notTeam.push(buyer.name);
      const quote = r.pick([`It cut our month-end close from ten days to three.`, `The first tool my team actually asked for.`, `We saw the payback within one quarter.`, `Honestly, we can't imagine going back.`]);
      slides.push({ key: "testimonial", title: r.pick(["What customers say", "Customer love", "Testimonials"]), blocks: [{ t: "quote", text: quote, by: r.pick([`${buyer.name}, ${buyer.title} at ${customers}`, `${buyer.name}, ${buyer.title}, ${customers}`]) }] });
      traps.add("customer-testimonial");
    }
  }

  if (has.business_model) {
    const price = r.int(30, 900) * 10;
    slides.push({ key: "business_model", title: r.pick(["Business model", "How we make money", "Pricing", "Revenue model"]), blocks: [{ t: "bullets", items: voice === "marketplace" ? [`${r.int(8, 20)}% commission per ${sector.unit}`, `Premium listings from ${M(r.int(5, 50) * 10)} / month`] : voice === "deeptech" ? [`Hardware sales from ${M(price * 10)} per ${sector.unit}`, `Service contracts at ${r.int(8, 15)}% of hardware value per year`] : voice === "biotech" ? [`Partnering model: upfront + milestones + royalties`, `Comparable deals: ${M(niceAmount(r, 50e6, 400e6))} total deal value`] : [`SaaS: ${M(price)} per ${sector.unit} per year`, `Gross margin ${r.int(65, 85)}%`, `CAC payback ${r.int(5, 18)} months`] }] });
    if (voice === "biotech") traps.add("comparable-deal-money");
  }

  if (has.competition) {
    const rows = [["", company, ...sector.rivals], [r.pick(["Real-time", "Self-serve", "Cost"]), "Yes", "No", "Partly"], [r.pick(["Built for " + sector.who.split(" ")[0], "EU data residency", "Time to value"]), "Yes", "Partly", "No"]];
    slides.push({ key: "competition", title: r.pick(["Competition", "Competitive landscape", "Why we win"]), blocks: r.chance(0.5) ? [{ t: "table", rows }] : [{ t: "text", text: `Unlike ${sector.rivals[0]}, we are built for ${sector.who}; ${sector.rivals[1]} remain the main alternative.` }] });
  }

  if (has.team) {
    const blocks: Block[] = [{ t: "people", people: team, photos: r.chance(0.6), columns: team.length <= 3 ? team.length : team.length === 4 ? r.pick([2, 4]) : r.pick([3, 5]) }];
    if (advisors.length) blocks.push({ t: "people", heading: r.pick(["Advisors", "Advisory board", "Supported by"]), people: advisors, photos: false, columns: Math.min(3, advisors.length) });
    if (angels.length) blocks.push({ t: "people", heading: r.pick(["Investors", "Backed by", "Angels"]), people: angels, photos: false, columns: Math.min(3, angels.length) });
    if (past && r.chance(0.5)) {
      blocks.push({ t: "text", text: `Backed by ${past.lead} (${M(past.amount)} ${r.pick(STAGE_WORDS[past.stage])}, ${past.year}).`, size: "sm" });
    }
    slides.push({ key: "team", title: r.pick(["Team", "The team", "Founders", "Who we are", "Our team"]), blocks });
  }

  if (has.financials) {
    const years = [year, year + 1, year + 2, year + 3];
    const rev = years.map((_, i) => Math.round(arr * Math.pow(2.4, i)));
    const rows = [["", ...years.map((y) => `${y}${y > year ? "E" : ""}`)], ["Revenue", ...rev.map(M)], ["EBITDA", ...rev.map((v, i) => (i < 2 ? `(${M(Math.round(v * 0.7))})` : M(Math.round(v * 0.12 * i))))], ["FTE", ...years.map((_, i) => String(6 + i * r.int(5, 12)))]];
    const blocks: Block[] = [{ t: "table", title: r.pick(["Financial projections", "Plan", "P&L forecast"]), rows }];
    if (r.chance(0.6)) blocks.push({ t: "text", text: `Current monthly burn ${M(burn)}; break-even in ${year + 3}.`, size: "sm" });
    slides.push({ key: "financials", title: r.pick(["Financials", "Financial plan", "Projections", "Financial overview"]), blocks });
    traps.add("financial-table");
  }

  // ---- the round slide ----
  const optional: SectionKey[] = [];
  if (mode !== "none") {
    const A = M(amount);
    const sw = stageNamed ? stageWord : "";
    const blocks: Block[] = [];
    const v = valuation === "pre" ? M(preMoney) : valuation === "post" ? M(preMoney + amount) : valuation === "cap" ? M(preMoney) : "";
    if (mode === "range") {
      const R = moneyRange(r, amount, Math.round(amount * 1.5), currency, locale);
      blocks.push({ t: "text", text: r.pick([`We are raising ${R}${sw ? ` in our ${sw} round` : ""}.`, `${sw ? `${cap(sw)} round: ` : "Raising "}${R}.`, `Target round size ${R}${sw ? ` (${sw})` : ""}.`]), size: "lg" });
    } else if (mode === "stage-only") {
      blocks.push({ t: "text", text: r.pick([`We are opening our ${sw} round.`, `Now raising our ${sw} round - talk to us.`, `${cap(sw)} round opening in Q${r.int(1, 4)} ${year + 1}.`]), size: "lg" });
    } else {
      let sentence: string;
      if (burnInRaise) sentence = r.pick([`We are raising ${A}${sw ? ` ${sw}` : ""}, which at our ${M(burn)} monthly burn gives ${months} months of runway.`, `Raising ${A}${sw ? ` (${sw})` : ""}: at ${M(burn)}/month burn that is ${months} months of runway.`]);
      else if (voice === "consultant") sentence = `${company} is seeking ${A} in ${sw ? `${sw} ` : ""}equity financing${valuation === "pre" ? ` at a pre-money valuation of ${v}` : ""}.`;
      else if (voice === "yc") sentence = r.pick([`Raising ${A}${sw ? ` ${sw}` : ""}.`, valuation === "none" || valuation === "cap" ? `${A}${sw ? ` ${sw}` : ""} on a post-money SAFE.` : `${A}${sw ? ` ${sw}` : ""}, priced round.`, `The ask: ${A}${sw ? ` ${sw}` : ""}.`]);
      else if (locale === "de" && r.chance(0.5)) sentence = r.pick([`Wir suchen ${A}${sw ? ` in einer ${sw}-Runde` : ""}.`, `Investitionsbedarf${sw ? ` (${sw})` : ""}: ${A}`]);
      else if (locale === "fr" && r.chance(0.5)) sentence = `Levée de fonds${sw ? ` ${sw}` : ""} : ${A}.`;
      else sentence = r.pick([`We are raising ${A}${sw ? ` in a ${sw} round` : ""}.`, `${sw ? `${cap(sw)} round: ` : "Round size: "}${A}`, `Now raising ${A}${sw ? ` ${sw}` : ""} to reach ${r.pick(["break-even", "Series A metrics", "CE marking", "first-in-human data", "the US launch"])}.`]);
      blocks.push({ t: "text", text: sentence, size: "lg" });
      if (valuation === "pre" && voice !== "consultant") blocks.push({ t: "text", text: r.pick([`Pre-money valuation: ${v}`, `at ${v} pre-money`, `Pre-money ${v}`]) });
      if (valuation === "post") blocks.push({ t: "text", text: r.pick([`Post-money valuation: ${v}`, `${v} post-money`]) });
      if (valuation === "cap") blocks.push({ t: "text", text: `SAFE, ${v} valuation cap, ${r.int(15, 25)}% discount` });
      if (committed) blocks.push({ t: "text", text: angel ? `${M(committed)} already committed, incl. ${angel.name} (${angel.bio}).` : `${M(committed)} soft-circled by ${r.pick(INVESTOR_FUNDS)}.`, size: "sm" });
      if (burnInRaise && !has.financials) optional.push("financials");
    }
    if (mode === "single" && r.chance(0.6)) {
      const shares = r.pick([[50, 30, 20], [40, 35, 15, 10], [60, 25, 15]]);
      const uses = voice === "biotech" ? ["Clinical studies", "CMC & manufacturing", "IP & regulatory", "Team"] : voice === "deeptech" ? ["Product & engineering", "Certification", "Manufacturing scale-up", "Pilot deployments"] : voice === "marketplace" ? ["Supply acquisition", "Demand marketing", "Product & engineering", "New cities"] : ["Product & engineering", "Sales & marketing", "Hiring", "Working capital", "US expansion"];
      const names = r.sample(uses, shares.length);
      if (r.chance(0.5)) blocks.push({ t: "table", title: "Use of funds", rows: [["Use", "%", "Amount"], ...names.map((n, i) => [n, `${shares[i]}%`, M(Math.round((amount * shares[i]) / 100))])] });
      else blocks.push({ t: "bullets", items: names.map((n, i) => `${M(Math.round((amount * shares[i]) / 100))} for ${n.replace(/^[A-Z][a-z]/, (w) => w.toLowerCase())}`) });
      traps.add("use-of-funds-money");
    }
    if (past && r.chance(0.6)) {
      if (r.chance(0.5)) blocks.push({ t: "text", text: `Previously: we raised a ${M(past.amount)} ${r.pick(STAGE_WORDS[past.stage])} in ${past.year} from ${past.lead}.`, size: "sm" });
      else {
        blocks.push({ t: "text", text: `${past.year}: ${cap(r.pick(STAGE_WORDS[past.stage]))} round of ${M(past.amount)} at ${M(past.post)} post-money.`, size: "sm" });
        traps.add("previous-valuation");
      }
      traps.add("past-round-on-round-slide");
    }
    if (r.chance(0.2) && (past || angels.length || angel)) {
      // the cap table: founders, ESOP, earlier investors (people among them are not the team)
      const holders: [string, number][] = [[team[0].name, r.int(30, 45)], [team[1].name, r.int(20, 30)], ["ESOP", 10]];
      if (past) holders.push([past.lead, r.int(8, 15)]);
      for (const a of [...angels, ...(angel ? [angel] : [])]) holders.push([a.name, r.int(1, 4)]);
      const rest = 100 - holders.reduce((a, [, v]) => a + v, 0);
      if (rest > 0) holders.push(["Other angels", rest]);
      blocks.push({ t: "table", title: r.pick(["Cap table (pre-round)", "Current cap table", "Shareholders"]), rows: [["Shareholder", "%"], ...holders.map(([n, v]) => [n, `${v}%`])] });
      traps.add("cap-table");
    }
    if (mode === "single" && r.chance(0.3)) blocks.push({ t: "kv", rows: [["Instrument", r.pick(["Equity", "Preferred shares", "Convertible note", "SAFE"])], ["Round", sw || "Current round"], ["Amount", A], ["Target close", `Q${r.int(1, 4)} ${year + 1}`]] });
    const useOfFunds = traps.has("use-of-funds-money");
    slides.push({ key: "round", title: r.pick(["The ask", "Investment", "Funding", "The round", "Raising", locale === "de" ? "Finanzierung" : useOfFunds ? "Use of funds" : "Fundraising"]), blocks });
  } else {
    if (past) {
      const where = slides.find((s) => s.key === "traction") ?? slides[slides.length - 1];
      where.blocks.push({ t: "text", text: `We raised a ${M(past.amount)} ${r.pick(STAGE_WORDS[past.stage])} in ${past.year} from ${past.lead} and angels.`, size: "sm" });
      optional.push("round");
    }
  }

  // closing
  slides.push({ key: "closing", title: r.pick(["Thank you", "Let's talk", "Contact"]), blocks: [{ t: "text", text: [has.team ? `${team[0].name.replace(/^(Prof\. )?Dr\. /, "").split(" ")[0].toLowerCase()}@${domain ?? slug + ".com"}` : `hello@${domain ?? slug + ".com"}`, domain ? `www.${domain}` : ""].filter(Boolean).join("  |  ") }] });
  if (!has.team) slides[slides.length - 1].blocks[0] = { t: "text", text: `hello@${domain ?? slug + ".com"}` };

  tidy(slides);
  const addressed: SectionKey[] = (["team", "market", "product", "traction", "business_model", "competition", "financials"] as const).filter((k) => has[k]);
  if (mode !== "none") addressed.push("round");
  return {
    id,
    voice,
    locale,
    cover,
    slides,
    domain,
    labels: {
      id,
      voice,
      company_name: company,
      company_aliases: [],
      domain,
      kind: "company",
      round: label,
      team: has.team ? team.map((p) => ({ name: p.name, title: p.title })) : [],
      not_team: notTeam,
      sections_addressed: addressed,
      sections_optional: optional,
      traps: [...traps],
    },
  };
}

export function fundDeck(id: string, r: Rand): DeckDoc {
  const traps = new Set<string>(["fund-deck"]);
  const locale: Locale = r.pick(["us", "uk", "de", "ch", "nl", "us"]);
  const currency = locale === "ch" && r.chance(0.5) ? "CHF" : locale === "us" ? "USD" : locale === "uk" ? r.pick(["GBP", "EUR"]) : "EUR";
  const M = (n: number) => money(r, n, currency, locale);
  const brand = r.pick(FUND_BRANDS);
  const firm = `${brand} ${r.pick(["Ventures", "Capital", "Partners", "VC"])}`;
  const roman = r.pick(["II", "III", "IV"]);
  const fundName = `${firm} Fund ${roman}`;
  const domain = `${brand.toLowerCase()}${r.pick(["", "vc", "ventures"])}.${r.pick(["vc", "com", "capital"])}`;
  const used = new Set<string>();
  const target = niceAmount(r, 40e6, 300e6);
  const mode = r.pick(["single", "single", "single", "single", "single", "single", "range", "none"] as const);
  if (mode === "range") traps.add("range-raise");
  if (mode === "none") traps.add("no-fund-size");
  const hardCap = Math.round((target * 1.25) / 1e6) * 1e6;
  const prevSize = niceAmount(r, target * 0.3, target * 0.7);
  const has = { team: r.chance(0.85), strategy: r.chance(0.9), portfolio_construction: r.chance(0.7), track_record: r.chance(0.75), lp_base: r.chance(0.5), fund_terms: mode !== "none" };

  const cover: Cover = { name: fundName, logo: r.pick(["text", "text", "letterspaced"] as const), tagline: r.pick([`${r.pick(["Pre-seed and seed", "Seed", "Series A"])} ${r.pick(["B2B software", "climate tech", "deep tech", "health"])} in ${r.pick(["Europe", "the DACH region", "the Nordics", "the US"])}`]), lines: [r.pick(["Confidential - for professional investors only", `LP presentation | ${r.pick(["Q1", "Q2"])} 2026`, "Fundraising deck"])] };
  if (cover.logo === "letterspaced") traps.add("letterspaced-logo");
  const slides: Slide[] = [];
  const T = mode === "single" ? M(target) : mode === "range" ? moneyRange(r, target, hardCap, currency, locale) : "";
  if (has.strategy) slides.push({ key: "strategy", title: r.pick(["Strategy", "Investment thesis", "Why now"]), blocks: [{ t: "text", text: `${firm} backs ${cover.tagline.replace(/^[A-Z][a-z]/, (w) => w.toLowerCase())}${mode === "single" && r.chance(0.5) ? `; ${fundName} targets ${T}` : ""}.`, size: "lg" }, { t: "bullets", items: [`Lead or co-lead the first institutional round`, `Initial tickets of ${M(niceAmount(r, 500_000, 1_000_000))} to ${M(niceAmount(r, 1_500_000, 3_000_000))}`, `Board seat in most companies`] }] });
  const partners = Array.from({ length: r.int(2, 4) }, (_, i) => makePerson(r, used, i === 0 ? r.pick(["Managing Partner", "Founding Partner", "General Partner"]) : r.pick(["General Partner", "Partner", "Principal"]), r.pick([`ex-${r.pick(FORMER)}`, `founded and sold ${r.pick(BRANDS)} to ${r.pick(FORMER)}`, `${r.int(8, 20)} years in venture`])));
  const board = r.chance(0.6) ? Array.from({ length: r.int(1, 3) }, () => makePerson(r, used, "Advisory Board", r.pick([`former CIO of a pension fund`, `founder of ${r.pick(FORMER)} ${r.pick(["Labs", "Health"])}`, `Professor, ${r.pick(SCHOOLS)}`]))) : [];
  const founders = Array.from({ length: r.int(1, 3) }, () => makePerson(r, used, "Founder & CEO", ""));
  const lpPeople = has.lp_base && r.chance(0.5) ? [makePerson(r, used, "Anchor LP", "family office principal")] : [];
  if (has.team) slides.push({ key: "team", title: r.pick(["Team", "The partnership", "Our team"]), blocks: [{ t: "people", people: partners, photos: r.chance(0.7), columns: Math.min(partners.length, 4) }, ...(board.length ? [{ t: "people" as const, heading: "Advisory board", people: board, photos: false, columns: Math.min(board.length, 3) }] : [])] });
  if (board.length && has.team) traps.add("advisors-on-team-slide");
  if (has.track_record) {
    slides.push({ key: "track_record", title: r.pick(["Track record", "Fund I performance", "Results to date"]), blocks: [{ t: "table", rows: [["Fund", "Vintage", "Size", "Companies", "TVPI", "DPI", "Net IRR"], [`${firm} Fund I`, String(r.int(2016, 2020)), M(prevSize), String(r.int(15, 30)), `${(1.5 + r.next() * 2).toFixed(1)}x`, `${(r.next() * 1.2).toFixed(2)}x`, `${r.int(14, 35)}%`]] }, { t: "text", text: `Notable: ${founders.map((f) => `${r.pick(BRANDS)} (${f.name}, ${f.title})`).join("; ")}.`, size: "sm" }] });
    traps.add("previous-fund-size");
    traps.add("portfolio-founders-named");
  }
  if (has.portfolio_construction) slides.push({ key: "portfolio_construction", title: r.pick(["Portfolio construction", "Fund model"]), blocks: [{ t: "bullets", items: [`${r.int(20, 35)} companies`, `${r.int(40, 60)}% of the fund reserved for follow-ons`, `Target ownership ${r.int(8, 15)}% at entry`, `Average initial ticket ${M(niceAmount(r, 700_000, 2_500_000))}`] }] });
  if (has.fund_terms) {
    const fee = r.pick(["2.0%", "2%", "2.5%", "1.75%"]);
    const carry = r.pick(["20%", "20%", "25%"]);
    const gp = r.pick([1, 2, 2.5]);
    const rows: [string, string][] = [["Fund", fundName], [mode === "single" ? "Target size" : "Target", T], ...(r.chance(0.6) && mode === "single" ? ([["Hard cap", M(hardCap)]] as [string, string][]) : []), ["Management fee", `${fee} p.a.`], ["Carried interest", `${carry} (8% hurdle)`], ["GP commitment", r.chance(0.5) ? `${gp}%` : `${gp}% (${M(Math.round((target * gp) / 100))})`], ["Term", "10 + 2 years"], ["First close", r.pick(["3/31/2026", "31 March 2026", "Q2 2026", "31.03.2026"])]];
    slides.push({ key: "fund_terms", title: r.pick(["Key terms", "Fund terms", "Terms"]), blocks: [{ t: "kv", rows }, ...(r.chance(0.4) ? [{ t: "text" as const, text: `First close on 3/31 with ${M(niceAmount(r, target * 0.3, target * 0.5))} committed.`, size: "sm" as const }] : [])] });
    traps.add("first-close-date");
    traps.add("hard-cap-and-gp-commit");
  }
  if (has.lp_base) slides.push({ key: "lp_base", title: r.pick(["LP base", "Our investors", "Limited partners"]), blocks: [{ t: "bullets", items: [`Anchor: ${r.pick(["European Investment Fund (EIF)", "KfW Capital", "British Business Bank", "a Swiss pension fund"])}`, `${r.int(20, 70)} LPs: family offices, founders, fund-of-funds`, ...lpPeople.map((p) => `${p.name} (${p.bio})`)] }] });
  slides.push({ key: "closing", title: "Contact", blocks: [{ t: "text", text: `${partners[0].name.split(" ")[0].toLowerCase()}@${domain}  |  ${domain}` }] });
  tidy(slides);
  const addressed = (["team", "strategy", "fund_terms", "portfolio_construction", "track_record", "lp_base"] as const).filter((k) => has[k]);
  return {
    id,
    voice: "fund",
    locale,
    cover,
    slides,
    domain,
    labels: {
      id,
      voice: "fund",
      company_name: firm,
      company_aliases: [fundName, `${firm} Fund ${roman}`.replace(" Fund ", " ")],
      domain,
      kind: "fund",
      round: { stage: null, amount: mode === "single" ? target : null, currency: mode === "single" ? currency : null, pre_money: null },
      team: has.team ? partners.map((p) => ({ name: p.name, title: p.title })) : [],
      not_team: [...(has.team ? board : []), ...(has.track_record ? founders : []), ...lpPeople].map((p) => p.name),
      sections_addressed: [...addressed],
      sections_optional: has.strategy ? ["portfolio_construction"] : [],
      traps: [...traps],
    },
  };
}
