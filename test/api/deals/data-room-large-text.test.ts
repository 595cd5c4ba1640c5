// Issue 27: a data-room file with megabytes of text. Its pages are stored (and indexed for search)
// by the text worker's own connection, never in one UPDATE on the serving connection, which held
// every request for as long as SQLite re-indexed them (0.5-2 s for 4 MB). A TEMP trigger exists
// only on the connection that made it: here the serving one, so it sees that connection's writes
// and no other's.
import { afterEach, describe, expect, test } from "bun:test";
import { dataRoomForm } from "../../helpers/decks.ts";
import { analysedDeal, count, get, post, runAll, setup, type Ctx } from "./data-room-helpers.ts";

let c: Ctx;
afterEach(() => c?.t.close());

const COMPETITION = "Unlike Stripe Connect, Ledgerly reconciles every payout per seller; incumbents such as Adyen lack a marketplace ledger.";

/** Board minutes: the competition paragraph first, then about `bytes` of ordinary prose. */
function minutes(bytes: number): string {
  const words = ["the", "board", "approved", "budget", "hiring", "plan", "quarter", "review", "minutes", "agenda", "meeting", "item"];
  const lines = [`# Board minutes\n\n${COMPETITION}\n`];
  for (let i = 0, size = 0; size < bytes; i++) {
    const line = `${Array.from({ length: 12 }, (_, k) => words[(i * 5 + k * 7) % words.length]).join(" ")} ${i}.\n`;
    lines.push(line);
    size += line.length;
  }
  return lines.join("");
}

/** Every UPDATE of a document row carrying more than 64 KB of pages made through the serving connection. */
function watchServingWrites(ctx: Ctx): () => { id: string; bytes: number }[] {
  const sqlite = ctx.t.deps.db.$client;
  sqlite.exec("CREATE TEMP TABLE serving_page_writes (id TEXT, bytes INTEGER)");
  sqlite.exec(
    "CREATE TEMP TRIGGER serving_page_writes_watch AFTER UPDATE ON main.deal_documents WHEN length(new.pages) > 65536 BEGIN INSERT INTO serving_page_writes VALUES (new.id, length(new.pages)); END",
  );
  return () => sqlite.query<{ id: string; bytes: number }, []>("SELECT id, bytes FROM serving_page_writes").all();
}

describe("a data-room file with megabytes of text", () => {
  test("its pages are stored, classified and indexed off the serving connection, and read back by the next pass", async () => {
    c = setup();
    const id = await analysedDeal(c);
    const servingWrites = watchServingWrites(c);
    // The watch itself works: a large write on the serving connection is seen.
    const sqlite = c.t.deps.db.$client;
    const deck = sqlite.query<{ pages: string }, [string]>("SELECT pages FROM deal_documents WHERE deal_id = ?").get(id)!.pages;
    sqlite.query("UPDATE deal_documents SET pages = ? WHERE deal_id = ?").run(JSON.stringify(["x".repeat(70_000)]), id);
    expect(servingWrites()).toHaveLength(1);
    sqlite.query("UPDATE deal_documents SET pages = ? WHERE deal_id = ?").run(deck, id);
    sqlite.exec("DELETE FROM serving_page_writes");
    const text = minutes(2 * 1024 * 1024);

    expect((await post(c, `/api/v1/deals/${id}/documents`, dataRoomForm([[text, "Board/minutes.md"]]))).status).toBe(202);
    await runAll(c.t);
    expect(await get(c, `/api/v1/deals/${id}/analysis`)).toMatchObject({ status: "succeeded", error: null });
    const doc = (await get(c, `/api/v1/deals/${id}/documents`)).documents.find((d: any) => d.filename === "minutes.md");
    expect(doc).toMatchObject({ kind: "data_room", folder: "Board", status: "extracted", page_count: 1, category: expect.any(String) });
    // Stored whole, and indexed for search by the triggers in the same write.
    const stored = sqlite.query<{ pages: string }, [string]>("SELECT pages FROM deal_documents WHERE id = ?").get(doc.document_id)!;
    expect(JSON.parse(stored.pages)).toEqual([text]);
    expect(count(c, `SELECT count(*) AS n FROM search_index WHERE source_type = 'document' AND source_id = '${doc.document_id}'`)).toBe(1);
    const sections = Object.fromEntries((await get(c, `/api/v1/deals/${id}?view=full`)).analysis.sections.map((s: any) => [s.key, s]));
    expect(sections.competition.evidence[0]).toMatchObject({ document_id: doc.document_id, quote: expect.stringContaining("Unlike Stripe Connect") });

    // The next pass reads the stored pages back (the deck's again too) and quotes them as before.
    expect((await post(c, `/api/v1/deals/${id}/documents`, dataRoomForm([["customer,acv\nAcme,120000\n", "customers.csv"]]))).status).toBe(202);
    await runAll(c.t);
    expect(await get(c, `/api/v1/deals/${id}/analysis`)).toMatchObject({ status: "succeeded", error: null });
    const again = Object.fromEntries((await get(c, `/api/v1/deals/${id}?view=full`)).analysis.sections.map((s: any) => [s.key, s]));
    expect(again.competition.evidence[0]).toMatchObject({ document_id: doc.document_id, quote: expect.stringContaining("Unlike Stripe Connect") });
    expect(again.competition.score).toBe(sections.competition.score);

    // Not one of those writes went through the serving connection.
    expect(servingWrites()).toEqual([]);
  });
});
