// Whether extracted text is text: no text at all (a page image), or glyph codes read as characters
// (a font without a usable encoding), against real pages in several languages and a table of figures.
import { describe, expect, test } from "bun:test";
import { pageList, textProblem } from "../../src/lib/text-quality.ts";

const caesar = (s: string) => s.replace(/[a-z]/g, (c) => String.fromCharCode(((c.charCodeAt(0) - 97 + 3) % 26) + 97));

describe("textProblem", () => {
  const readable = [
    "We are raising EUR 4.5 million in a Seed round to hire engineers and launch in Germany.",
    "Wir suchen 2,5 Mio. € für unsere Seed-Runde und wachsen monatlich um zwölf Prozent.",
    "Nous levons 4,25 M€ pour recruter douze ingénieurs et ouvrir notre bureau à Lyon.",
    "ARR €3.5M · MoM 15% · NRR 132% · CAC payback 9 months",
    " | 2025 | 2026 | 2027\nRevenue | €1.2M | €3.4M | €8.0M\nEBITDA | -€2.0M | -€0.4M | €1.1M",
    "Team",
  ];
  for (const text of readable) test(`readable: ${text.slice(0, 40)}`, () => expect(textProblem(text)).toBeNull());

  test("nothing but whitespace, or a stray mark: no text", () => {
    for (const text of ["", "   \n ", "•", "3"]) expect(textProblem(text), JSON.stringify(text)).toBe("no_text");
  });

  test("glyph codes: control characters, private-use code points, punctuation soup, letters in no language's order", () => {
    // As pdf.js reads a subset font without a ToUnicode map (LibreOffice's export, ToUnicode removed).
    expect(textProblem("\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\u0007 \u0002\n\u0004\u0005 \u000e\u0004\u0005\u000e")).toBe("scrambled");
    expect(textProblem("\ue001\ue002\ue003 \ue004\ue005 \ue006\ue007\ue008")).toBe("scrambled");
    expect(textProblem("!\"#$%&'(#)*+,\"-./ !\"#$ %&'()")).toBe("scrambled");
    expect(textProblem(caesar("we are raising four million euros in a seed round to hire engineers and open an office in berlin next spring"))).toBe("scrambled");
  });
});

test("pageList", () => {
  expect(pageList([3])).toBe("page 3");
  expect(pageList([2, 3, 7])).toBe("pages 2, 3 and 7");
});
