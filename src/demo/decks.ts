// A venture firm's deal flow as pitch decks, deterministic for a seed: companies across sectors,
// stages and rounds with their teams and traction figures, some decks thin on purpose (a cover
// and a founder, nothing to score), and a few LP decks of venture funds (size, fees, carry, prior
// funds' TVPI/DPI/IRR). Each deck is written as a real PDF (pdf-lib), and some also as a real
// PPTX or DOCX (minimal OOXML zipped with fflate) that LibreOffice converts. `dealgraph demo`
// uploads them; scripts/bench/deals.ts builds its 30-page deck from the same model.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { strToU8, zipSync } from "fflate";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { rng } from "./rng.ts";

export type PipelineStage = "new" | "screening" | "diligence" | "ic" | "invested" | "passed";
export type Slide = { title: string; lines: string[] };
export type DeckSpec = {
  slug: string;
  name: string;
  domain: string;
  kind: "company" | "fund";
  /** rich: every section; partial: some left out; thin: nothing a partner could score. */
  richness: "rich" | "partial" | "thin";
  /** The format the firm received it in (a PDF twin is always written too). */
  format: "pdf" | "pptx" | "docx";
  pipeline: PipelineStage;
  /** When the deal came in, days before the demo's "now". */
  daysAgo: number;
  slides: Slide[];
};

type Rng = ReturnType<typeof rng>;

const SECTORS = [
  { sector: "fintech", suffixes: ["Pay", "Ledger", "Treasury"], what: "a treasury and payments API", who: "finance teams at mid-market companies", rivals: ["Kyriba", "legacy banks"] },
  { sector: "health", suffixes: ["Health", "Care", "Clinic"], what: "a care-coordination platform", who: "clinics and home-care providers", rivals: ["Epic add-ons", "spreadsheets and fax"] },
  { sector: "climate", suffixes: ["Grid", "Carbon", "Energy"], what: "a grid-flexibility platform", who: "utilities and battery owners", rivals: ["in-house utility tools", "AutoGrid"] },
  { sector: "ai", suffixes: ["AI", "Labs", "Mind"], what: "an AI document-review platform", who: "legal and compliance teams", rivals: ["manual review vendors", "generic LLM chat tools"] },
  { sector: "developer tools", suffixes: ["Cloud", "Stack", "Dev"], what: "an observability platform for data pipelines", who: "data engineering teams", rivals: ["Datadog", "homegrown scripts"] },
  { sector: "security", suffixes: ["Shield", "Guard", "Secure"], what: "an identity-security platform", who: "security teams at cloud-first companies", rivals: ["Okta add-ons", "consultancies"] },
  { sector: "logistics", suffixes: ["Freight", "Route", "Fleet"], what: "a freight-visibility platform", who: "shippers and 3PLs", rivals: ["project44", "phone and email"] },
  { sector: "edtech", suffixes: ["Learn", "Campus", "Tutor"], what: "an adaptive learning platform", who: "secondary schools", rivals: ["Khan Academy", "paper worksheets"] },
  { sector: "proptech", suffixes: ["Estate", "Build", "Site"], what: "a construction-scheduling platform", who: "general contractors", rivals: ["Procore", "whiteboards"] },
  { sector: "robotics", suffixes: ["Robotics", "Motion", "Dynamics"], what: "a robotic picking system", who: "warehouse operators", rivals: ["Ocado", "manual picking"] },
] as const;
const PREFIX = ["Acorn", "Beacon", "Cinder", "Delta", "Ember", "Fjord", "Garnet", "Harbor", "Indigo", "Jasper", "Keystone", "Lattice", "Mosaic", "Nova", "Onyx", "Prism", "Quarry", "Ripple", "Summit", "Tundra", "Umber", "Vantage", "Willow", "Yarrow", "Zenith"];
const FIRST = ["Maya", "Daniel", "Priya", "Jonas", "Elena", "Marcus", "Aiko", "Samuel", "Leila", "Tomas", "Hannah", "Kwame", "Sofia", "Ravi", "Clara", "Noah", "Ingrid", "Omar", "Grace", "Felix", "Amara", "Lucas", "Nadia", "Victor"];
const LAST = ["Okafor", "Lindqvist", "Raman", "Castellano", "Whitfield", "Nakamura", "Brennan", "Haddad", "Moreau", "Adeyemi", "Kowalski", "Sato", "Mendes", "Fischer", "Abbott", "Varga", "Chen", "Delgado", "Novak", "Hart"];
const ALUMNI = ["Stripe", "Google", "Amazon", "McKinsey", "Microsoft", "Apple", "Goldman"];
const CITIES = ["Berlin", "London", "Paris", "Amsterdam", "Stockholm", "Lisbon", "Munich", "Zurich", "Barcelona", "Copenhagen"];
const ROUNDS = [
  { stage: "Pre-seed", amount: [1, 2], arr: null },
  { stage: "Seed", amount: [2, 5], arr: [0.3, 1.5] },
  { stage: "Series A", amount: [8, 15], arr: [2, 6] },
  { stage: "Series B", amount: [20, 40], arr: [8, 20] },
] as const;
// The pipeline the demo shows: most deals early, a few at IC, some invested, some passed.
const PIPELINE: PipelineStage[] = ["new", "screening", "diligence", "screening", "new", "passed", "ic", "diligence", "invested", "screening", "new", "passed"];
const MANAGERS = ["Northlight", "Ironbridge", "Bluewater", "Kestrel Peak"];
const ROMAN = ["I", "II", "III", "IV"];

const money = (millions: number, sym: string) => `${sym}${millions >= 1 ? `${+millions.toFixed(1)}M` : `${Math.round(millions * 1000)}K`}`;
const between = (r: Rng, [lo, hi]: readonly [number, number]) => lo + (hi - lo) * r.next();

function person(r: Rng, used: Set<string>): string {
  for (;;) {
    const name = `${r.pick(FIRST)} ${r.pick(LAST)}`;
    if (!used.has(name)) return (used.add(name), name);
  }
}

function companyDeck(r: Rng, i: number, names: Set<string>, people: Set<string>): DeckSpec {
  const s = SECTORS[i % SECTORS.length];
  let name = "";
  while (!name || names.has(name)) name = `${r.pick(PREFIX)}${r.pick(s.suffixes)}`;
  names.add(name);
  const slug = name.toLowerCase();
  const domain = `${slug}.${r.pick(["io", "com", "ai", "co"])}`;
  const richness = i % 6 === 5 ? "thin" : i % 4 === 3 ? "partial" : "rich";
  const round = ROUNDS[Math.min(ROUNDS.length - 1, Math.floor(r.next() * 4))];
  const sym = r.chance(0.25) ? "€" : "$";
  // Half millions, so decks state figures like "$2.5M" and "$12,500,000".
  const amount = Math.round(between(r, round.amount) * 2) / 2;
  const [ceo, cto, coo] = [person(r, people), person(r, people), person(r, people)];
  const city = r.pick(CITIES);
  const founded = 2016 + r.int(2, 8);
  const format = [2, 9, 20].includes(i) ? "pptx" : [4, 13].includes(i) ? "docx" : "pdf";
  const base = { slug, name, domain, kind: "company" as const, richness, format, pipeline: PIPELINE[i % PIPELINE.length], daysAgo: 2 + ((i * 7) % 120) } satisfies Partial<DeckSpec>;

  if (richness === "thin") {
    return {
      ...base,
      pipeline: i % 2 ? "passed" : "new",
      slides: [
        { title: name, lines: [`${name}. Reimagining how ${s.who} work.`, `Contact us at hello@${domain} to learn more.`] },
        { title: "Our vision", lines: [`We believe ${s.who} deserve better, and we would love to tell you the rest in person.`] },
        { title: "Who we are", lines: [`${ceo}, Founder & CEO.`] },
      ],
    };
  }
  const arr = round.arr ? between(r, round.arr) : null;
  const growth = r.int(6, 22);
  const customers = arr ? Math.max(3, Math.round((arr * 1e6) / r.int(15_000, 90_000))) : r.int(2, 6);
  // The same facts in the phrasings real decks use (chosen by the deck's place, so the random draws
  // and thus every name and figure stay as they were): cover boilerplate, four ways to state the
  // raise, team slides as prose, title-first or name/role blocks, prices per unit, take rates.
  const v = i % 4;
  const [alum1, years, alum2, teamSize] = [r.pick(ALUMNI), r.int(4, 11), r.pick(ALUMNI), r.int(20, 80)];
  const team = [
    [`${ceo}, Co-founder & CEO: previously led product at ${alum1} for ${years} years.`, `${cto} (CTO), ex-${alum2}, PhD in computer science; built the core platform.`, `${coo}, COO: former operator who scaled a team of ${teamSize} engineers and sold her last company.`],
    [`CEO: ${ceo}, previously led product at ${alum1} for ${years} years.`, `CTO: ${cto}, ex-${alum2}, PhD in computer science.`, `COO: ${coo}, scaled a team of ${teamSize} engineers and sold her last company.`],
    [ceo, "Co-founder & CEO", `Previously led product at ${alum1} for ${years} years.`, cto, "CTO", `Ex-${alum2}, PhD in computer science.`, coo, "COO", `Scaled a team of ${teamSize} engineers; sold her last company.`],
    [`${ceo} – CEO & Co-founder. ${years} years at ${alum1}, where she led product.`, `${cto} – CTO. Ex-${alum2}, PhD in computer science.`, `${coo} – COO. Former operator, scaled a team of ${teamSize} engineers.`],
  ][v];
  // An advisor on the team slide: listed, and not a member of the team.
  const advisor = `${FIRST[(i * 5 + 3) % FIRST.length]} ${LAST[(i * 7 + 2) % LAST.length]}`;
  const launched = Math.min(2025, founded + 1);
  const integrations = r.int(6, 40);
  const retention = arr ? r.int(105, 145) : 0;
  const converted = arr ? 0 : r.int(1, 3);
  const [tam, cagr] = [r.int(4, 40), r.int(12, 30)];
  const [margin, acv, payback] = [r.int(62, 86), r.int(12, 90), r.int(6, 18)];
  const [burn, runway, breakEven] = [between(r, [0.08, 0.6]), r.int(14, 30), 2026 + r.int(1, 3)];
  const preMoney = amount * r.int(3, 5);
  const [engineering, gtm, lead] = [r.int(45, 65), r.int(20, 35), r.chance(0.5)];
  const full = (millions: number) => `${sym === "€" ? "€" : "$"}${Math.round(millions * 1e6).toLocaleString("en-US")}`;
  const euroStyle = (millions: number) => `${String(millions).replace(".", ",")} Mio. €`;
  const raise = [
    `We are raising ${money(amount, sym)} ${round.stage} at a ${money(preMoney, sym)} pre-money valuation.`,
    `The ask: ${full(amount)} in a ${round.stage} round, at a pre-money valuation of ${money(preMoney, sym)}.`,
    `We're seeking ${sym}${amount} million in ${round.stage} funding; pre-money valuation ${money(preMoney, sym)}.`,
    sym === "€" ? `We are raising ${euroStyle(amount)} (${round.stage}) at ${money(preMoney, sym)} pre-money.` : `Raising ${money(amount, sym)} ${round.stage} at ${money(preMoney, sym)} pre.`,
  ][v];
  const model = [
    [`SaaS subscription priced per seat; gross margin ${margin}%.`, `ACV ${money(acv / 1000, sym)}, CAC payback ${payback} months.`],
    [`Annual licence per site, priced at ${money(acv / 1000, sym)}; gross margin ${margin}%.`, `CAC payback ${payback} months.`],
    [`Usage-based pricing: ${sym}${(acv / 100).toFixed(2)} per document processed, with annual minimums; gross margin ${margin}%.`, `ACV ${money(acv / 1000, sym)}, CAC payback ${payback} months.`],
    [`Platform fee of ${Math.round(acv / 10)}% on each transaction, plus a subscription for analytics; gross margin ${margin}%.`, `CAC payback ${payback} months.`],
  ][v];
  const slides: (Slide & { optional?: true })[] = [
    {
      title: name,
      lines: [
        ...(v === 1 ? ["Strictly confidential"] : v === 3 ? ["Investor presentation"] : []),
        `${name}. ${s.what[0].toUpperCase()}${s.what.slice(1)} for ${s.who}.`,
        `${name} is ${s.what} that helps ${s.who} cut manual work by half.`,
        v === 2 ? `HQ: ${city}. Founded: ${founded}. ${domain}` : `Founded in ${founded}, based in ${city}. ${domain}`,
      ],
    },
    { title: v === 0 ? "Team" : "Our team", lines: [...team, `Advisor: ${advisor}, former CFO at ${ALUMNI[i % ALUMNI.length]}.`] },
    { title: "Product", lines: [`Our platform launched in ${launched} and is live with ${customers} customers.`, `Proprietary workflow engine with ${integrations} integrations into the tools they already use.`] },
    {
      title: "Traction",
      lines: arr
        ? [
            v === 1 ? `Annual recurring revenue of ${full(Math.round(arr * 10) / 10)}, growing ${growth}% month over month.` : `ARR ${money(arr, sym)}, growing ${growth}% month over month.`,
            `${customers} customers including two public companies${v === 2 ? " and Series B scale-ups" : ""}. Net revenue retention ${retention}%.`,
          ]
        : [`${customers} design partners signed pilots; ${converted} converted to paid contracts last quarter.`],
    },
    { title: "Market", lines: [`The market for ${s.what.replace(/^an? /, "")} tools is a ${sym}${tam}B TAM growing ${cagr}% CAGR.`], optional: true },
    { title: v === 3 ? "Pricing" : "Business model", lines: model, optional: true },
    { title: "Competition", lines: [`Unlike ${s.rivals[0]} and ${s.rivals[1]}, ${name} is built for ${s.who}; our moat is the data network effect across customers.`], optional: true },
    { title: "Financials", lines: [`Monthly burn ${money(burn, sym)}, runway ${runway} months; break-even planned for ${breakEven}.`], optional: true },
    {
      title: v === 1 ? "The ask" : "The round",
      lines: [raise, `Use of funds: ${engineering}% engineering, ${gtm}% go-to-market.${lead ? " A lead investor has committed half the round." : ""}`],
    },
  ];
  // A partial deck leaves out two or three of the optional slides.
  const kept = richness === "partial" ? slides.filter((sl) => !sl.optional || r.chance(0.35)) : slides;
  return { ...base, slides: kept.map(({ title, lines }) => ({ title, lines })) };
}

function fundDeck(r: Rng, i: number, people: Set<string>): DeckSpec {
  const manager = MANAGERS[i % MANAGERS.length];
  const number = i === 3 ? 0 : r.int(1, 3); // the last is a first-time fund: no track record to show
  // "Fund I" alone would read as a track record; a first fund is named like one.
  const fundName = number ? `${manager} Fund ${ROMAN[number]}` : `${manager} Seed Fund`;
  const size = r.int(6, 25) * 10;
  const [gp1, gp2] = [person(r, people), person(r, people)];
  const domain = `${manager.toLowerCase().replace(/\s+/g, "")}.vc`;
  const priors = ROMAN.slice(0, number).map((n, k) => {
    const tvpi = between(r, [1.4, 3.6]);
    const [dpi, irr] = [(tvpi * between(r, [0.2, 0.8])).toFixed(1), r.int(12, 32)];
    // The first prior fund as "TVPI 2.9x", later ones as "2.9x TVPI" (with its size): decks write both.
    return k === 0
      ? `Fund ${n} (${2012 + k * 3}): TVPI ${tvpi.toFixed(1)}x, DPI ${dpi}x, net IRR ${irr}%.`
      : `Fund ${n} (${2012 + k * 3}, $${(k + 1) * 30}M): ${tvpi.toFixed(1)}x TVPI, ${dpi}x DPI, ${irr}% net IRR.`;
  });
  const [alum1, years, alum2] = [r.pick(ALUMNI), r.int(8, 15), r.pick(ALUMNI)];
  const [focus1, focus2] = [r.pick(SECTORS).sector, r.pick(SECTORS).sector];
  const [fee, carry] = [r.pick(["2%", "2.5%", "2%"]), r.pick(["20%", "20%", "25%"])];
  const hardCap = Math.round(size * 1.25);
  // The same terms as LP decks state them: spelled out, as "2/20", or in a labelled list.
  const terms = [
    [`Target fund size $${size}M, hard cap $${hardCap}M.`, `Management fee ${fee}, carried interest ${carry} over an 8% hurdle; GP commitment 2%.`],
    [`We are targeting $${size}M, with a hard cap of $${hardCap}M.`, `Economics: ${fee.replace("%", "")}/${carry.replace("%", "")} (${fee} management fee, ${carry} carried interest), 8% hurdle; GP commitment of 2% of commitments.`],
    [`Fund size: $${size}M (target), $${hardCap}M (hard cap).`, `${fee} management fee; ${carry} carried interest over an 8% preferred return; GP commit 2%.`],
  ][i % 3];
  const slides: Slide[] = [
    { title: fundName, lines: [`${fundName}. ${manager} is raising ${fundName}, a $${size}M early-stage venture fund.`, `Limited partners of the fund receive quarterly reports. ${domain}`] },
    { title: "Team", lines: [`${gp1}, General Partner: previously a founder who sold her company to ${alum1}.`, `${gp2}, Managing Partner: ${years} years investing at ${alum2} Ventures.`] },
    { title: "Strategy", lines: [`Our thesis: seed and Series A focus on ${focus1} and ${focus2} companies in Europe.`] },
    { title: i % 2 ? "Key terms" : "Fund terms", lines: terms },
    { title: "Portfolio construction", lines: [`${r.int(20, 25)} to ${r.int(28, 35)} companies with initial checks of $${r.int(5, 30) / 10}M; ${r.int(40, 60)}% reserves for follow-on; target ${r.int(8, 15)}% ownership.`] },
    ...(priors.length ? [{ title: "Track record", lines: [...priors, `${r.int(3, 9)} realized exits across prior funds.`] }] : []),
    { title: "LP base", lines: [`Anchor commitment from a university endowment; institutional LPs and family offices make up ${r.int(50, 80)}% of commitments.`] },
  ];
  return { slug: fundName.toLowerCase().replace(/\s+/g, "-"), name: fundName, domain, kind: "fund", richness: priors.length ? "rich" : "partial", format: "pdf", pipeline: (["screening", "diligence", "invested", "new"] as const)[i % 4], daysAgo: 10 + i * 17, slides };
}

/** The demo's deal flow: `companies` company decks and `funds` LP fund decks. */
export function generateDeals(o: { seed?: number; companies?: number; funds?: number } = {}): DeckSpec[] {
  const r = rng((o.seed ?? 7) * 7919 + 4);
  const names = new Set<string>();
  const people = new Set<string>();
  const decks = Array.from({ length: o.companies ?? 32 }, (_, i) => companyDeck(r, i, names, people));
  decks.push(...Array.from({ length: o.funds ?? 4 }, (_, i) => fundDeck(r, i, people)));
  return decks;
}

/** A deck padded to `pages` pages with appendix slides (customer cases, metrics): the bench's long deck. */
export function longDeck(deck: DeckSpec, pages: number, seed = 1): DeckSpec {
  const r = rng(seed);
  const extra: Slide[] = [];
  for (let n = deck.slides.length; n < pages; n++) {
    const customer = `${r.pick(PREFIX)} ${r.pick(["Group", "Holdings", "Logistics", "Clinics", "Foods", "Energy"])}`;
    extra.push({
      title: `Appendix ${extra.length + 1}: ${customer}`,
      lines: [
        `${customer} rolled out ${deck.name} to ${r.int(20, 400)} users in ${r.int(2, 9)} weeks and renewed for ${r.int(2, 3)} years.`,
        `Cycle time fell ${r.int(20, 70)}% and the team saved ${r.int(5, 40)} hours a week after the integration went live.`,
        `Monthly active usage reached ${r.int(60, 95)}% of seats; expansion revenue grew ${r.int(10, 60)}% in the quarter.`,
        `Quote from the buyer: the workflow replaced three spreadsheets and a weekly status meeting.`,
      ],
    });
  }
  return { ...deck, slides: [...deck.slides, ...extra] };
}

// ---- writers ----

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const w of text.split(" ")) {
    if (line && (line + " " + w).length > width) (lines.push(line), (line = w));
    else line = line ? `${line} ${w}` : w;
  }
  return line ? [...lines, line] : lines;
}

/** One landscape page per slide, the title in bold, the lines wrapped. */
export async function deckPdf(deck: DeckSpec): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(deck.name);
  const [font, bold] = [await doc.embedFont(StandardFonts.Helvetica), await doc.embedFont(StandardFonts.HelveticaBold)];
  for (const slide of deck.slides) {
    const page = doc.addPage([842, 595]);
    page.drawText(slide.title, { x: 48, y: 530, size: 26, font: bold });
    let y = 480;
    for (const paragraph of slide.lines) {
      for (const l of wrap(paragraph, 92)) (page.drawText(l, { x: 48, y, size: 14, font }), (y -= 20));
      y -= 10;
    }
  }
  return doc.save();
}

/** XML text escaped for OOXML parts. */
export const xmlText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const esc = xmlText;
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS_A = "http://schemas.openxmlformats.org/drawingml/2006/main";
const NS_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const NS_P = "http://schemas.openxmlformats.org/presentationml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const CT = "application/vnd.openxmlformats-officedocument";

const rels = (items: [id: string, type: string, target: string][]) =>
  `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items.map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`).join("")}</Relationships>`;
const contentTypes = (overrides: [part: string, type: string][]) =>
  `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${overrides.map(([p, t]) => `<Override PartName="${p}" ContentType="${t}"/>`).join("")}</Types>`;

const EMPTY_TREE = '<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>';
const THEME_COLORS = ["dk1:000000", "lt1:FFFFFF", "dk2:1F2937", "lt2:F3F4F6", "accent1:2563EB", "accent2:059669", "accent3:D97706", "accent4:DC2626", "accent5:7C3AED", "accent6:0891B2", "hlink:2563EB", "folHlink:7C3AED"];
const solid = '<a:solidFill><a:schemeClr val="phClr"/></a:solidFill>';
const THEME =
  `${XML}<a:theme xmlns:a="${NS_A}" name="Dealgraph"><a:themeElements><a:clrScheme name="Dealgraph">` +
  THEME_COLORS.map((c) => `<a:${c.split(":")[0]}><a:srgbClr val="${c.split(":")[1]}"/></a:${c.split(":")[0]}>`).join("") +
  `</a:clrScheme><a:fontScheme name="Dealgraph"><a:majorFont><a:latin typeface="Arial"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont><a:minorFont><a:latin typeface="Arial"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont></a:fontScheme>` +
  `<a:fmtScheme name="Dealgraph"><a:fillStyleLst>${solid.repeat(3)}</a:fillStyleLst><a:lnStyleLst>${`<a:ln w="9525">${solid}</a:ln>`.repeat(3)}</a:lnStyleLst>` +
  `<a:effectStyleLst>${"<a:effectStyle><a:effectLst/></a:effectStyle>".repeat(3)}</a:effectStyleLst><a:bgFillStyleLst>${solid.repeat(3)}</a:bgFillStyleLst></a:fmtScheme></a:themeElements></a:theme>`;

function textBox(id: number, name: string, y: number, height: number, paragraphs: { text: string; size: number; bold?: boolean }[]): string {
  const ps = paragraphs.map((p) => `<a:p><a:r><a:rPr lang="en-US" sz="${p.size}"${p.bold ? ' b="1"' : ""}/><a:t>${esc(p.text)}</a:t></a:r></a:p>`).join("");
  return (
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="${name}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>` +
    `<p:spPr><a:xfrm><a:off x="457200" y="${y}"/><a:ext cx="11277600" cy="${height}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>` +
    `<p:txBody><a:bodyPr wrap="square"><a:normAutofit/></a:bodyPr><a:lstStyle/>${ps}</p:txBody></p:sp>`
  );
}

/**
 * A real PPTX package (minimal master, layout, theme) around the given slides: each entry is the
 * shapes of one slide's tree. Shared with the deck corpus's writer (scripts/bench/deck-corpus).
 */
export function pptxPackage(slideShapes: string[], size = { cx: 12192000, cy: 6858000 }): Uint8Array {
  const files: Record<string, Uint8Array> = {
    "[Content_Types].xml": strToU8(
      contentTypes([
        ["/ppt/presentation.xml", `${CT}.presentationml.presentation.main+xml`],
        ["/ppt/slideMasters/slideMaster1.xml", `${CT}.presentationml.slideMaster+xml`],
        ["/ppt/slideLayouts/slideLayout1.xml", `${CT}.presentationml.slideLayout+xml`],
        ["/ppt/theme/theme1.xml", `${CT}.theme+xml`],
        ...slideShapes.map((_, i): [string, string] => [`/ppt/slides/slide${i + 1}.xml`, `${CT}.presentationml.slide+xml`]),
      ]),
    ),
    "_rels/.rels": strToU8(rels([["rId1", "officeDocument", "ppt/presentation.xml"]])),
    "ppt/presentation.xml": strToU8(
      `${XML}<p:presentation xmlns:a="${NS_A}" xmlns:r="${NS_R}" xmlns:p="${NS_P}"><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst>` +
        `<p:sldIdLst>${slideShapes.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 3}"/>`).join("")}</p:sldIdLst>` +
        `<p:sldSz cx="${size.cx}" cy="${size.cy}"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>`,
    ),
    "ppt/_rels/presentation.xml.rels": strToU8(
      rels([["rId1", "slideMaster", "slideMasters/slideMaster1.xml"], ["rId2", "theme", "theme/theme1.xml"], ...slideShapes.map((_, i): [string, string, string] => [`rId${i + 3}`, "slide", `slides/slide${i + 1}.xml`])]),
    ),
    "ppt/slideMasters/slideMaster1.xml": strToU8(
      `${XML}<p:sldMaster xmlns:a="${NS_A}" xmlns:r="${NS_R}" xmlns:p="${NS_P}"><p:cSld><p:spTree>${EMPTY_TREE}</p:spTree></p:cSld>` +
        `<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>` +
        `<p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst></p:sldMaster>`,
    ),
    "ppt/slideMasters/_rels/slideMaster1.xml.rels": strToU8(rels([["rId1", "slideLayout", "../slideLayouts/slideLayout1.xml"], ["rId2", "theme", "../theme/theme1.xml"]])),
    "ppt/slideLayouts/slideLayout1.xml": strToU8(`${XML}<p:sldLayout xmlns:a="${NS_A}" xmlns:r="${NS_R}" xmlns:p="${NS_P}"><p:cSld name="Blank"><p:spTree>${EMPTY_TREE}</p:spTree></p:cSld></p:sldLayout>`),
    "ppt/slideLayouts/_rels/slideLayout1.xml.rels": strToU8(rels([["rId1", "slideMaster", "../slideMasters/slideMaster1.xml"]])),
    "ppt/theme/theme1.xml": strToU8(THEME),
  };
  slideShapes.forEach((shapes, i) => {
    files[`ppt/slides/slide${i + 1}.xml`] = strToU8(`${XML}<p:sld xmlns:a="${NS_A}" xmlns:r="${NS_R}" xmlns:p="${NS_P}"><p:cSld><p:spTree>${EMPTY_TREE}${shapes}</p:spTree></p:cSld></p:sld>`);
    files[`ppt/slides/_rels/slide${i + 1}.xml.rels`] = strToU8(rels([["rId1", "slideLayout", "../slideLayouts/slideLayout1.xml"]]));
  });
  return zipSync(files, { level: 6, mtime: new Date("2024-01-01T00:00:00Z") });
}

/** A real PPTX: one slide per deck slide, a title box and a body box. */
export function deckPptx(deck: DeckSpec): Uint8Array {
  return pptxPackage(
    deck.slides.map(
      (slide) =>
        textBox(2, "Title", 304800, 914400, [{ text: slide.title, size: 3200, bold: true }]) +
        textBox(3, "Body", 1371600, 5029200, slide.lines.map((text) => ({ text, size: 1800 }))),
    ),
  );
}

/** A real DOCX package around a document body (WordprocessingML, without <w:body>) and its section properties. */
export function docxPackage(body: string, sectPr: string): Uint8Array {
  const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  return zipSync(
    {
      "[Content_Types].xml": strToU8(contentTypes([["/word/document.xml", `${CT}.wordprocessingml.document.main+xml`]])),
      "_rels/.rels": strToU8(rels([["rId1", "officeDocument", "word/document.xml"]])),
      "word/document.xml": strToU8(`${XML}<w:document ${W}><w:body>${body}<w:sectPr>${sectPr}</w:sectPr></w:body></w:document>`),
    },
    { level: 6, mtime: new Date("2024-01-01T00:00:00Z") },
  );
}

/** A real DOCX: the deck as a memo, each slide a bold heading and its paragraphs, a page per slide. */
export function deckDocx(deck: DeckSpec): Uint8Array {
  const para = (text: string, bold = false) => `<w:p><w:r>${bold ? '<w:rPr><w:b/><w:sz w:val="32"/></w:rPr>' : ""}<w:t xml:space="preserve">${esc(text)}</w:t></w:r></w:p>`;
  const body = deck.slides
    .map((s, i) => (i ? '<w:p><w:r><w:br w:type="page"/></w:r></w:p>' : "") + para(s.title, true) + s.lines.map((l) => para(l)).join(""))
    .join("");
  return docxPackage(body, '<w:pgSz w:w="16838" w:h="11906" w:orient="landscape"/>');
}

export type WrittenDeck = { deck: DeckSpec; pdf: string; office: string | null; bytes: number };

/** Writes every deck's PDF, and its PPTX/DOCX where that is the format it came in, under DIR/decks. */
export async function writeDeals(outDir: string, decks: DeckSpec[]): Promise<WrittenDeck[]> {
  const dir = join(outDir, "decks");
  mkdirSync(dir, { recursive: true });
  const written: WrittenDeck[] = [];
  for (const deck of decks) {
    const pdfBytes = await deckPdf(deck);
    const pdf = join(dir, `${deck.slug}.pdf`);
    await Bun.write(pdf, pdfBytes);
    let office: string | null = null;
    let bytes = pdfBytes.byteLength;
    if (deck.format !== "pdf") {
      const officeBytes = deck.format === "pptx" ? deckPptx(deck) : deckDocx(deck);
      office = join(dir, `${deck.slug}.${deck.format}`);
      await Bun.write(office, officeBytes);
      bytes += officeBytes.byteLength;
    }
    written.push({ deck, pdf, office, bytes });
  }
  return written;
}
