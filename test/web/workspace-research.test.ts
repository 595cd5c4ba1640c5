// Research from the web: starting a run (once per form, whatever the double submits), its refusals
// (422, the live-run gate, the budget) changing nothing, the report rendered with raw HTML escaped
// and citations linked to their records, and another organization's run 404.
import { describe, expect, test } from "bun:test";
import { webBudgets } from "../../src/modules/identity/web-budgets.service.ts";
import { researchService } from "../../src/modules/research/research.service.ts";
import { analysedDeal, runAll } from "../api/deals/data-room-helpers.ts";
import { csrfOf, textOf } from "../helpers/web.ts";
import { state, workspace } from "../helpers/workspace.ts";

const keyOf = (html: string) => html.match(/name="idempotency_key" value="([^"]+)"/)![1];

describe("starting research from the web", () => {
  test("the form starts one run, charged to the member's web budget; sending it again returns the same run", async () => {
    const w = await workspace();
    await analysedDeal(w, { name: "Ledgerly" });
    // The member's actions today so far (her key's deal analysis among them: one count per user).
    const before = webBudgets(w.t.deps).today(w.f.users.alice.id).used;
    const form = await w.alice.get("/app/research");
    const key = keyOf(form.html);
    const started = await w.alice.post("/app/research", { query: "What is Ledgerly's traction?", idempotency_key: key });
    expect(started.status).toBe(303);
    const id = started.location!.split("/").pop()!;
    const page = await w.alice.follow(started);
    expect(page.html).toContain(`data-events="/app/research/${id}/events"`);
    expect(page.html).toContain('data-testid="plan"');
    const again = await w.alice.post("/app/research", { query: "What is Ledgerly's traction?", idempotency_key: key }, { csrf: csrfOf(form.html) });
    expect(again.location).toBe(`/app/research/${id}`);
    expect(textOf((await w.alice.follow(again)).html)).toContain("already sent");
    expect(webBudgets(w.t.deps).today(w.f.users.alice.id).used).toBe(before + 1);

    await runAll(w.t);
    const done = await w.alice.get(`/app/research/${id}`);
    expect(done.html).toContain('data-testid="report"');
    const api = (await w.t.request("GET", `/api/v1/research/${id}`, { key: w.f.keys.read.secret })).json;
    for (const c of api.citations) expect(done.html).toContain(`id="cite-${c.n}"`);
    const list = await w.alice.get("/app/research");
    expect(list.html).toContain(`data-research-id="${id}"`);
    expect(textOf(list.html)).toContain("Alice Archer");
  }, 60_000);

  test("refusals change nothing: an empty question (422), no CSRF (403), a third live run (429), the budget spent (429)", async () => {
    const w = await workspace();
    let form = await w.alice.get("/app/research");
    const before = state(w.t);
    const empty = await w.alice.post("/app/research", { query: "   ", idempotency_key: keyOf(form.html) });
    expect(empty.status).toBe(422);
    expect(empty.html).toContain('aria-invalid="true"');
    expect((await w.alice.post("/app/research", { query: "Anything?", idempotency_key: keyOf(form.html) }, { csrf: null })).status).toBe(403);
    expect(state(w.t)).toEqual(before);

    for (const q of ["First question?", "Second question?"]) {
      form = await w.alice.get("/app/research");
      expect((await w.alice.post("/app/research", { query: q, idempotency_key: keyOf(form.html) })).status).toBe(303);
    }
    const two = state(w.t);
    form = await w.alice.get("/app/research");
    const gated = await w.alice.post("/app/research", { query: "Third question?", idempotency_key: keyOf(form.html) });
    expect(gated.status).toBe(429);
    expect(textOf(gated.html)).toContain("research runs queued or running");
    expect(state(w.t)).toEqual(two);

    await runAll(w.t);
    w.t.deps.config.defaultDailyActions = 2;
    form = await w.alice.get("/app/research");
    const spent = await w.alice.post("/app/research", { query: "Third question?", idempotency_key: keyOf(form.html) });
    expect(spent.status).toBe(429);
    expect(textOf(spent.html)).toContain("daily budget of 2 actions");
    expect(state(w.t).research).toBe(two.research);
  }, 60_000);
});

describe("a research report", () => {
  test("raw HTML in the report, its citations and the question is shown as text; links only to http(s)", async () => {
    const w = await workspace();
    const deal = await analysedDeal(w, { name: "Ledgerly" });
    const form = await w.alice.get("/app/research");
    const started = await w.alice.post("/app/research", { query: "<img src=x onerror=alert(1)> traction?", idempotency_key: keyOf(form.html) });
    const id = started.location!.split("/").pop()!;
    await runAll(w.t);
    researchService(w.t.deps).storeReport(id, "builtin", {
      title: "t",
      executive_summary: "<script>alert('summary')</script>",
      report_markdown: "# Report\n\n<script>alert('report')</script>\n\nSee [here](javascript:alert(1)) and [the site](https://ledgerly.io) [1].\n\n<iframe src=https://evil.example></iframe>",
      citations: [{ n: 1, title: "<b>Ledgerly</b>", source_type: "deal", source_id: deal, page: null, quote: "</q><script>alert('quote')</script>" }],
    });
    const page = await w.alice.get(`/app/research/${id}`);
    expect(page.status).toBe(200);
    for (const bad of ["<script>alert", "<img src=x", "<iframe", "javascript:alert", "<b>Ledgerly</b>"]) expect(page.html).not.toContain(bad);
    expect(page.html).toContain("&lt;script&gt;alert(&#39;report&#39;)&lt;/script&gt;");
    expect(page.html).toContain('href="https://ledgerly.io"');
    expect(page.html).toContain('<a class="cite" href="#cite-1">[1]</a>');
    expect(page.html).toContain(`<a href="/app/deals/${deal}">&lt;b&gt;Ledgerly&lt;/b&gt;</a>`);
  }, 60_000);

  test("another org's run and its stream are 404", async () => {
    const w = await workspace();
    const form = await w.alice.get("/app/research");
    const id = (await w.alice.post("/app/research", { query: "Anything?", idempotency_key: keyOf(form.html) })).location!.split("/").pop()!;
    expect((await w.carol.get(`/app/research/${id}`)).status).toBe(404);
    expect((await w.carol.get(`/app/research/${id}/events`)).status).toBe(404);
    expect((await w.carol.get("/app/research")).html).not.toContain(id);
  }, 60_000);
});
