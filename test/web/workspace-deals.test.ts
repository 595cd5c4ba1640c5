// The deal pages over real HTTP (app.handle) with a signed-in session: the pipeline board and its
// filters, a deal with its sections, evidence and documents, a document's pages, the download, and
// the actions (upload, data room, stage), each with its refusals leaving everything as it was;
// another organization's deal is 404 everywhere.
import { describe, expect, test } from "bun:test";
import { dealsService } from "../../src/modules/deals/deals.service.ts";
import { webBudgets } from "../../src/modules/identity/web-budgets.service.ts";
import { analysedDeal, runAll } from "../api/deals/data-room-helpers.ts";
import { pdfDeck, LEDGERLY_DECK } from "../helpers/decks.ts";
import { textOf } from "../helpers/web.ts";
import { state, workspace } from "../helpers/workspace.ts";

const deck = async (name = "Ledgerly") => ({ field: "file", bytes: await pdfDeck(LEDGERLY_DECK.map((p) => p.replaceAll("Ledgerly", name))), filename: `${name.toLowerCase()}.pdf` });

describe("the pipeline", () => {
  test("deals by stage with score and round; filters narrow it; one stage is a paged list", async () => {
    const w = await workspace();
    const ledgerly = await analysedDeal(w, { name: "Ledgerly" });
    const fundDeal = await analysedDeal(w, { name: "Northlight Fund II", kind: "fund" });
    dealsService(w.t.deps).setStage(fundDeal, "diligence");

    const board = await w.alice.get("/app/deals");
    expect(board.status).toBe(200);
    const card = board.html.match(new RegExp(`data-deal-id="${ledgerly}"[\\s\\S]*?</form>`))![0];
    const detail = (await w.t.request("GET", `/api/v1/deals/${ledgerly}`, { key: w.f.keys.read.secret })).json;
    expect(card).toContain(`data-value="${detail.score}"`);
    expect(textOf(card)).toContain("seed · $4M");
    expect(board.html).toMatch(/data-stage="new"[\s\S]*?data-testid="stage-total">1</);
    expect(board.html).toMatch(/data-stage="diligence"[\s\S]*?data-testid="stage-total">1</);

    const funds = await w.alice.get("/app/deals?kind=fund");
    expect(funds.html).toContain(fundDeal);
    expect(funds.html).not.toContain(`data-deal-id="${ledgerly}"`);
    const named = await w.alice.get("/app/deals?q=ledg");
    expect(named.html).toContain(`data-deal-id="${ledgerly}"`);
    expect(named.html).not.toContain(`data-deal-id="${fundDeal}"`);
    const stage = await w.alice.get("/app/deals?stage=diligence");
    expect(stage.html).toContain('data-testid="deal-table"');
    expect(stage.html).toContain(fundDeal);
    expect(stage.html).not.toContain(`data-deal-id="${ledgerly}"`);
  }, 60_000);

  test("a filter value outside its set is a 422 page; another org sees none of the deals", async () => {
    const w = await workspace();
    const id = await analysedDeal(w, { name: "Ledgerly" });
    for (const q of ["kind=startup", "status=done", "stage=closed", "view=grid", `q=${"x".repeat(201)}`]) {
      const page = await w.alice.get(`/app/deals?${q}`);
      expect(page.status, q).toBe(422);
      expect(page.html).toContain('data-testid="error-page"');
    }
    const theirs = await w.carol.get("/app/deals");
    expect(theirs.status).toBe(200);
    expect(theirs.html).not.toContain(id);
    expect(textOf(theirs.html)).toContain("0 deals");
  }, 60_000);
});

describe("a deal", () => {
  test("facts, round, team, every section with its quotes linked to the document page; the document and its download", async () => {
    const w = await workspace();
    const id = await analysedDeal(w, { name: "Ledgerly" });
    const full = (await w.t.request("GET", `/api/v1/deals/${id}?view=full`, { key: w.f.keys.read.secret })).json;
    const page = await w.alice.get(`/app/deals/${id}`);
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(text).toContain("$4,000,000");
    expect(text).toContain("$16,000,000");
    expect(text).toContain("Sam Founder");
    for (const s of full.analysis.sections) {
      expect(page.html).toContain(`data-section="${s.key}"`);
      for (const e of s.evidence) expect(text).toContain(e.quote);
    }
    const withEvidence = full.analysis.sections.find((s: any) => s.evidence.length)!;
    const e = withEvidence.evidence[0];
    const link = `/app/deals/${id}/documents/${e.document_id}?${new URLSearchParams({ quote: e.quote })}#page-${e.page}`.replaceAll("&", "&amp;");
    expect(page.html).toContain(`href="${link}"`);

    const doc = await w.alice.get(`/app/deals/${id}/documents/${e.document_id}?${new URLSearchParams({ quote: e.quote })}`);
    expect(doc.status).toBe(200);
    expect(doc.html).toContain(`id="page-${e.page}"`);
    expect(doc.html).toContain("<mark>");
    const file = await w.t.app.handle(new Request(`http://localhost/app/deals/${id}/documents/${e.document_id}/file`, { headers: { cookie: `dg_session=${w.alice.jar.get("dg_session")}` } }));
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toStartWith("attachment;");
    expect(file.headers.get("content-security-policy")).toContain("sandbox");
    expect(new TextDecoder().decode((await file.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
  }, 60_000);

  test("another org's deal, document and event stream are 404, as is an id that is no UUID", async () => {
    const w = await workspace();
    const id = await analysedDeal(w, { name: "Ledgerly" });
    const docId = (await w.t.request("GET", `/api/v1/deals/${id}/documents`, { key: w.f.keys.read.secret })).json.documents[0].document_id;
    const other = await analysedDeal(w, { name: "Otherco" });
    for (const path of [`/app/deals/${id}`, `/app/deals/${id}/documents/${docId}`, `/app/deals/${id}/documents/${docId}/file`, `/app/deals/${id}/events`, "/app/deals/not-a-uuid", `/app/deals/${other}/documents/${docId}`]) {
      const browser = path.includes(other) ? w.alice : w.carol;
      const page = await browser.get(path);
      expect(page.status, path).toBe(404);
      expect(page.html).not.toContain("Ledgerly");
    }
  }, 60_000);

  test("the event stream: a finished run sends its terminal progress and done, then closes", async () => {
    const w = await workspace();
    const id = await analysedDeal(w, { name: "Ledgerly" });
    const res = await w.t.app.handle(new Request(`http://localhost/app/deals/${id}/events`, { headers: { cookie: `dg_session=${w.alice.jar.get("dg_session")}` } }));
    expect(res.headers.get("content-type")).toStartWith("text/event-stream");
    const body = await res.text();
    expect(body).toContain("event: progress");
    expect(body).toContain('"status":"succeeded"');
    expect(body).toContain(`event: done\ndata: {"status":"succeeded","result_url":"/api/v1/deals/${id}"}`);
  }, 60_000);
});

describe("uploading a deck from the web", () => {
  test("creates the deal, queues its analysis as the member (web budget, not a key), and shows the progress", async () => {
    const w = await workspace();
    await w.alice.get("/app/deals");
    const res = await w.alice.upload("/app/deals/upload", { company_name: "Ledgerly", kind: "company" }, [await deck()]);
    expect(res.status, textOf(res.html).slice(0, 300)).toBe(303);
    const dealId = res.location!.split("/").pop()!;
    const run = w.t.deps.db.$client.query("SELECT user_id, key_id, status FROM action_runs WHERE subject_id = ?").get(dealId) as any;
    expect(run).toEqual({ user_id: w.f.users.alice.id, key_id: `web:${w.f.users.alice.id}`, status: "queued" });
    expect(webBudgets(w.t.deps).today(w.f.users.alice.id)).toMatchObject({ used: 1, limit: 25 });
    const page = await w.alice.follow(res);
    expect(page.html).toContain('data-testid="analysis-progress"');
    expect(page.html).toContain(`data-events="/app/deals/${dealId}/events"`);
    expect(textOf(page.html)).toContain("1 / 25 actions");
    await runAll(w.t);
    const done = await w.alice.get(`/app/deals/${dealId}`);
    expect(done.html).not.toContain('data-testid="analysis-progress"');
    expect(done.html).toContain('data-testid="deal-sections"');
  }, 60_000);

  test("refusals change nothing: not a deck (415), no file (422), the same target in flight (409), no CSRF, another site, the budget spent (429)", async () => {
    const w = await workspace();
    await w.alice.get("/app/deals");
    const before = state(w.t);
    const notDeck = await w.alice.upload("/app/deals/upload", {}, [{ field: "file", bytes: "just text, not a deck", filename: "deck.pdf" }]);
    expect(notDeck.status).toBe(415);
    expect(textOf(notDeck.html)).toContain("Nothing was uploaded");
    const noFile = await w.alice.upload("/app/deals/upload", { company_name: "Ledgerly" }, []);
    expect(noFile.status).toBe(422);
    const noCsrf = await w.alice.upload("/app/deals/upload", {}, [await deck()], { csrf: null });
    expect(noCsrf.status).toBe(403);
    const wrongCsrf = await w.alice.upload("/app/deals/upload", {}, [await deck()], { csrf: "forged" });
    expect(wrongCsrf.status).toBe(403);
    const elsewhere = await w.alice.upload("/app/deals/upload", {}, [await deck()], { origin: "https://evil.example" });
    expect(elsewhere.status).toBe(403);
    expect(state(w.t)).toEqual(before);

    await w.alice.get("/app/deals");
    expect((await w.alice.upload("/app/deals/upload", { company_name: "Ledgerly" }, [await deck()])).status).toBe(303);
    const afterOne = state(w.t);
    await w.alice.get("/app/deals");
    const twice = await w.alice.upload("/app/deals/upload", { company_name: "Ledgerly" }, [await deck()]);
    expect(twice.status).toBe(409);
    expect(textOf(twice.html)).toContain("already in progress");
    expect(state(w.t)).toEqual(afterOne);

    w.t.deps.config.defaultDailyActions = 1;
    const spent = await w.alice.upload("/app/deals/upload", { company_name: "Otherco" }, [await deck("Otherco")]);
    expect(spent.status).toBe(429);
    expect(textOf(spent.html)).toContain("daily budget of 1 actions");
    expect(state(w.t)).toEqual(afterOne);
    // A key of the same member still has its own budget: the web's is apart from it.
    const api = await w.t.request("GET", "/api/v1/keys", { key: w.f.keys.write.secret });
    expect(api.json.keys.find((k: any) => k.key_id === w.f.keys.write.id).usage_today.actions.used).toBe(0);
  }, 60_000);

  test("a data-room upload re-analyses the deal; accepted while it is analysed (read by one more pass after it); another org's deal 404", async () => {
    const w = await workspace();
    const id = await analysedDeal(w, { name: "Ledgerly" });
    await w.alice.get(`/app/deals/${id}`);
    const files = [{ field: "files", bytes: "Cap table\nFounders 80%\nESOP 20%\n", filename: "Legal/cap-table.csv" }];
    const theirs = await w.carol.upload(`/app/deals/${id}/documents`, {}, files);
    expect(theirs.status).toBe(404);
    const added = await w.alice.upload(`/app/deals/${id}/documents`, { folder: "Diligence" }, files);
    expect(added.status, textOf(added.html).slice(0, 300)).toBe(303);
    const docs = (await w.t.request("GET", `/api/v1/deals/${id}/documents`, { key: w.f.keys.read.secret })).json.documents;
    expect(docs.map((d: any) => [d.filename, d.folder, d.kind])).toContainEqual(["cap-table.csv", "Diligence/Legal", "data_room"]);
    // Its pass is queued: the form stays open, and another upload joins that pass.
    const page = await w.alice.get(`/app/deals/${id}`);
    expect(page.html).not.toMatch(/name="files"[^>]*disabled/);
    const runs = () => (w.t.deps.db.$client.query("SELECT COUNT(*) AS n FROM action_runs").get() as { n: number }).n;
    const before = runs();
    const busy = await w.alice.upload(`/app/deals/${id}/documents`, {}, [{ field: "files", bytes: "Board minutes: the plan was approved.", filename: "minutes.txt" }]);
    expect(busy.status).toBe(303);
    expect(textOf((await w.alice.follow(busy)).html)).toContain("Added 1 file to the data room: the deal is being analysed again.");
    expect(runs()).toBe(before);

    // A deck whose first pass has not run yet: the data room waits for it.
    const fresh = await analysedDeal(w, { name: "Otherco", run: false });
    await w.alice.get(`/app/deals/${fresh}`);
    const waiting = await w.alice.upload(`/app/deals/${fresh}/documents`, {}, files);
    expect(waiting.status).toBe(303);
    expect(textOf((await w.alice.follow(waiting)).html)).toContain("the deal's analysis is under way, so they are read once it has finished and the deal is analysed again with them");
    expect(runs()).toBe(before + 2);
    await runAll(w.t);
    const statuses = w.t.deps.db.$client.query("SELECT status, COUNT(*) AS n FROM action_runs GROUP BY status").all();
    expect(statuses).toEqual([{ status: "succeeded", n: expect.any(Number) }]);
  }, 60_000);
});

describe("moving a deal's stage", () => {
  test("moves it and goes back; a stage outside the set is 422, another org's deal 404, no CSRF 403: none changes it", async () => {
    const w = await workspace();
    const id = await analysedDeal(w, { name: "Ledgerly" });
    await w.alice.get("/app/deals");
    const moved = await w.alice.post(`/app/deals/${id}/stage`, { stage: "ic", back: "/app/deals?kind=company" });
    expect(moved.status).toBe(303);
    expect(moved.location).toBe("/app/deals?kind=company");
    expect((await w.alice.follow(moved)).html).toContain("Moved Ledgerly to IC.");
    const before = state(w.t);
    expect((await w.alice.post(`/app/deals/${id}/stage`, { stage: "won" })).status).toBe(422);
    await w.carol.get("/app/deals");
    expect((await w.carol.post(`/app/deals/${id}/stage`, { stage: "passed" })).status).toBe(404);
    expect((await w.alice.post(`/app/deals/${id}/stage`, { stage: "passed" }, { csrf: null })).status).toBe(403);
    expect((await w.alice.post(`/app/deals/${id}/stage`, { stage: "passed" }, { origin: "https://evil.example" })).status).toBe(403);
    await w.alice.get("/app/deals");
    expect((await w.alice.post(`/app/deals/${id}/stage`, { stage: "passed", back: "https://evil.example/" })).location).toBe("/app");
    // ...the last one was well-formed: it moved, and went back only to a page of ours.
    expect(state(w.t).stages).not.toEqual(before.stages);
    expect(dealsService(w.t.deps).mustGet(w.f.orgs.acme.id, id).stage).toBe("passed");
  }, 60_000);
});
