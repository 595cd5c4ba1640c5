// POST /api/v1/research: bounds, idempotency (also under 20 concurrent identical POSTs), the 409
// across orgs, the per-user live-run gate; every refusal changes nothing.
import { describe, expect, test } from "bun:test";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import type { Fixture } from "../../helpers/fixtures.ts";
import { runAll } from "./seed.ts";

let t: TestApp;
let f: Fixture;

function setup() {
  ({ t, f } = seededApp());
}

const post = (body: unknown, key = f.keys.write.secret) => t.request("POST", "/api/v1/research", { key, body });
const counts = () => ({
  research: t.deps.db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM research_runs").get()!.n,
  runs: t.deps.db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM action_runs").get()!.n,
  charged: t.deps.db.$client.query<{ n: number }, []>("SELECT coalesce(sum(actions), 0) AS n FROM key_usage").get()?.n ?? 0,
});

describe("bounds", () => {
  test.each([
    ["a 1-character query", { query: "a", idempotency_key: "k" }],
    ["a 20000-character query", { query: "x".repeat(20_000), idempotency_key: "k" }],
    ["a 512-character key", { query: "What is our ARR?", idempotency_key: "k".repeat(512) }],
  ])("%s is accepted (202)", async (_, body) => {
    setup();
    const res = await post(body);
    expect(res.status).toBe(202);
    expect(res.json.plan.sub_questions.length).toBeGreaterThanOrEqual(2);
    expect(res.json.plan.sub_questions.length).toBeLessThanOrEqual(6);
  });

  test.each([
    ["an empty query", { query: "", idempotency_key: "k" }, "query"],
    ["a whitespace-only query", { query: " \n\t ", idempotency_key: "k" }, "query"],
    ["a 20001-character query", { query: "x".repeat(20_001), idempotency_key: "k" }, "query"],
    ["a missing query", { idempotency_key: "k" }, "query"],
    ["a query that is not a string", { query: 42, idempotency_key: "k" }, "query"],
    ["an empty key", { query: "What is our ARR?", idempotency_key: "" }, "idempotency_key"],
    ["a 513-character key", { query: "What is our ARR?", idempotency_key: "k".repeat(513) }, "idempotency_key"],
    ["a missing key", { query: "What is our ARR?" }, "idempotency_key"],
  ])("%s is a 422 naming the field, and changes nothing", async (_, body, field) => {
    setup();
    const before = counts();
    const res = await post(body);
    expect(res.status).toBe(422);
    expect(res.json.detail.some((d: { loc: string[] }) => d.loc.join(".") === `body.${field}`)).toBe(true);
    expect(counts()).toEqual(before);
  });

  test("a body that is not a JSON object is a 422", async () => {
    setup();
    const res = await t.request("POST", "/api/v1/research", { key: f.keys.write.secret, rawBody: "[1,2]" });
    expect(res.status).toBe(422);
    expect(counts().research).toBe(0);
  });
});

describe("idempotency", () => {
  test("the same key in the same org: 202, the same run, existing: true, no second charge, whatever the query", async () => {
    setup();
    const first = await post({ query: "What is Acme's ARR?", idempotency_key: "q-1" });
    expect(first.status).toBe(202);
    expect(first.json).toMatchObject({ status: "queued", existing: false, scope: "org_workspace" });
    const id = first.json.research_id;
    expect(first.json.status_url).toBe(`/api/v1/research/${id}`);
    expect(first.json.result_url).toBe(`/api/v1/research/${id}`);
    expect(first.headers.get("x-actions-remaining")).toBe("24");

    const again = await post({ query: "Something else entirely", idempotency_key: "q-1" });
    expect(again.status).toBe(202);
    expect(again.json).toMatchObject({ research_id: id, existing: true, plan: first.json.plan });
    expect(again.headers.get("x-actions-remaining")).toBeNull();
    expect(counts()).toMatchObject({ research: 1, runs: 1 });
    const read = await t.request("GET", `/api/v1/research/${id}`, { key: f.keys.read.secret });
    expect(read.json.query).toBe("What is Acme's ARR?");

    const fresh = await post({ query: "Another question", idempotency_key: "q-2" });
    expect(fresh.headers.get("x-actions-remaining")).toBe("23"); // one charge each for q-1 and q-2
  });

  test("20 concurrent identical POSTs make exactly one run and one charge", async () => {
    setup();
    const body = { query: "Which portfolio companies report ARR, and who knows their founders?", idempotency_key: "burst-1" };
    const all = await Promise.all(Array.from({ length: 20 }, () => post(body)));
    expect(all.map((r) => r.status)).toEqual(Array(20).fill(202));
    expect(new Set(all.map((r) => r.json.research_id)).size).toBe(1);
    expect(all.filter((r) => r.json.existing === false)).toHaveLength(1);
    expect(counts()).toMatchObject({ research: 1, runs: 1 });
    const next = await post({ query: "Next", idempotency_key: "burst-2" });
    expect(next.headers.get("x-actions-remaining")).toBe("23");
  });

  test("a key already used in another org: 409, nothing created or charged", async () => {
    setup();
    expect((await post({ query: "What is our ARR?", idempotency_key: "shared-key" })).status).toBe(202);
    const before = counts();
    const res = await post({ query: "What is our ARR?", idempotency_key: "shared-key" }, f.keys.otherOrgWrite.secret);
    expect(res.status).toBe(409);
    expect(res.json.detail).toMatch(/another workspace/);
    expect(counts()).toEqual(before);
  });
});

describe("the per-user live-run gate", () => {
  test("a third live run is a 429 with Retry-After that changes nothing; a finished run frees the gate", async () => {
    setup();
    expect((await post({ query: "One?", idempotency_key: "g-1" })).status).toBe(202);
    expect((await post({ query: "Two?", idempotency_key: "g-2" })).status).toBe(202);
    const before = counts();
    const refused = await post({ query: "Three?", idempotency_key: "g-3" });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(refused.json.detail).toMatch(/2 research runs queued or running/);
    expect(counts()).toEqual(before);
    // A retry of a live run's key is not a new run: still its 202.
    const retry = await post({ query: "One?", idempotency_key: "g-1" });
    expect(retry.status).toBe(202);
    expect(retry.json.existing).toBe(true);
    await runAll(t);
    const after = await post({ query: "Three?", idempotency_key: "g-3" });
    expect(after.status).toBe(202);
    expect(after.json.existing).toBe(false);
  });
});

describe("reads", () => {
  test("unknown view: 422; an id that is not a UUID or unknown: 404", async () => {
    setup();
    const id = (await post({ query: "What is our ARR?", idempotency_key: "r-1" })).json.research_id;
    expect((await t.request("GET", `/api/v1/research/${id}?view=everything`, { key: f.keys.read.secret })).status).toBe(422);
    expect((await t.request("GET", "/api/v1/research/not-a-uuid", { key: f.keys.read.secret })).status).toBe(404);
    expect((await t.request("GET", `/api/v1/research/${crypto.randomUUID()}`, { key: f.keys.read.secret })).status).toBe(404);
    const queued = await t.request("GET", `/api/v1/research/${id}`, { key: f.keys.read.secret });
    expect(queued.json).toMatchObject({ research_id: id, status: "queued", progress: null, error: null, report_markdown: null, citations: null, started_at: null, finished_at: null, scope: "org_workspace" });
  });
});
