// The shared auth scenarios on every founders route, org isolation included.
import { describe } from "bun:test";
import { actionsService } from "../../../src/modules/actions/actions.service.ts";
import { foundersService } from "../../../src/modules/founders/founders.service.ts";
import type { TestApp } from "../../helpers/app.ts";
import { authScenarios } from "../../helpers/auth-scenarios.ts";
import { principalOf, type Fixture } from "../../helpers/fixtures.ts";
import { runScenarios } from "../../helpers/scenarios.ts";

/** A queued analysis of the given key's org, made through the real service. */
const seed = (t: TestApp, secret: string) =>
  foundersService(t.deps).analyze(principalOf(t.deps, secret), { name: `Seeded Founder ${crypto.randomUUID()}` }).body.analysis_id;
/** An analysis whose run already ended: its event stream sends the terminal state, done, and closes. */
function ended(t: TestApp, secret: string): string {
  const id = seed(t, secret);
  const actions = actionsService(t.deps);
  const run = actions.latestFor(principalOf(t.deps, secret).orgId, id)!;
  actions.start(run.id);
  actions.fail(run.id, "ended for the test");
  return id;
}
const own = (suffix: string) => (f: Fixture, t: TestApp) => `/api/v1/founders/analyses/${seed(t, f.keys.write.secret)}${suffix}`;
const foreign = (suffix: string) => (f: Fixture, t: TestApp) => `/api/v1/founders/analyses/${seed(t, f.keys.otherOrgWrite.secret)}${suffix}`;

describe("POST /api/v1/founders/analyze", () =>
  runScenarios(authScenarios({ method: "POST", path: "/api/v1/founders/analyze", body: { name: "Jane Doe", company: "Ledgerly" }, scope: "write", ok: 202 })));
describe("GET /api/v1/founders/analyses/{analysis_id}", () =>
  runScenarios(authScenarios({ method: "GET", path: own(""), scope: "read", ok: 200, foreignPath: foreign("") })));
describe("GET /api/v1/founders/analyses/{analysis_id}?view=full", () =>
  runScenarios(authScenarios({ method: "GET", path: own("?view=full"), scope: "read", ok: 200, foreignPath: foreign("?view=full") })));
describe("GET /api/v1/founders/analyses/{analysis_id}/events", () =>
  runScenarios(
    authScenarios({
      method: "GET",
      path: (f, t) => `/api/v1/founders/analyses/${ended(t, f.keys.write.secret)}/events`,
      scope: "read",
      ok: 200,
      foreignPath: (f, t) => `/api/v1/founders/analyses/${ended(t, f.keys.otherOrgWrite.secret)}/events`,
    }),
  ));
