// POST /founders/analyze and the record: checks and 422s, the org dedupe (existing, no charge,
// a new run after a failure), 20 concurrent identical requests, both views, outbox, SSE.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { actionsService } from "../../../src/modules/actions/actions.service.ts";
import { serveApp } from "../../helpers/app.ts";
import { actionsUsed, analyze, readAnalysis, runAll, runCount, setup, type Ctx } from "./helpers.ts";
import { framesOf, readFrames } from "../../helpers/sse.ts";

let c: Ctx;

const failRun = (id: string, error = "The model endpoint was down") => {
  const actions = actionsService(c.t.deps);
  const run = actions.latestFor(c.f.orgs.acme.id, id)!;
  actions.start(run.id);
  actions.fail(run.id, error);
};

describe("request checks", () => {
  const cases: [string, unknown, (string | number)[], string][] = [
    ["no identifier at all", { company: "Ledgerly" }, ["body", "name"], "missing"],
    ["an empty body", {}, ["body", "name"], "missing"],
    ["a blank name", { name: "   " }, ["body", "name"], "string_too_short"],
    ["a name over 200 characters", { name: "x".repeat(201) }, ["body", "name"], "string_too_long"],
    ["a company over 200 characters", { name: "Jane Doe", company: "c".repeat(201) }, ["body", "company"], "string_too_long"],
    ["a name that is not a string", { name: 42 }, ["body", "name"], "string_type"],
    ["a LinkedIn company page", { linkedin_url: "https://www.linkedin.com/company/acme" }, ["body", "linkedin_url"], "url_parsing"],
    ["a LinkedIn URL over http", { linkedin_url: "http://www.linkedin.com/in/jane-doe" }, ["body", "linkedin_url"], "url_parsing"],
    ["a look-alike LinkedIn host", { linkedin_url: "https://linkedin.com.evil.io/in/jane-doe" }, ["body", "linkedin_url"], "url_parsing"],
    ["not a URL", { linkedin_url: "jane doe" }, ["body", "linkedin_url"], "url_parsing"],
    ["a LinkedIn URL with a malformed percent-encoding", { linkedin_url: "https://www.linkedin.com/in/%E0%A4%A" }, ["body", "linkedin_url"], "url_parsing"],
    ["a LinkedIn URL whose escapes are not UTF-8", { name: "Jane Doe", linkedin_url: "https://www.linkedin.com/in/jane-%C0%AF" }, ["body", "linkedin_url"], "url_parsing"],
    ["a GitHub repository instead of a user", { github_url: "https://github.com/janedoe/project" }, ["body", "github_url"], "url_parsing"],
    ["a GitHub login with a leading hyphen", { github_url: "https://github.com/-jane" }, ["body", "github_url"], "url_parsing"],
    ["a GitHub URL with credentials", { github_url: "https://user:pw@github.com/janedoe" }, ["body", "github_url"], "url_parsing"],
    ["a URL over 2048 characters", { github_url: `https://github.com/${"a".repeat(2100)}` }, ["body", "github_url"], "string_too_long"],
  ];
  for (const [name, body, loc, type] of cases) {
    test(`${name} -> 422 at ${loc.join(".")}`, async () => {
      c = setup();
      const res = await analyze(c, body);
      expect(res.status, res.text).toBe(422);
      expect(res.json.detail[0]).toMatchObject({ loc, type });
      expect(actionsUsed(c)).toBe(0);
    });
  }

  test("malformed JSON and a JSON array are 422, never an analysis", async () => {
    c = setup();
    const bad = await c.t.request("POST", "/api/v1/founders/analyze", { key: c.f.keys.write.secret, rawBody: "{nope" });
    expect(bad.status).toBe(422);
    const list = await c.t.request("POST", "/api/v1/founders/analyze", { key: c.f.keys.write.secret, body: [{ name: "Jane Doe" }] });
    expect(list.status).toBe(422);
    expect(runCount(c)).toBe(0);
  });

  test("valid profile URLs in their usual forms are accepted and normalised", async () => {
    c = setup();
    const res = await analyze(c, { linkedin_url: "https://uk.linkedin.com/in/Jane-Doe/", github_url: "https://github.com/JaneDoe/", company: " Ledgerly  Inc " });
    expect(res.status, res.text).toBe(202);
    const rec = await readAnalysis(c, res.json.analysis_id);
    expect(rec.json.founder).toEqual({ name: null, linkedin_url: "https://www.linkedin.com/in/jane-doe", github_url: "https://github.com/janedoe", company: "Ledgerly Inc" });
  });

  test("unknown view -> 422; a non-UUID or unknown id -> 404", async () => {
    c = setup();
    const id = (await analyze(c, { name: "Jane Doe" })).json.analysis_id;
    const bad = await readAnalysis(c, id, "everything");
    expect(bad.status).toBe(422);
    expect(bad.json.detail[0].loc).toEqual(["query", "view"]);
    expect((await readAnalysis(c, "not-a-uuid")).status).toBe(404);
    expect((await readAnalysis(c, crypto.randomUUID())).status).toBe(404);
    expect((await c.t.request("GET", `/api/v1/founders/analyses/${crypto.randomUUID()}/events`, { key: c.f.keys.read.secret })).status).toBe(404);
  });
});

describe("the 202 and the org dedupe", () => {
  test("a new founder: 202 queued, existing false, both URLs, X-Actions charged; the record reads queued", async () => {
    c = setup();
    const res = await analyze(c, { name: "Jane Doe", company: "Ledgerly" });
    expect(res.status).toBe(202);
    const id = res.json.analysis_id;
    expect(res.json).toEqual({
      analysis_id: id,
      status: "queued",
      status_url: `/api/v1/founders/analyses/${id}`,
      result_url: `/api/v1/founders/analyses/${id}`,
      existing: false,
      as_of: c.t.clock.now().toISOString(),
    });
    expect(res.headers.get("x-actions-remaining")).toBe("24");
    const rec = await readAnalysis(c, id);
    expect(rec.json).toMatchObject({ analysis_id: id, status: "queued", progress: null, error: null, overall_score: null, metrics: [], strengths: [], risks: [], sources: [], started_at: null, finished_at: null, scope: "org_workspace" });
  });

  test("the same founder again (queued, then succeeded): existing true, same id, nothing charged; other spellings of the key match", async () => {
    c = setup();
    const first = await analyze(c, { name: "Jane Doe", linkedin_url: "https://www.linkedin.com/in/jane-doe" });
    expect(actionsUsed(c)).toBe(1);
    const again = await analyze(c, { linkedin_url: "https://linkedin.com/in/JANE-DOE/" });
    expect(again.status).toBe(202);
    expect(again.json).toMatchObject({ analysis_id: first.json.analysis_id, status: "queued", existing: true });
    // The figures as they stand: nothing was charged.
    expect(again.headers.get("x-actions-remaining")).toBe("24");
    expect(actionsUsed(c)).toBe(1);
    await runAll(c.t);
    const done = await analyze(c, { name: "Jane Doe", linkedin_url: "https://www.linkedin.com/in/jane-doe", company: "Elsewhere" });
    expect(done.json).toMatchObject({ analysis_id: first.json.analysis_id, status: "succeeded", existing: true });
    expect(actionsUsed(c)).toBe(1);
    expect(runCount(c)).toBe(1);
    // Name + company is its own key: case and spacing do not matter, the company does.
    const byName = await analyze(c, { name: "Sam Founder", company: "Ledgerly" });
    expect((await analyze(c, { name: "  sam   FOUNDER ", company: "ledgerly" })).json).toMatchObject({ analysis_id: byName.json.analysis_id, existing: true });
    expect((await analyze(c, { name: "Sam Founder", company: "Other Co" })).json.existing).toBe(false);
  });

  test("a duplicate costs nothing even when the actions budget is spent; a new founder then gets the 429", async () => {
    c = setup();
    c.t.deps.db.$client.query("UPDATE api_keys SET daily_actions = 1 WHERE id = ?").run(c.f.keys.write.id);
    const first = await analyze(c, { name: "Jane Doe" });
    expect(first.status).toBe(202);
    const dup = await analyze(c, { name: "Jane Doe" });
    expect(dup.status).toBe(202);
    expect(dup.json.existing).toBe(true);
    expect(dup.headers.get("x-actions-remaining")).toBe("0");
    const other = await analyze(c, { name: "John Roe" });
    expect(other.status).toBe(429);
    expect(other.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(runCount(c)).toBe(1);
  });

  test("another org's analysis of the same founder is not returned: each org has its own", async () => {
    c = setup();
    const acme = await analyze(c, { github_url: "https://github.com/janedoe" });
    const globex = await analyze(c, { github_url: "https://github.com/janedoe" }, c.f.keys.otherOrgWrite.secret);
    expect(globex.json.existing).toBe(false);
    expect(globex.json.analysis_id).not.toBe(acme.json.analysis_id);
    expect((await readAnalysis(c, acme.json.analysis_id, undefined, c.f.keys.otherOrgWrite.secret)).status).toBe(404);
  });

  test("after a failed run the same request starts a new run on the same analysis (charged again)", async () => {
    c = setup();
    const first = await analyze(c, { name: "Jane Doe", company: "Ledgerly" });
    const id = first.json.analysis_id;
    failRun(id);
    const failed = await readAnalysis(c, id);
    expect(failed.json).toMatchObject({ status: "failed", error: "The model endpoint was down", progress: null });
    const retry = await analyze(c, { name: "Jane Doe", company: "Ledgerly", github_url: "https://github.com/janedoe" });
    expect(retry.json).toMatchObject({ analysis_id: id, status: "queued", existing: false });
    expect(retry.headers.get("x-actions-remaining")).toBe("23");
    expect(runCount(c)).toBe(2);
    // What the retry added is kept with what was known.
    expect((await readAnalysis(c, id)).json).toMatchObject({ status: "queued", error: null, founder: { name: "Jane Doe", company: "Ledgerly", github_url: "https://github.com/janedoe" } });
  });

  test("20 concurrent identical requests make one run and one charge", async () => {
    c = setup();
    const all = await Promise.all(Array.from({ length: 20 }, () => analyze(c, { name: "Jane Doe", company: "Ledgerly" })));
    expect(all.map((r) => r.status)).toEqual(Array(20).fill(202));
    expect(new Set(all.map((r) => r.json.analysis_id)).size).toBe(1);
    expect(all.filter((r) => r.json.existing === false)).toHaveLength(1);
    expect(runCount(c)).toBe(1);
    expect(actionsUsed(c)).toBe(1);
  });

  test("4 worker threads on their own connections, 5 identical requests each: one analysis, one run, one charge", async () => {
    c = setup();
    const path = join(c.t.dataDir!, "dealgraph.db");
    const workerUrl = new URL("./analyze-worker.ts", import.meta.url).href;
    const answers = (
      await Promise.all(
        [0, 1, 2, 3].map(
          () =>
            new Promise<{ id: string; existing: boolean }[]>((resolve, reject) => {
              const w = new Worker(workerUrl);
              w.onmessage = (e) => {
                resolve(e.data);
                w.terminate();
              };
              w.onerror = (e) => reject(e);
              w.postMessage({ path, secret: c.f.keys.write.secret, body: { name: "Jane Doe", company: "Ledgerly" }, attempts: 5, at: c.t.clock.now().toISOString() });
            }),
        ),
      )
    ).flat();
    expect(answers).toHaveLength(20);
    expect(new Set(answers.map((a) => a.id)).size).toBe(1);
    expect(answers.filter((a) => !a.existing)).toHaveLength(1);
    expect(runCount(c)).toBe(1);
    expect(actionsUsed(c)).toBe(1);
  });
});

describe("the finished record", () => {
  test("summary and full have the same keys; summary nulls per-metric confidence, reasoning, missing_info; the outbox has founder.analysis.completed", async () => {
    c = setup();
    const id = (await analyze(c, { name: "Jane Doe", company: "Ledgerly" })).json.analysis_id;
    await runAll(c.t);
    const full = await readAnalysis(c, id, "full");
    const summary = await readAnalysis(c, id);
    expect(full.json.status).toBe("succeeded");
    expect(Object.keys(summary.json).sort()).toEqual(Object.keys(full.json).sort());
    expect(full.json.metrics.map((m: any) => m.key)).toEqual(["domain_expertise", "execution_track_record", "technical_depth", "leadership", "network_strength"]);
    for (const [i, m] of summary.json.metrics.entries()) {
      expect(Object.keys(m).sort()).toEqual(Object.keys(full.json.metrics[i]).sort());
      expect(m).toMatchObject({ key: full.json.metrics[i].key, score: full.json.metrics[i].score, confidence: null, reasoning: null, missing_info: null });
      expect(typeof full.json.metrics[i].reasoning).toBe("string");
      expect(Array.isArray(full.json.metrics[i].missing_info)).toBe(true);
    }
    expect(full.json.started_at).toEqual(expect.any(String));
    expect(full.json.finished_at).toEqual(expect.any(String));
    const outbox = c.t.deps.db.$client.query<{ event: string; entity_id: string; result_url: string }, []>("SELECT event, entity_id, result_url FROM outbox_events").all();
    expect(outbox).toEqual([{ event: "founder.analysis.completed", entity_id: id, result_url: `/api/v1/founders/analyses/${id}` }]);
  });
});

describe("events", () => {
  test("a live stream: the queued state, each stage of the run, the terminal state, done with result_url", async () => {
    c = setup();
    const base = serveApp(c.t);
    const id = (await analyze(c, { name: "Jane Doe", company: "Ledgerly" })).json.analysis_id;
    const res = await fetch(`${base}/api/v1/founders/analyses/${id}/events`, { headers: { authorization: `Bearer ${c.f.keys.read.secret}` } });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const reading = readFrames(res);
    await runAll(c.t);
    const frames = await reading;
    expect(frames[0]).toMatchObject({ event: "progress", data: { analysis_id: id, status: "queued", progress: null } });
    const stages = frames.filter((f) => f.data?.status === "running").map((f) => f.data.progress.stage);
    expect(stages).toEqual(["starting", "resolve", "enrich", "network", "documents", "score"]);
    expect(frames.at(-2)).toMatchObject({ event: "progress", data: { status: "succeeded", progress: null, error: null } });
    expect(frames.at(-1)).toEqual({ event: "done", data: { status: "succeeded", result_url: `/api/v1/founders/analyses/${id}` } });
  });

  test("a stream opened after a failure: the failed state, done, close", async () => {
    c = setup();
    const id = (await analyze(c, { name: "Jane Doe" })).json.analysis_id;
    failRun(id, "gone");
    const res = await c.t.request("GET", `/api/v1/founders/analyses/${id}/events`, { key: c.f.keys.read.secret });
    expect(res.status).toBe(200);
    expect(framesOf(res.text).map((frame) => frame.event)).toEqual(["progress", "done"]);
    expect(res.text).toContain('"error":"gone"');
  });
});
