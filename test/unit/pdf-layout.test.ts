// The PDF text join: runs placed on a page come back as the page shows them. Scenario pages are
// built as pdf.js text items (string, matrix, width) in PDF space, y up, as pdf.js hands them out;
// the last tests go through real PDFs made with pdf-lib and the real extraction.
import { describe, expect, test } from "bun:test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { pdfPages } from "../../src/documents/pdf-text.ts";
import { layoutText, type PositionedText } from "../../src/documents/pdf-layout.ts";

const PAGE_HEIGHT = 540;
/** A run of text at (x, top-down y) in a font size, about half an em wide per character. */
const at = (str: string, x: number, y: number, size = 12, width = str.length * size * 0.5): PositionedText => ({ str, transform: [size, 0, 0, size, x, PAGE_HEIGHT - y], width, height: size });
const page = (items: PositionedText[]) => layoutText(items, [1, 0, 0, -1, 0, PAGE_HEIGHT]);

describe("layoutText", () => {
  test("separately placed boxes on one line are not glued: a wide gap is a break", () => {
    const text = page([at("The ask", 60, 100, 14), at("CHF 4.25 million", 60, 140, 22), at("Seed round", 400, 140, 22)]);
    expect(text).not.toContain("millionSeed");
    expect(text.split(/\n+/)).toEqual(["The ask", "CHF 4.25 million", "Seed round"]);
  });

  test("runs of one line join with a space where the page leaves one, and without where it does not", () => {
    // "Lumora" in two runs (a kerning split), then a word after a normal space.
    expect(page([at("Lum", 60, 100), at("ora", 78, 100), at("raises", 100, 100)])).toBe("Lumora raises");
  });

  test("runs come back in reading order whatever order the content stream drew them in", () => {
    expect(page([at("second line", 60, 120), at("first line", 60, 100)])).toBe("first line\nsecond line");
  });

  test("two columns are read column by column, not line by line across both", () => {
    const left = ["Founders", "Anna Keller, CEO", "Jonas Berg, CTO"].map((s, i) => at(s, 60, 150 + i * 20));
    const right = ["Advisors", "Karl Meier, former CFO", "Eva Roth, professor"].map((s, i) => at(s, 500, 150 + i * 20));
    expect(page([...left, ...right]).split(/\n+/)).toEqual(["Founders", "Anna Keller, CEO", "Jonas Berg, CTO", "Advisors", "Karl Meier, former CFO", "Eva Roth, professor"]);
  });

  test("a title above two columns comes first; a footer last", () => {
    const text = page([at("Confidential", 60, 525, 8), at("Team", 60, 60, 28), at("Anna Keller, CEO", 60, 150), at("Karl Meier, advisor", 500, 150)]);
    expect(text.split(/\n+/)).toEqual(["Team", "Anna Keller, CEO", "Karl Meier, advisor", "Confidential"]);
  });

  test("a table is read row by row, its cells joined by ' | '", () => {
    const rows = [["Name", "Role", "Background"], ["Anna Keller", "CEO", "ex-Google"], ["Jonas Berg", "CTO", "PhD ETH"]];
    const items = rows.flatMap((row, r) => row.map((cell, c) => at(cell, 60 + c * 180, 150 + r * 20)));
    expect(page(items)).toBe("Name | Role | Background\nAnna Keller | CEO | ex-Google\nJonas Berg | CTO | PhD ETH");
  });

  test("a table cell that wraps continues its row instead of starting a new one", () => {
    const items = [
      ...["Name", "Role"].map((s, c) => at(s, 60 + c * 200, 150)),
      at("Anna Keller", 60, 165), at("Founder, Managing", 260, 165), at("Director", 260, 180),
      at("Jonas Berg", 60, 200), at("CTO", 260, 200),
    ];
    expect(page(items)).toBe("Name | Role\nAnna Keller | Founder, Managing Director\nJonas Berg | CTO");
  });

  test("cards in a grid (name over role, in two sizes) are read card by card", () => {
    const items = ["Anna Keller", "Jonas Berg", "Eva Roth"].flatMap((name, i) => [at(name, 60 + i * 250, 300, 15), at(["CEO", "CTO", "COO"][i], 60 + i * 250, 320, 11)]);
    expect(page(items).split(/\n+/)).toEqual(["Anna Keller", "CEO", "Jonas Berg", "CTO", "Eva Roth", "COO"]);
  });

  test("prose set in two columns on shared baselines is not a table", () => {
    const items = [
      at("Our platform connects to the systems our customers", 60, 150), at("Europe alone accounts for a third of the demand we", 500, 150),
      at("already run and automates the manual steps.", 60, 165), at("see, and regulation keeps pushing it up.", 500, 165),
    ];
    const text = page(items);
    expect(text).not.toContain("|");
    expect(text.replace(/\s+/g, " ")).toContain("customers already run and automates");
  });

  test("a sidebar of section labels is read label by label with the block beside it", () => {
    const items = [
      at("TEAM", 50, 100, 10), at("Anna Keller, CEO and co-founder, ten years", 250, 100), at("at Google before starting the company.", 250, 115),
      at("MARKET", 50, 160, 10), at("A €12bn market growing 18% a year,", 250, 160), at("doubling by 2030.", 250, 175),
    ];
    expect(page(items).split(/\n+/)).toEqual(["TEAM", "Anna Keller, CEO and co-founder, ten years", "at Google before starting the company.", "MARKET", "A €12bn market growing 18% a year,", "doubling by 2030."]);
  });

  test("a line that ends well before its block's edge ends its paragraph (a blank line after it)", () => {
    const text = page([at("Anna Keller, CEO, built and sold a startup to Siemens in 2019", 60, 100), at("Olga Moreau, CTO", 60, 115), at("Our team of 12 engineers ships every week and", 60, 140), at("talks to customers daily.", 60, 155)]);
    expect(text).toContain("Olga Moreau, CTO\n\n");
  });

  test("text drawn twice at the same place (a fake bold) is read once; rotated labels come last", () => {
    const rotated: PositionedText = { str: "DRAFT", transform: [0, 12, -12, 0, 20, 300], width: 30, height: 12 };
    expect(page([at("Raising €2M", 60, 100), at("Raising €2M", 60.3, 100), rotated])).toBe("Raising €2M\n\nDRAFT");
  });

  test("a page with no text gives an empty string", () => {
    expect(page([at("   ", 60, 100)])).toBe("");
  });
});

describe("pdfPages (real PDFs)", () => {
  test("boxes drawn separately by pdf-lib come back apart, titles apart from the body", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    const p = doc.addPage([960, 540]);
    p.drawText("Investment", { x: 60, y: 470, size: 28, font: bold });
    p.drawText("Total round size", { x: 60, y: 380, size: 14, font });
    p.drawText("CHF 4.25 million", { x: 60, y: 350, size: 26, font: bold });
    p.drawText("(Seed)", { x: 330, y: 350, size: 26, font });
    p.drawText("Anna Keller", { x: 600, y: 380, size: 14, font: bold });
    p.drawText("Founder & CEO", { x: 600, y: 362, size: 11, font });
    const [text] = await pdfPages(await doc.save());
    expect(text).not.toMatch(/million\(?Seed/);
    expect(text.split(/\n+/)).toEqual(["Investment", "Total round size", "CHF 4.25 million", "(Seed)", "Anna Keller", "Founder & CEO"]);
  });
});
