// The shared auth scenarios on every funds route. The funds reads take no id: another
// organization's book never shows (see the isolation tests beside these).
import { describe } from "bun:test";
import { authScenarios } from "../../helpers/auth-scenarios.ts";
import { runScenarios } from "../../helpers/scenarios.ts";

for (const path of ["/api/v1/funds/positions", "/api/v1/funds/cashflows", "/api/v1/funds/marks"]) {
  describe(`GET ${path}`, () => runScenarios(authScenarios({ method: "GET", path: `${path}?fund_name=Alpha%20Fund%20I`, scope: "read", ok: 200 })));
}
