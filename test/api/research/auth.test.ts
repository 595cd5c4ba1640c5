// The shared auth scenarios on every research route (org isolation included).
import { describe } from "bun:test";
import type { TestApp } from "../../helpers/app.ts";
import { authScenarios } from "../../helpers/auth-scenarios.ts";
import type { Fixture } from "../../helpers/fixtures.ts";
import { runScenarios } from "../../helpers/scenarios.ts";
import { seedResearch } from "./seed.ts";

const own = (suffix: string) => (f: Fixture, t: TestApp) => `/api/v1/research/${seedResearch(t, f.keys.write.secret, { finished: true })}${suffix}`;
const foreign = (suffix: string) => (f: Fixture, t: TestApp) => `/api/v1/research/${seedResearch(t, f.keys.otherOrgWrite.secret)}${suffix}`;

describe("POST /api/v1/research", () =>
  runScenarios(
    authScenarios({
      method: "POST",
      path: "/api/v1/research",
      body: () => ({ query: "What is our exposure to fintech?", idempotency_key: crypto.randomUUID() }),
      scope: "write",
      ok: 202,
    }),
  ));
describe("GET /api/v1/research/{research_id}", () =>
  runScenarios(authScenarios({ method: "GET", path: own(""), scope: "read", ok: 200, foreignPath: foreign("") })));
describe("GET /api/v1/research/{research_id}/events", () =>
  runScenarios(authScenarios({ method: "GET", path: own("/events"), scope: "read", ok: 200, foreignPath: foreign("/events") })));
