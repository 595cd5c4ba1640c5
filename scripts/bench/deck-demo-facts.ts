// The demo firm's decks read by the deal engine, their facts printed as JSON lines (company, kind,
// stage, amount, pre-money, team, section scores): run before and after a change to the deck reader
// to see whether the demo's deal facts (which the ask corpus's expectations derive from) moved.
//   bun scripts/bench/deck-demo-facts.ts > facts.jsonl
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateDeals, writeDeals } from "../../src/demo/decks.ts";
import { findLibreOffice } from "../../src/documents/convert.ts";
import { extractPages } from "../../src/documents/extract.ts";
import { builtinDealEngine } from "../../src/engines/builtin/deal-engine.ts";

const dir = mkdtempSync(join(tmpdir(), "dealgraph-demo-facts-"));
const written = await writeDeals(dir, generateDeals({ seed: 7 }));
const office = findLibreOffice() !== null;
for (const w of written) {
  const path = w.office && office ? w.office : w.pdf;
  const kind = path.endsWith(".pptx") ? "pptx" : path.endsWith(".docx") ? "docx" : "pdf";
  const texts = await extractPages(path, kind, "pdf", { workRoot: dir });
  const a = await builtinDealEngine.analyze({
    pages: texts.map((text, i) => ({ documentId: null, url: null, page: i + 1, text })),
    hints: { companyName: w.deck.name, kind: w.deck.kind },
    progress: () => {},
  });
  const { facts } = a as any;
  console.log(JSON.stringify({
    deck: w.deck.slug,
    facts: { ...facts, team: facts.team?.map((m: any) => [m.name, m.title]) },
    sections: (a as any).sections.map((s: any) => [s.key, s.score]),
    score: a.score,
  }));
  process.stderr.write(".");
}
rmSync(dir, { recursive: true, force: true });
