// The service surface other modules call (MCP): analyze, read, findByName; and the responses
// checked against the OpenAPI schemas the routes declare.
import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { ApiError } from "../../../src/http/errors.ts";
import { FounderAcceptedResponse, FounderAnalysisResponse } from "../../../src/modules/founders/founders.model.ts";
import { foundersService } from "../../../src/modules/founders/founders.service.ts";
import { principalOf } from "../../helpers/fixtures.ts";
import { knows, thread } from "../../helpers/network.ts";
import { analyze, readAnalysis, runAll, setup, type Ctx } from "./helpers.ts";

let c: Ctx;

const schemaErrors = (schema: Parameters<typeof Value.Errors>[0], value: unknown) => [...Value.Errors(schema, value)].map((e) => `${e.path}: ${e.message}`);

describe("foundersService", () => {
  test("analyze returns the 202 body and X-Actions headers; a bad body is a 422 ApiError naming the field", () => {
    c = setup();
    const founders = foundersService(c.t.deps);
    const principal = principalOf(c.t.deps, c.f.keys.write.secret);
    const { body, headers } = founders.analyze(principal, { name: "Jane Doe" });
    expect(body).toMatchObject({ status: "queued", existing: false });
    expect(headers).toEqual({ "X-Actions-Limit": "25", "X-Actions-Remaining": "24" });
    let error: ApiError | null = null;
    try {
      founders.analyze(principal, { github_url: "https://gitlab.com/jane" });
    } catch (e) {
      error = e as ApiError;
    }
    expect(error?.status).toBe(422);
    expect(error?.detail).toEqual([{ loc: ["body", "github_url"], msg: expect.any(String), type: "url_parsing" }]);
    expect(() => founders.read(c.f.orgs.globex.id, body.analysis_id, "full")).toThrow(ApiError);
    expect(founders.read(c.f.orgs.acme.id, body.analysis_id, "full")).toMatchObject({ analysis_id: body.analysis_id, status: "queued" });
  });

  test("findByName: the org's succeeded analyses whose founder name contains the text, newest first", async () => {
    c = setup();
    const founders = foundersService(c.t.deps);
    const done = (await analyze(c, { name: "Jane Doe", company: "Ledgerly" })).json.analysis_id;
    await runAll(c.t);
    await analyze(c, { name: "Janet Queued" }); // not finished: not found
    await analyze(c, { name: "Jane Doe" }, c.f.keys.otherOrgWrite.secret); // another org's
    const hits = founders.findByName(c.f.orgs.acme.id, "jane");
    expect(hits.map((h) => h.analysis_id)).toEqual([done]);
    expect(hits[0]).toMatchObject({ status: "succeeded", founder: { name: "Jane Doe" } });
    expect(founders.findByName(c.f.orgs.acme.id, "%")).toEqual([]);
    expect(founders.findByName(c.f.orgs.acme.id, "  ")).toEqual([]);
  });
});

describe("responses match the documented schemas", () => {
  test("the 202, and the record queued and finished in both views", async () => {
    c = setup();
    knows(c.t.deps, c.f.users.alice.id, { email: "jane@ledgerly.io", name: "Jane Doe" }, thread(4, 5, 1));
    const accepted = await analyze(c, { name: "Jane Doe" });
    expect(schemaErrors(FounderAcceptedResponse, accepted.json)).toEqual([]);
    expect(schemaErrors(FounderAnalysisResponse, (await readAnalysis(c, accepted.json.analysis_id)).json)).toEqual([]);
    await runAll(c.t);
    for (const view of ["summary", "full"]) {
      const rec = await readAnalysis(c, accepted.json.analysis_id, view);
      expect(rec.json.metrics).toHaveLength(5);
      expect(schemaErrors(FounderAnalysisResponse, rec.json)).toEqual([]);
    }
  });
});
