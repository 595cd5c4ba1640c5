// The shared auth scenarios on every deals route.
import { describe } from "bun:test";
import { dealsService, nameTarget } from "../../../src/modules/deals/deals.service.ts";
import type { TestApp } from "../../helpers/app.ts";
import { authScenarios } from "../../helpers/auth-scenarios.ts";
import { principalOf, type Fixture } from "../../helpers/fixtures.ts";
import { runScenarios } from "../../helpers/scenarios.ts";

/** A queued deal of the given key's org, created through the real submission path. */
function seedDeal(t: TestApp, secret: string): string {
  return dealsService(t.deps).submit(principalOf(t.deps, secret), { companyName: "Seeded", kind: "company", source: "upload", targetKey: nameTarget(`seeded-${crypto.randomUUID()}`) }, () => {}, {}).dealId;
}
const own = (suffix: string) => (f: Fixture, t: TestApp) => `/api/v1/deals/${seedDeal(t, f.keys.write.secret)}${suffix}`;
const foreign = (suffix: string) => (f: Fixture, t: TestApp) => `/api/v1/deals/${seedDeal(t, f.keys.otherOrgWrite.secret)}${suffix}`;

describe("GET /api/v1/deals", () => runScenarios(authScenarios({ method: "GET", path: "/api/v1/deals", scope: "read", ok: 200 })));
describe("GET /api/v1/deals/{deal_id}", () => runScenarios(authScenarios({ method: "GET", path: own(""), scope: "read", ok: 200, foreignPath: foreign("") })));
describe("GET /api/v1/deals/{deal_id}/analysis", () =>
  runScenarios(authScenarios({ method: "GET", path: own("/analysis"), scope: "read", ok: 200, foreignPath: foreign("/analysis") })));
describe("GET /api/v1/deals/{deal_id}/documents", () =>
  runScenarios(authScenarios({ method: "GET", path: own("/documents"), scope: "read", ok: 200, foreignPath: foreign("/documents") })));
describe("POST /api/v1/deals/analyze/upload", () =>
  runScenarios(
    // Without a multipart body a permitted request is a 422; every refusal comes before it.
    authScenarios({ method: "POST", path: "/api/v1/deals/analyze/upload", scope: "write", ok: 422 }),
  ));
describe("POST /api/v1/deals/analyze", () =>
  runScenarios(
    // A permitted request with a website whose name resolves nowhere is still accepted (202): the run fails later.
    authScenarios({ method: "POST", path: "/api/v1/deals/analyze", body: { website_url: "https://acme-auth-scenario.invalid/" }, scope: "write", ok: 202 }),
  ));

/** A deal whose analysis has finished, so the data room takes files (a live one would be 409). */
function settledDeal(t: TestApp, secret: string): string {
  const id = seedDeal(t, secret);
  t.deps.db.$client.query("UPDATE action_runs SET status = 'succeeded', finished_at = created_at WHERE subject_id = ?").run(id);
  return id;
}
describe("POST /api/v1/deals/{deal_id}/documents", () =>
  runScenarios(
    // Without a multipart body a permitted request is a 422; every refusal comes before it.
    authScenarios({
      method: "POST",
      path: (f, t) => `/api/v1/deals/${settledDeal(t, f.keys.write.secret)}/documents`,
      scope: "write",
      ok: 422,
      foreignPath: (f, t) => `/api/v1/deals/${settledDeal(t, f.keys.otherOrgWrite.secret)}/documents`,
    }),
  ));

describe("GET /api/v1/deals/{deal_id}/analysis/events", () =>
  runScenarios(
    // On a finished run a permitted stream sends its terminal state and `done`, then closes.
    authScenarios({
      method: "GET",
      path: (f, t) => `/api/v1/deals/${settledDeal(t, f.keys.write.secret)}/analysis/events`,
      scope: "read",
      ok: 200,
      foreignPath: (f, t) => `/api/v1/deals/${settledDeal(t, f.keys.otherOrgWrite.secret)}/analysis/events`,
    }),
  ));
