// The shared auth scenarios on every portfolio route, including another organization's holding.
import { describe } from "bun:test";
import { authScenarios } from "../../helpers/auth-scenarios.ts";
import { holdingId } from "../../helpers/book.ts";
import { runScenarios } from "../../helpers/scenarios.ts";

describe("GET /api/v1/portfolio/companies", () =>
  runScenarios(authScenarios({ method: "GET", path: "/api/v1/portfolio/companies", scope: "read", ok: 200 })));

describe("GET /api/v1/portfolio/companies/{company_id}/metrics", () =>
  runScenarios(
    authScenarios({
      method: "GET",
      path: (f, t) => `/api/v1/portfolio/companies/${holdingId(t.deps, f.orgs.acme.id)}/metrics?metric=arr`,
      scope: "read",
      ok: 200,
      foreignPath: (f, t) => `/api/v1/portfolio/companies/${holdingId(t.deps, f.orgs.globex.id)}/metrics?metric=arr`,
    }),
  ));
