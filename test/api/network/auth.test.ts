// The shared auth scenarios on every network route. Warmth lookup is a POST that a read key may call.
import { describe } from "bun:test";
import { authScenarios } from "../../helpers/auth-scenarios.ts";
import { runScenarios } from "../../helpers/scenarios.ts";

describe("GET /api/v1/network/who-knows", () =>
  runScenarios(authScenarios({ method: "GET", path: "/api/v1/network/who-knows?domain=acme.com", scope: "read", ok: 200 })));

describe("POST /api/v1/network/warmth/lookup", () =>
  runScenarios(authScenarios({ method: "POST", path: "/api/v1/network/warmth/lookup", body: { contacts: ["a@b.co"] }, scope: "read", ok: 200 })));

describe("GET /api/v1/network/contacts", () =>
  runScenarios(authScenarios({ method: "GET", path: "/api/v1/network/contacts", scope: "read", ok: 200 })));

describe("GET /api/v1/network/reach/candidates", () =>
  runScenarios(authScenarios({ method: "GET", path: "/api/v1/network/reach/candidates", scope: "read", ok: 200 })));

describe("GET /api/v1/network/signals/going-stale", () =>
  runScenarios(authScenarios({ method: "GET", path: "/api/v1/network/signals/going-stale", scope: "read", ok: 200 })));
