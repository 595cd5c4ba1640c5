import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { createApp } from "../../../src/app.ts";
import { loadConfig } from "../../../src/config.ts";
import { wrapDrizzle } from "../../../src/db/client.ts";
import { applyMigrations } from "../../../src/db/migrate.ts";
import { createDeps } from "../../../src/deps.ts";
import { silentLog } from "../../../src/lib/log.ts";
import { Value } from "@sinclair/typebox/value";
import type { TSchema } from "elysia";
import { ApiKeyDetailModel, ApiKeyListModel, RotatedKeyModel } from "../../../src/modules/identity/keys.model.ts";
import { findTesseract } from "../../../src/documents/ocr.ts";
import { Liveness, Readiness } from "../../../src/modules/health/health.routes.ts";
import { MeModel } from "../../../src/modules/identity/me.model.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { seedIdentity } from "../../helpers/fixtures.ts";

let t: TestApp;
afterEach(() => t?.close());

describe("GET /api/v1/openapi.json", () => {
  test("is OpenAPI 3.1, version 1.10.0, unauthenticated, with both key schemes", async () => {
    t = createTestApp();
    const res = await t.request("GET", "/api/v1/openapi.json");
    expect(res.status).toBe(200);
    const doc = res.json;
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe("1.10.0");
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.securitySchemes.apiKeyHeader).toMatchObject({ type: "apiKey", in: "header", name: "X-API-Key" });
    expect(doc.components.schemas.Error.properties.detail.type).toBe("string");
    expect(doc.components.schemas.ValidationError.properties.detail.items.required).toEqual(["loc", "msg", "type"]);
  });

  test("every operation has a unique operationId; every /api/v1 operation documents security, errors and rate headers", async () => {
    t = createTestApp();
    const doc = (await t.request("GET", "/api/v1/openapi.json")).json;
    const ids: string[] = [];
    let apiOps = 0;
    for (const [path, methods] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(methods)) {
        expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z]+$/);
        ids.push(op.operationId);
        if (!path.startsWith("/api/v1/")) continue;
        apiOps++;
        expect(op.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }, { apiKeyHeader: [] }]);
        for (const status of ["401", "403", "404", "422", "429", "503"]) expect(op.responses[status], `${method} ${path} ${status}`).toBeDefined();
        expect(op.responses["422"].content["application/json"].schema.$ref).toBe("#/components/schemas/ValidationError");
        expect(op.responses["401"].content["application/json"].schema.$ref).toBe("#/components/schemas/Error");
        expect(op.responses["429"].headers["Retry-After"]).toBeDefined();
        const success = Object.entries<any>(op.responses).find(([s]) => s.startsWith("2"));
        expect(success, `${method} ${path}`).toBeDefined();
        expect(success![1].headers["X-RateLimit-Remaining"]).toBeDefined();
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(["getMe", "listApiKeys", "getApiKey", "revokeApiKey", "rotateApiKey", "getLiveness", "getReadiness"]));
    expect(apiOps).toBeGreaterThanOrEqual(5);
    // The document itself and the docs page are not operations of the API.
    expect(doc.paths["/api/v1/openapi.json"]).toBeUndefined();
    expect(doc.paths["/api/v1/docs"]).toBeUndefined();
  });

  test("the unauthenticated health routes say so", async () => {
    t = createTestApp();
    const doc = (await t.request("GET", "/api/v1/openapi.json")).json;
    expect(doc.paths["/healthz"].get.security).toEqual([]);
  });

  test("documents request and response schemas from the routes themselves", async () => {
    t = createTestApp();
    const doc = (await t.request("GET", "/api/v1/openapi.json")).json;
    const rotate = doc.paths["/api/v1/keys/{key_id}/rotate"].post;
    expect(rotate.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: "key_id", in: "path" })]));
    expect(JSON.stringify(rotate.requestBody)).toContain("overlap_hours");
    expect(JSON.stringify(rotate.responses["201"])).toContain("secret");
  });
});

describe("what every operation of a kind documents", () => {
  const operations = async () => {
    t = createTestApp();
    const doc = (await t.request("GET", "/api/v1/openapi.json")).json;
    const ops: { where: string; method: string; path: string; op: any }[] = [];
    for (const [path, methods] of Object.entries<Record<string, any>>(doc.paths)) {
      if (!path.startsWith("/api/v1/")) continue;
      for (const [method, op] of Object.entries<any>(methods)) ops.push({ where: `${method.toUpperCase()} ${path}`, method, path, op });
    }
    return { doc, ops };
  };
  const byId = (ops: { op: any }[], id: string) => ops.find((o) => o.op.operationId === id)!.op;

  test("a parameter with a default is optional; path ids are UUIDs; no coercion branch or internal marker leaks", async () => {
    const { doc, ops } = await operations();
    let defaults = 0;
    for (const { where, op } of ops) {
      for (const p of op.parameters ?? []) {
        if (p.schema && "default" in p.schema) {
          defaults++;
          expect(p.required, `${where} ${p.name}`).toBe(false);
        }
        if (p.in === "path") expect(p.schema, `${where} ${p.name}`).toMatchObject({ type: "string", format: "uuid" });
      }
    }
    // limit on who-knows, contacts, reach candidates, going-stale, deals; offset on deals...
    expect(defaults).toBeGreaterThanOrEqual(8);
    const text = JSON.stringify(doc);
    expect(text).not.toContain('"format":"integer"');
    expect(text).not.toContain('"format":"numeric"');
    expect(text).not.toContain("x-param");
    const limit = byId(ops, "listDeals").parameters.find((p: any) => p.name === "limit");
    expect(limit).toEqual({ name: "limit", in: "query", required: false, schema: { type: "integer", minimum: 1, maximum: 200, default: 50 } });
  });

  test("the rotate body is optional, an integer without a made-up default; a body the route needs stays required", async () => {
    const { ops } = await operations();
    const rotate = byId(ops, "rotateApiKey").requestBody;
    expect(rotate.required).toBe(false);
    expect(rotate.content["application/json"].schema.properties.overlap_hours).toEqual({
      type: "integer",
      minimum: 0,
      maximum: 720,
      description: expect.stringContaining("default 24"),
    });
    for (const id of ["startResearch", "analyzeDeal", "createWebhook", "lookupWarmth", "analyzeUpload"]) expect(byId(ops, id).requestBody.required, id).toBe(true);
  });

  test("write routes: 401/403/422/429, and 413/415 (JSON bodies and uploads)", async () => {
    const { ops } = await operations();
    const writes = ops.filter((o) => o.method === "post" || o.method === "delete");
    expect(writes.length).toBeGreaterThanOrEqual(10);
    for (const { where, op } of writes) {
      for (const status of ["401", "403", "422", "429", "415"]) expect(op.responses[status], `${where} ${status}`).toBeDefined();
      const multipart = !!op.requestBody?.content?.["multipart/form-data"];
      if (multipart) expect(op.responses["413"], `${where} 413`).toBeDefined();
      else expect(op.responses["415"].description, where).toContain("application/json");
      // A JSON body over the cap is refused (body-limits.test.ts).
      if (!multipart && op.requestBody) expect(op.responses["413"]?.description, `${where} 413`).toMatch(/JSON body is larger than \d+ MB/);
    }
    for (const id of ["analyzeUpload", "addDealDocuments"]) {
      expect(byId(ops, id).responses["413"]).toBeDefined();
      expect(byId(ops, id).responses["415"].description).toMatch(/type/);
    }
    for (const { where, op } of ops.filter((o) => o.method === "get")) expect(op.responses["415"], where).toBeUndefined();
  });

  test("409 where an operation can return it; X-Actions-* on actions' 202 and 429", async () => {
    const { ops } = await operations();
    for (const id of ["rotateApiKey", "analyzeDeal", "analyzeUpload", "startResearch", "createWebhook", "redeliverWebhookDelivery"]) {
      expect(byId(ops, id).responses["409"]?.content["application/json"].schema.$ref, id).toBe("#/components/schemas/Error");
    }
    expect(byId(ops, "getMe").responses["409"]).toBeUndefined();
    // A data-room upload during an analysis is accepted (CONTRACT.md): no 409.
    expect(byId(ops, "addDealDocuments").responses["409"]).toBeUndefined();
    for (const id of ["analyzeDeal", "analyzeUpload", "addDealDocuments", "analyzeFounder", "startResearch"]) {
      const responses = byId(ops, id).responses;
      for (const status of ["202", "429"]) {
        expect(responses[status].headers["X-Actions-Limit"], `${id} ${status}`).toBeDefined();
        expect(responses[status].headers["X-Actions-Remaining"], `${id} ${status}`).toBeDefined();
      }
      expect(responses["429"].headers["Retry-After"]).toBeDefined();
    }
    // ...and only there: a read's 429 is the request budget alone.
    expect(byId(ops, "listDeals").responses["429"].headers["X-Actions-Limit"]).toBeUndefined();
  });

  test("the documented 409 of rotate is real", async () => {
    t = createTestApp();
    const f = seedIdentity(t.deps);
    const rotate = () => t.request("POST", `/api/v1/keys/${f.keys.read.id}/rotate`, { key: f.keys.write.secret, body: {} });
    expect((await rotate()).status).toBe(201);
    expect((await rotate()).status).toBe(409);
  });
});

describe("GET /api/v1/docs", () => {
  test("an interactive page whose assets come from this server, not a CDN", async () => {
    t = createTestApp();
    const page = await t.request("GET", "/api/v1/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.text).not.toMatch(/https?:\/\//);
    const srcs = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(srcs.length).toBeGreaterThanOrEqual(2);
    for (const src of srcs) {
      const res = await t.app.handle(new Request(`http://localhost${src}`));
      expect(res.status, src).toBe(200);
      expect((await res.arrayBuffer()).byteLength, src).toBeGreaterThan(10_000);
    }
    expect(page.text).toContain("/api/v1/openapi.json");
  });
});

describe("health", () => {
  test("/healthz is live and /readyz reports the database, LibreOffice and Tesseract", async () => {
    t = createTestApp();
    expect((await t.request("GET", "/healthz")).json).toEqual({ status: "ok" });
    const ready = await t.request("GET", "/readyz");
    expect(ready.status).toBe(200);
    expect(ready.json.status).toBe("ready");
    expect(ready.json.checks.database).toEqual({ status: "ok", detail: expect.stringContaining("migrations applied") });
    expect(["ok", "unavailable"]).toContain(ready.json.checks.libreoffice.status);
    expect(ready.json.checks.tesseract).toEqual(findTesseract() ? { status: "ok", detail: "installed" } : { status: "unavailable", detail: expect.stringContaining("not installed") });
  });

  test("/readyz is 503 while migrations are pending", async () => {
    // A database whose ledger lacks a migration this binary embeds (as after a failed upgrade).
    const sqlite = new Database(":memory:");
    applyMigrations(sqlite);
    sqlite.exec("DELETE FROM _migrations");
    const app = createApp(createDeps({ db: wrapDrizzle(sqlite), config: loadConfig({}), log: silentLog }));
    const res = await app.handle(new Request("http://localhost/readyz"));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    const body: any = await res.json();
    expect(body.status).toBe("unavailable");
    expect(body.checks.database.detail).toContain("migrations pending: 0000_foundation");
    sqlite.close();
  });

  test("/readyz is 503 when the database is closed", async () => {
    t = createTestApp();
    t.deps.db.$client.close();
    const res = await t.app.handle(new Request("http://localhost/readyz"));
    expect(res.status).toBe(503);
    expect(((await res.json()) as any).checks.database.status).toBe("unavailable");
    t = createTestApp(); // afterEach closes this one instead
  });
});

describe("real responses match the schemas the document promises", () => {
  test("every route's success body checks against its documented model", async () => {
    t = createTestApp();
    const f = seedIdentity(t.deps);
    const check = (schema: TSchema, body: unknown, what: string) => {
      const errors = [...Value.Errors(schema, body)].map((e) => `${e.path}: ${e.message}`);
      expect(errors, what).toEqual([]);
    };
    const key = { key: f.keys.write.secret };
    check(MeModel, (await t.request("GET", "/api/v1/me", key)).json, "me");
    check(ApiKeyListModel, (await t.request("GET", "/api/v1/keys", key)).json, "keys");
    check(ApiKeyDetailModel, (await t.request("GET", `/api/v1/keys/${f.keys.revoked.id}`, key)).json, "key");
    check(RotatedKeyModel, (await t.request("POST", `/api/v1/keys/${f.keys.read.id}/rotate`, key)).json, "rotate");
    check(Liveness, (await t.request("GET", "/healthz")).json, "healthz");
    check(Readiness, (await t.request("GET", "/readyz")).json, "readyz");
    // And the document carries those same schemas.
    const doc = (await t.request("GET", "/api/v1/openapi.json")).json;
    expect(doc.paths["/api/v1/me"].get.responses["200"].content["application/json"].schema.required).toEqual(MeModel.required);
  });
});
