// Pitch decks made on the spot with pdf-lib: real PDFs whose every sentence a test can quote.
import { PDFDocument, StandardFonts } from "pdf-lib";

export const LEDGERLY_DECK = [
  "Ledgerly. Payments infrastructure for B2B marketplaces. Ledgerly is a ledger API that helps marketplaces pay out sellers in 40 countries. Founded in 2022, based in Berlin.",
  "Team. Sam Founder, Co-founder & CEO: previously led payouts at Stripe for 6 years. Ana Tech (CTO), ex-Google, PhD in distributed systems.",
  "Traction. ARR $1.2M, growing 15% month over month. 48 customers including two public marketplaces. Net revenue retention 135%.",
  "Market. Marketplaces move $3.5 trillion a year; the payout infrastructure market is a $12B TAM growing 20% CAGR.",
  "The round. We are raising $4M seed at a $16M pre-money valuation. Use of funds: 60% engineering, 25% go-to-market. ledgerly.io",
];

export async function pdfDeck(pages: string[] = LEDGERLY_DECK): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = doc.addPage([842, 595]);
    // Wrap into lines of ~100 characters.
    const words = text.split(" ");
    const lines: string[] = [];
    let line = "";
    for (const w of words) {
      if ((line + " " + w).length > 100) (lines.push(line), (line = w));
      else line = line ? `${line} ${w}` : w;
    }
    lines.push(line);
    lines.forEach((l, i) => page.drawText(l, { x: 40, y: 540 - i * 18, size: 12, font }));
  }
  return doc.save();
}

export function uploadForm(file: Uint8Array | string, filename: string, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  form.append("file", new Blob([file]), filename);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
}
