// CONTRACT: a path id that is not a UUID is 404, as any unknown id: never a 422 about the
// parameter, never a 500. Every route with a path parameter is found from the app's route table,
// so a route mounted later is covered without editing this file.
import { describe, expect, test } from "bun:test";
import { createTestApp } from "../../helpers/app.ts";
import { malformedIdScenarios } from "../../helpers/auth-scenarios.ts";
import { runScenarios } from "../../helpers/scenarios.ts";

type Hooks = { query?: { properties?: Record<string, unknown>; required?: string[] } };

function routesWithIds() {
  const t = createTestApp();
  try {
    return t.app.routes
      .filter((r) => r.path.startsWith("/api/v1/") && r.path.includes("/:"))
      .map((r) => {
        // A required query parameter is given ("x" is a fine value for each of them today), so
        // the id is the only thing wrong with the request.
        const required = (r.hooks as Hooks).query?.required ?? [];
        const query = required.length ? "?" + required.map((name) => `${name}=x`).join("&") : "";
        return { method: r.method, template: r.path, query };
      });
  } finally {
    t.close();
  }
}

const routes = routesWithIds();

test("the route table has the id routes of the spec", () => {
  const templates = routes.map((r) => `${r.method} ${r.template}`);
  for (const expected of [
    "GET /api/v1/keys/:key_id",
    "POST /api/v1/keys/:key_id/rotate",
    "GET /api/v1/deals/:deal_id",
    "GET /api/v1/deals/:deal_id/analysis/events",
    "GET /api/v1/founders/analyses/:analysis_id",
    "GET /api/v1/research/:research_id",
    "GET /api/v1/portfolio/companies/:company_id/metrics",
    "DELETE /api/v1/webhooks/:webhook_id",
    "GET /api/v1/webhooks/:webhook_id/deliveries/:delivery_id",
  ]) {
    expect(templates).toContain(expected);
  }
});

for (const route of routes) {
  describe(`${route.method} ${route.template}`, () => runScenarios(malformedIdScenarios(route)));
}
