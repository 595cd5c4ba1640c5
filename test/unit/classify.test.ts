// Data-room classification on realistic names and texts: explainable, content over a vague name.
import { describe, expect, test } from "bun:test";
import { classifyDocument } from "../../src/documents/classify.ts";

const category = (name: string, text = "", folder: string | null = null) => classifyDocument(name, folder, text).category;

describe("classifyDocument", () => {
  test("by name alone, the way data rooms name files", () => {
    expect(category("Ledgerly_Pitch_Deck_v7.pdf")).toBe("pitch_deck");
    expect(category("Investor Presentation Q3.pptx")).toBe("pitch_deck");
    expect(category("Financial_Model_2024-2027.xlsx")).toBe("financials");
    expect(category("P&L FY23.xlsx")).toBe("financials");
    expect(category("Cap Table (post-seed).xlsx")).toBe("cap_table");
    expect(category("captable.csv")).toBe("cap_table");
    expect(category("SHA.pdf", "", "Legal")).toBe("legal");
    expect(category("Mutual NDA - signed.pdf")).toBe("legal");
    expect(category("Term_Sheet_Seed.docx")).toBe("legal");
    expect(category("Customer List.csv")).toBe("customers");
    expect(category("Case Studies.pdf")).toBe("customers");
    expect(category("Product Roadmap 2025.pptx")).toBe("product");
    expect(category("Technical Architecture.docx")).toBe("product");
    expect(category("Team Bios.docx")).toBe("team");
    expect(category("Org chart.pdf")).toBe("team");
    expect(category("IMG_2041.pdf")).toBe("other");
    expect(category("scan0003.pdf", "Lorem ipsum dolor sit amet.")).toBe("other");
  });

  test("content wins over a vague name", () => {
    const sha =
      "This Shareholders Agreement is made between the parties listed below. Whereas the Company wishes to raise capital, the parties hereby agree as follows. Governing law: Germany. Each party shall keep the terms confidential. Termination requires the consent of the investors.";
    expect(category("document (3).pdf", sha)).toBe("legal");
    const model = "Revenue FY2023 1.2M, FY2024 2.9M. Gross margin 72%. Operating expenses 3.1M. Burn rate 150K per month, runway 22 months. EBITDA negative until FY2026.";
    expect(category("Overview.xlsx", model)).toBe("financials");
    const captable = "Shareholder | Ordinary shares | Series Seed Preferred | Fully diluted %. Option pool (ESOP) 10%. Warrants 0.";
    expect(category("Summary.xlsx", captable)).toBe("cap_table");
    const customers = "Customer | ACV | Renewal. Acme | 120000 | 2025-03. Churn 3% per year, net retention 135%. Case study: Globex cut payout time by 80%. NPS 62.";
    expect(category("export.csv", customers)).toBe("customers");
    const bios = "Sam Founder, Co-founder & CEO, previously led payouts at Stripe. Ana Tech, CTO, PhD from ETH, formerly at Google. Headcount 14, hired a VP of Sales.";
    expect(category("notes.md", bios)).toBe("team");
    // A strong name still stands against passing words in the text.
    expect(category("Cap Table.xlsx", "Shareholder | Shares. Sam | 1000. Ana | 800.")).toBe("cap_table");
  });

  test("every point is explained", () => {
    const c = classifyDocument("Financial Model.xlsx", "Finance", "Revenue 1.2M, revenue 2.9M, revenue 4M, revenue 6M. Burn 150K.");
    expect(c.category).toBe("financials");
    expect(c.reasons).toContain('name "Finance" +6'); // the folder counts like the name
    expect(c.reasons).toContain('name "Financial Model" +6');
    expect(c.reasons).toContain('text "revenue" x4 +6'); // counted at most three times
    expect(c.reasons).toContain('text "burn" +2');
    expect(c.score).toBe(c.reasons.reduce((s, r) => s + Number(/\+(\d+)$/.exec(r)![1]), 0));
    const other = classifyDocument("IMG_1.pdf", null, "");
    expect(other).toEqual({ category: "other", score: 0, reasons: ["no category reached 4 points"] });
  });
});
