// Data-room uploads while the deal's analysis is queued or running (CONTRACT.md, "Further
// decisions"): accepted (202, queued); the files are read after the running pass, by one more pass
// however many uploads arrived meanwhile; the deal's events and webhooks report that pass too.
import { describe, expect, test } from "bun:test";
import { runHandlers } from "../../../jobs/index.ts";
import { startRunner, type Handler } from "../../../src/modules/actions/runner.ts";
import { DEAL_ANALYSIS } from "../../../src/modules/deals/deals.service.ts";
import { seededApp } from "../../helpers/app.ts";
import { dataRoomForm, pdfDeck, uploadForm } from "../../helpers/decks.ts";
import { readFrames } from "../../helpers/sse.ts";
import { driveSchedule, register, startReceiver } from "../../helpers/webhooks.ts";
import { count, get, post, runAll, type Ctx } from "./data-room-helpers.ts";

const NOTES_MD = `# Competition

Unlike Stripe Connect, Ledgerly reconciles every payout per seller; incumbents such as Adyen lack a marketplace ledger.
`;
const CUSTOMERS_CSV = "customer,acv,renewal\nAcme Marketplace,120000,2025-03\nGlobex Market,80000,2025-06\n";
const TEAM_TXT = "Team. Sam Founder, Co-founder & CEO: previously led payouts at Stripe for 6 years.";

type RunRow = { id: string; status: string; data_room: number | null; started_at: string | null; finished_at: string | null; created_at: string };
const runsOf = (c: Ctx, dealId: string) =>
  c.t.deps.db.$client
    .query<RunRow, [string]>(
      "SELECT id, status, json_extract(input, '$.data_room') AS data_room, started_at, finished_at, created_at FROM action_runs WHERE subject_id = ? ORDER BY created_at, id",
    )
    .all(dealId);

async function uploadDeck(c: Ctx): Promise<string> {
  const res = await post(c, "/api/v1/deals/analyze/upload", uploadForm(await pdfDeck(), "deck.pdf", { company_name: "Ledgerly" }));
  expect(res.status).toBe(202);
  return res.json.deal_id;
}

/**
 * The real handlers, with the deck's pass held at its start until `release()`: the pass is
 * `running` for as long as the test wants.
 */
function heldFirstPass(c: Ctx) {
  const handlers = runHandlers(c.t.deps);
  const real = handlers.get(DEAL_ANALYSIS.kind)!;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const held: Handler = Object.assign(async (ctx: Parameters<Handler>[0]) => {
    if (!ctx.run.input.data_room) await gate;
    return real(ctx);
  }, { waitStep: real.waitStep });
  handlers.set(DEAL_ANALYSIS.kind, held);
  return { handlers, release };
}

describe("data-room uploads during the deal's analysis", () => {
  test("the deck, then the data room at once: 202 queued; the deck's pass reads the deck, one more pass reads the data room", async () => {
    const c = seededApp({ file: true });
    const id = await uploadDeck(c);
    const room = await post(c, `/api/v1/deals/${id}/documents`, dataRoomForm([[NOTES_MD, "notes.md"], [CUSTOMERS_CSV, "customers.csv"]]));
    expect(room.status).toBe(202);
    expect(room.json).toMatchObject({ deal_id: id, files_received: 2, status: "queued", status_url: `/api/v1/deals/${id}/analysis`, existing: false });
    expect(room.headers.get("x-actions-remaining")).toBe("23"); // the deck, then this pass
    // The status read follows the deal's latest pass: the one that waits for the deck's.
    expect(await get(c, `/api/v1/deals/${id}/analysis`)).toMatchObject({ status: "queued", waiting_for: "analysis_pass", progress: null, error: null });

    await runAll(c.t);
    const runs = runsOf(c, id);
    expect(runs.map((r) => [r.status, r.data_room])).toEqual([
      ["succeeded", null],
      ["succeeded", 1],
    ]);
    // Read after the running pass: the data-room pass started once the deck's had finished.
    expect(runs[1].started_at! >= runs[0].finished_at!).toBe(true);
    expect(await get(c, `/api/v1/deals/${id}/analysis`)).toMatchObject({ status: "succeeded", waiting_for: null });
    const docs = (await get(c, `/api/v1/deals/${id}/documents`)).documents;
    expect(docs.map((d: any) => [d.filename, d.kind, d.status])).toEqual([
      ["deck.pdf", "primary_upload", "extracted"],
      ["notes.md", "data_room", "extracted"],
      ["customers.csv", "data_room", "extracted"],
    ]);
    const deal = await get(c, `/api/v1/deals/${id}?view=full`);
    const notes = docs.find((d: any) => d.filename === "notes.md").document_id;
    const competition = deal.analysis.sections.find((s: any) => s.key === "competition");
    expect(competition.evidence.map((e: any) => e.document_id)).toContain(notes);
  }, 60_000);

  test("three data-room uploads while the deck's pass runs: each 202, exactly one more pass, which reads all three; only the first costs an action", async () => {
    const c = seededApp({ file: true });
    const id = await uploadDeck(c);
    const { handlers, release } = heldFirstPass(c);
    const runner = startRunner(c.t.deps, handlers, { pollMs: 60_000 });
    try {
      runner.pump();
      expect((await get(c, `/api/v1/deals/${id}/analysis`)).status).toBe("running");
      const remaining: (string | null)[] = [];
      const existing: boolean[] = [];
      for (const [body, name] of [[NOTES_MD, "notes.md"], [CUSTOMERS_CSV, "customers.csv"], [TEAM_TXT, "team.txt"]] as const) {
        const res = await post(c, `/api/v1/deals/${id}/documents`, dataRoomForm([[body, name]]));
        expect([res.status, res.json.status]).toEqual([202, "queued"]);
        remaining.push(res.headers.get("x-actions-remaining"));
        existing.push(res.json.existing);
      }
      expect(remaining).toEqual(["23", "23", "23"]);
      expect(existing).toEqual([false, true, true]); // the later two joined the waiting pass
      expect(count(c, "SELECT COALESCE(SUM(actions), 0) AS n FROM key_usage")).toBe(2);
      // The deck's pass is still running; one pass waits for it.
      expect(runsOf(c, id).map((r) => r.status)).toEqual(["running", "queued"]);
      release();
      await runner.idle();
    } finally {
      await runner.stop();
    }
    const runs = runsOf(c, id);
    expect(runs.map((r) => [r.status, r.data_room])).toEqual([
      ["succeeded", null],
      ["succeeded", 1],
    ]);
    expect(runs[1].started_at! >= runs[0].finished_at!).toBe(true);
    const docs = (await get(c, `/api/v1/deals/${id}/documents`)).documents.filter((d: any) => d.kind === "data_room");
    expect(docs.map((d: any) => [d.filename, d.status])).toEqual([
      ["notes.md", "extracted"],
      ["customers.csv", "extracted"],
      ["team.txt", "extracted"],
    ]);

    // Once it is over, an upload is an ordinary data-room pass again.
    const later = await post(c, `/api/v1/deals/${id}/documents`, dataRoomForm([["Board minutes: the board approved the plan.", "minutes.txt"]]));
    expect([later.status, later.headers.get("x-actions-remaining")]).toEqual([202, "22"]);
    expect((await get(c, `/api/v1/deals/${id}/analysis`)).waiting_for).toBeNull();
    await runAll(c.t);
    expect(runsOf(c, id).map((r) => r.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
  }, 60_000);

  test("an upload while a data-room pass runs, then another while the next one waits: one more pass for both", async () => {
    const c = seededApp({ file: true });
    const id = await uploadDeck(c);
    await runAll(c.t);
    expect((await post(c, `/api/v1/deals/${id}/documents`, dataRoomForm([[NOTES_MD, "notes.md"]]))).status).toBe(202);
    // Queued, not started: a second upload joins it (it reads every file when it starts).
    const joined = await post(c, `/api/v1/deals/${id}/documents`, dataRoomForm([[CUSTOMERS_CSV, "customers.csv"]]));
    expect([joined.status, joined.headers.get("x-actions-remaining")]).toEqual([202, "23"]);
    expect(runsOf(c, id).length).toBe(2);
    await runAll(c.t);
    expect(runsOf(c, id).map((r) => r.status)).toEqual(["succeeded", "succeeded"]);
    expect(count(c, "SELECT COUNT(*) AS n FROM deal_documents WHERE kind = 'data_room' AND status = 'extracted'")).toBe(2);
  }, 60_000);

  test("a deck pass that fails: the waiting pass still runs after it, with the data room", async () => {
    const c = seededApp({ file: true });
    // Bytes that are a PDF by their header and nothing after it: the deck cannot be read.
    const broken = new TextEncoder().encode("%PDF-1.7\n%\xe2\xe3\xcf\xd3\nthis is not a PDF body at all\n");
    const res = await post(c, "/api/v1/deals/analyze/upload", uploadForm(broken, "deck.pdf", { company_name: "Brokenly" }));
    expect(res.status).toBe(202);
    const id = res.json.deal_id as string;
    expect((await post(c, `/api/v1/deals/${id}/documents`, dataRoomForm([[NOTES_MD, "notes.md"]]))).status).toBe(202);
    await runAll(c.t);
    expect(runsOf(c, id).map((r) => r.status)).toEqual(["failed", "succeeded"]);
    expect((await get(c, `/api/v1/deals/${id}/documents`)).documents.map((d: any) => [d.filename, d.status])).toEqual([
      ["deck.pdf", "failed"],
      ["notes.md", "extracted"],
    ]);
  }, 60_000);

  test("events and webhooks report the extra pass: SSE opened after the upload follows it to `done`; a completed webhook for each pass", async () => {
    const receiver = startReceiver();
    try {
      const c = seededApp({ file: true, env: { DEALGRAPH_ALLOW_PRIVATE_NETWORK: "1" } });
      const hook = await register(c.t, c.f, receiver.url());
      const id = await uploadDeck(c);
      const { handlers, release } = heldFirstPass(c);
      const runner = startRunner(c.t.deps, handlers, { pollMs: 60_000 });
      let frames: Awaited<ReturnType<typeof readFrames>> = [];
      try {
        runner.pump();
        expect((await post(c, `/api/v1/deals/${id}/documents`, dataRoomForm([[NOTES_MD, "notes.md"]]))).status).toBe(202);
        const stream = await c.t.app.handle(
          new Request(`http://localhost/api/v1/deals/${id}/analysis/events`, { headers: { authorization: `Bearer ${c.f.keys.read.secret}` } }),
        );
        expect(stream.status).toBe(200);
        const reading = readFrames(stream, { maxMs: 30_000 });
        release();
        await runner.idle();
        frames = await reading;
      } finally {
        await runner.stop();
      }
      const progress = frames.filter((f) => f.event === "progress").map((f) => f.data);
      expect(progress[0]).toMatchObject({ deal_id: id, status: "queued", waiting_for: "analysis_pass" });
      expect(progress.some((p) => p.status === "running")).toBe(true);
      expect(progress.at(-1)).toMatchObject({ status: "succeeded" });
      expect(frames.at(-1)).toEqual({ event: "done", data: { status: "succeeded", result_url: `/api/v1/deals/${id}` } });

      await driveSchedule(c.t);
      const delivered = receiver.received.map((r) => JSON.parse(r.body));
      // One delivery per pass: two events, two ids.
      expect(delivered.map((d) => [d.event, d.data])).toEqual([
        ["deal.analysis.completed", { entity_id: id, result_url: `/api/v1/deals/${id}` }],
        ["deal.analysis.completed", { entity_id: id, result_url: `/api/v1/deals/${id}` }],
      ]);
      expect(new Set(delivered.map((d) => d.id)).size).toBe(2);
      const events = c.t.deps.db.$client.query<{ event: string; run_id: string }, [string]>("SELECT event, run_id FROM outbox_events WHERE entity_id = ? ORDER BY seq").all(id);
      expect(events.map((e) => [e.event, e.run_id])).toEqual(runsOf(c, id).map((r) => ["deal.analysis.completed", r.id]));
      expect(hook.id).toBeString();
    } finally {
      receiver.stop();
    }
  }, 60_000);
});
