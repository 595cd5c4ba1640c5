// Decks laid out the ways decks made with other tools are (built here as real PDFs with pdf-lib,
// read by the real extraction and the built-in engine), and the figures read from them: the team
// from name and role boxes, columns and photo captions, without customers, advisors or investors;
// the company from its cover and domain, never a programme's title; the raise and its stage from
// an ask slide full of other money; sections only where the deck speaks to them.
import { describe, expect, test } from "bun:test";
import { statedFundTerms } from "../../src/engines/builtin/deal-fund-terms.ts";
import { fundSize } from "../../src/engines/builtin/deal-round.ts";
import { readMaterial } from "../../src/engines/builtin/deal-text.ts";
import { pdfPages } from "../../src/documents/pdf-text.ts";
import { deckPdf, lines, readDeck, type Slide } from "./deck-pdf.ts";
import { deckPages } from "./deal-facts-corpus.ts";

const cover = (name: string, extra: Slide = []): Slide => [{ text: name, x: 80, y: 200, size: 44, font: "bold" }, { text: "Payroll for field crews", x: 80, y: 260, size: 18 }, ...extra];
const teamOf = (a: Awaited<ReturnType<typeof readDeck>>) => a.analysis.facts.team.map((m) => m.name);

describe("the team from the layout", () => {
  test("three columns of cards: photo, name, role and a bio in separate boxes", async () => {
    const slide: Slide = [
      { text: "Our Team", x: 60, y: 60, size: 28, font: "bold" },
      ...["Maya Lindgren", "Omar Haddad", "Priya Natarajan"].flatMap((n, i) => [
        { photo: true as const, x: 80 + i * 290, y: 110, w: 120, h: 120 },
        { text: n, x: 80 + i * 290, y: 260, size: 16, font: "bold" as const },
        { text: ["Co-founder & CEO", "Co-founder & CTO", "Head of Growth"][i], x: 80 + i * 290, y: 290, size: 12 },
        ...lines(["Ten years in payroll at ADP,", "built an ops team of 40."], 80 + i * 290, 320, 10),
      ]),
    ];
    expect(teamOf(await readDeck([cover("Quorra"), slide]))).toEqual(["Maya Lindgren", "Omar Haddad", "Priya Natarajan"]);
  });

  test("a two-by-two grid in another font, names and roles in separate boxes far apart", async () => {
    const slide: Slide = [
      { text: "Leadership", x: 60, y: 50, size: 26, font: "serif" },
      { text: "Daniel Okoro", x: 60, y: 130, size: 18, font: "serif" }, { text: "Chief Executive Officer", x: 60, y: 170, size: 12 },
      { text: "Sofia Marin", x: 500, y: 130, size: 18, font: "serif" }, { text: "Chief Technology Officer", x: 500, y: 170, size: 12 },
      { text: "Lena Vogt", x: 60, y: 280, size: 18, font: "serif" }, { text: "VP Sales", x: 60, y: 320, size: 12 },
      { text: "Tariq Aziz", x: 500, y: 280, size: 18, font: "serif" }, { text: "Head of Design", x: 500, y: 320, size: 12 },
    ];
    expect(new Set(teamOf(await readDeck([cover("Quorra"), slide])))).toEqual(new Set(["Daniel Okoro", "Sofia Marin", "Lena Vogt", "Tariq Aziz"]));
  });

  test("glyph-by-glyph text and a role set above the name", async () => {
    const glyphs: Slide = [
      { text: "Team", x: 60, y: 60, size: 28, font: "bold", glyphs: true },
      { text: "Hannah Brooks", x: 60, y: 150, size: 16, glyphs: true }, { text: "Founder, CEO", x: 60, y: 175, size: 11, glyphs: true },
      { text: "Ravi Menon", x: 400, y: 150, size: 16, glyphs: true }, { text: "CTO", x: 400, y: 175, size: 11, glyphs: true },
    ];
    const above: Slide = [
      { text: "Founders", x: 60, y: 60, size: 28, font: "bold" },
      { text: "CEO", x: 60, y: 150, size: 11, font: "mono" }, { text: "Ines Duarte", x: 60, y: 172, size: 18 },
      { text: "CTO", x: 500, y: 150, size: 11, font: "mono" }, { text: "Felix Hahn", x: 500, y: 172, size: 18 },
    ];
    const read = await readDeck([cover("Quorra"), glyphs, above]);
    expect(read.pages[1]).toContain("Hannah Brooks");
    expect(teamOf(read)).toEqual(["Hannah Brooks", "Ravi Menon", "Ines Duarte", "Felix Hahn"]);
    expect(read.analysis.facts.team.find((m) => m.name === "Ines Duarte")?.title).toBe("CEO");
  });

  test("customers' signatures, advisors and investors stay out of the team", async () => {
    const team: Slide = [{ text: "Team", x: 60, y: 60, size: 28, font: "bold" }, { text: "Maya Lindgren, CEO & Co-founder", x: 60, y: 150, size: 14 }];
    const quotes: Slide = [
      { text: "What customers say", x: 60, y: 60, size: 26, font: "bold" },
      { text: "“Quorra cut our payroll run from two days to an hour.”", x: 60, y: 150, size: 16 },
      { text: "— Karen Doyle, COO at Apex Builders", x: 60, y: 190, size: 12 },
      { text: "“The crews love getting paid on time.”", x: 60, y: 260, size: 16 },
      { text: "Mike Tran", x: 60, y: 300, size: 12, font: "bold" }, { text: "COO, Ridge Roofing", x: 60, y: 318, size: 11 },
    ];
    const advisors: Slide = [
      { text: "Advisors", x: 60, y: 60, size: 26, font: "bold" },
      { text: "Elena Ruiz", x: 60, y: 150, size: 16 }, { text: "Former CFO, Gusto", x: 60, y: 172, size: 11 },
      { text: "Paul Becker", x: 400, y: 150, size: 16 }, { text: "Partner, Crane Ventures", x: 400, y: 172, size: 11 },
    ];
    const mixed: Slide = [{ text: "People", x: 60, y: 60, size: 26, font: "bold" }, { text: "Nora Quist", x: 60, y: 150, size: 16 }, { text: "Strategic Advisor, ex-CEO", x: 60, y: 172, size: 11 }];
    expect(teamOf(await readDeck([cover("Quorra"), team, quotes, advisors, mixed]))).toEqual(["Maya Lindgren"]);
  });
});

describe("the company's name", () => {
  test("from the cover and the deck's own domain, never a programme's or an advisor's name", async () => {
    const read = await readDeck([
      [{ text: "Y Combinator Demo Day", x: 80, y: 80, size: 14 }, { text: "Quorra", x: 80, y: 200, size: 44, font: "bold" }, { text: "Payroll for field crews", x: 80, y: 260, size: 18 }],
      [{ text: "Advisors", x: 60, y: 60, size: 26, font: "bold" }, { text: "Elena Ruiz", x: 60, y: 150, size: 16 }, { text: "Former CFO, Gusto", x: 60, y: 172, size: 11 }],
      [{ text: "Contact", x: 60, y: 60, size: 26 }, { text: "maya@quorra.io", x: 60, y: 150, size: 14 }],
    ]);
    expect(read.analysis.facts.company).toMatchObject({ name: "Quorra", domain: "quorra.io" });
  });

  test("a course title on the cover is not the company", async () => {
    const read = await readDeck([
      [{ text: "Stanford Venture Studio", x: 80, y: 80, size: 14 }, { text: "Spring Final Presentations", x: 80, y: 100, size: 14 }, { text: "Tidewell", x: 80, y: 200, size: 44, font: "bold" }],
      [{ text: "Tidewell is a platform that schedules home-care nurses.", x: 60, y: 100, size: 14 }],
      [{ text: "We are raising $1.2M pre-seed.", x: 60, y: 100, size: 14 }],
    ]);
    expect(read.analysis.facts.company.name).toBe("Tidewell");
  });
});

describe("the raise on an ask slide full of other money", () => {
  test("a big figure with its caption, use of funds, customers' volume and a burn", async () => {
    const ask: Slide = [
      { text: "The Ask", x: 60, y: 60, size: 28, font: "bold" },
      { text: "$2.5M", x: 60, y: 180, size: 60, font: "bold" }, { text: "Seed round", x: 60, y: 220, size: 16 },
      { text: "Use of funds", x: 500, y: 120, size: 18, font: "bold" },
      ...lines(["$1.2M for engineering", "$800K for go-to-market", "$500K for operations"], 500, 160, 14),
      { text: "Customers have processed $40M in payroll through Quorra; our $150K monthly burn gives 18 months.", x: 60, y: 420, size: 12 },
    ];
    const { analysis } = await readDeck([cover("Quorra"), ask]);
    expect(analysis.facts.round).toMatchObject({ amount: 2_500_000, currency: "USD", stage: "seed" });
  });

  test("a raise sentence beside past rounds, goals and a market: only the raise", async () => {
    const slide: Slide = lines(
      ["We raised a $2M seed in 2023 from Crane Ventures.", "We are now raising a $6M Pre-Series A, which at our", "$250K burn gives us 24 months to grow ARR from $1.2M", "to $5M in a $40B market."],
      60, 120, 16, 24,
    );
    const { analysis } = await readDeck([cover("Quorra"), [{ text: "Funding", x: 60, y: 60, size: 28, font: "bold" }, ...slide]]);
    expect(analysis.facts.round).toMatchObject({ amount: 6_000_000, currency: "USD", stage: "pre-series a" });
  });

  test("two amounts stated for the raise: null, and the summary says why", async () => {
    const { analysis } = await readDeck([cover("Quorra"), lines(["The Ask", "We are raising $3M in a seed round."], 60, 60, 20), lines(["Summary", "We are seeking $2M to reach break-even."], 60, 60, 20)]);
    expect(analysis.facts.round.amount).toBeNull();
    expect(analysis.summary).toContain("different amounts for this raise");
  });
});

describe("layout", () => {
  test("rotated text is read on its own, not spliced into the lines beside it", async () => {
    const [text] = await pdfPages(await deckPdf([[{ text: "We are raising $2M seed.", x: 100, y: 200, size: 16 }, { text: "CONFIDENTIAL DRAFT", x: 60, y: 400, size: 10, rotate: 90 }]]));
    expect(text.split(/\n+/)).toEqual(["We are raising $2M seed.", "CONFIDENTIAL DRAFT"]);
  });

  test("a letter-spaced title drawn glyph by glyph keeps its words", async () => {
    const doc: Slide = [];
    let x = 60;
    for (const ch of "USE OF FUNDS") {
      if (ch !== " ") doc.push({ text: ch, x, y: 60, size: 20 });
      x += ch === " " ? 14 : 18;
    }
    const [text] = await pdfPages(await deckPdf([doc]));
    expect(text).toBe("USE OF FUNDS");
  });

  test("a table of figures is read row by row, its cells in order", async () => {
    const rows = [["", "2024", "2025", "2026"], ["Revenue", "$0.4M", "$1.6M", "$5.2M"], ["EBITDA", "-$1.1M", "-$0.6M", "$0.9M"]];
    const items: Slide = rows.flatMap((r, i) => r.map((c, k) => ({ text: c, x: 80 + k * 160, y: 150 + i * 26, size: 13 })).filter((b) => b.text));
    const [text] = await pdfPages(await deckPdf([[{ text: "Financials", x: 60, y: 60, size: 28 }, ...items]]));
    expect(text).toContain("Revenue | $0.4M | $1.6M | $5.2M\nEBITDA | -$1.1M | -$0.6M | $0.9M");
  });
});

describe("fund terms and sections", () => {
  test("a first close on 3/31 is a date, not a fee and a carry", () => {
    const units = readMaterial(deckPages(["Harbor Ventures Fund II\nWe are raising a $50M fund; first close on 3/31 with anchor LPs.\nStandard terms: 2/20, GP commitment of 2%."], "fund"));
    expect(statedFundTerms(units, fundSize(units))).toEqual(["target size $50M", "management fee 2%", "carry 20%", "GP commitment 2%"]);
    const only = readMaterial(deckPages(["Harbor Ventures Fund II\nFirst close on 3/31, final close by 9/30."], "fund"));
    expect(statedFundTerms(only, fundSize(only))).toEqual([]);
  });

  test("sections the deck does not address are null with a reason, not scored from a stray word", async () => {
    const { analysis } = await readDeck([
      cover("Quorra"),
      lines(["Market", "Payroll for construction crews is a $40B market in the US."], 60, 60, 18),
      lines(["The Ask", "We are raising $2M seed to hire engineers and sales.", "Use of funds: $1.2M for engineering, $800K for sales."], 60, 60, 18),
    ]);
    const byKey = Object.fromEntries(analysis.sections.map((s) => [s.key, s]));
    for (const key of ["team", "product", "financials", "traction"]) {
      expect(byKey[key].score).toBeNull();
      expect(byKey[key].unavailable_reason).toStartWith("No statement in the material addresses");
    }
    expect(byKey.market.score).not.toBeNull();
    expect(byKey.round.score).not.toBeNull();
    expect(analysis.facts.round).toMatchObject({ amount: 2_000_000, stage: "seed" });
  });
});

describe("narrow cards and fund decks", () => {
  test("names and roles wrapped over lines in narrow cards, side by side with a narrow gutter", async () => {
    const card = (x: number, lines: [string, number][]): Slide => lines.map(([text, size], k) => ({ text, x, y: 150 + k * 13, size }));
    const slide: Slide = [
      { text: "Team", x: 40, y: 60, size: 20, font: "bold" },
      ...card(40, [["Ingrid", 10], ["Solberg", 10], ["Founder &", 8], ["CEO", 8], ["ex-Maersk", 7]]),
      ...card(90, [["Dr. Kofi", 10], ["Mensah", 10], ["Co-founder &", 8], ["CTO", 8], ["ex-SAP", 7]]),
      ...card(140, [["Lucía", 10], ["Ortega", 10], ["Head of", 8], ["Sales", 8], ["ex-Oracle", 7]]),
    ];
    expect(teamOf(await readDeck([cover("Quorra"), slide]))).toEqual(["Ingrid Solberg", "Kofi Mensah", "Lucía Ortega"]);
  });

  test("a fund's deck uploaded as a company's is read as the fund's: its target size, its partners", async () => {
    const { analysis } = await readDeck(
      [
        [{ text: "Fjordline Ventures Fund II", x: 80, y: 200, size: 36 }],
        lines(["Investment thesis", "We back seed-stage climate software in the Nordics; Fund II targets €120M.", "Initial tickets of €1M to €2M, with 50% reserved for follow-ons."], 60, 60, 16),
        lines(["Team", "Sara Lind, Managing Partner", "Mats Berg, General Partner"], 60, 60, 16),
        lines(["Terms", "Management fee 2%, carried interest 20%, GP commitment 2%.", "LPs: two pension funds and family offices."], 60, 60, 16),
      ],
      { kind: "company" },
    );
    expect(analysis.kind).toBe("fund");
    expect(analysis.facts.round).toMatchObject({ amount: 120_000_000, currency: "EUR", stage: null });
    expect(analysis.facts.team.map((m) => m.name)).toEqual(["Sara Lind", "Mats Berg"]);
    expect(analysis.sections.find((s) => s.key === "fund_terms")?.score).not.toBeNull();
  });
});
