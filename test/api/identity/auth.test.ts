// The shared auth scenarios, on every route of the identity and key modules.
import { describe } from "bun:test";
import { authScenarios } from "../../helpers/auth-scenarios.ts";
import { runScenarios } from "../../helpers/scenarios.ts";

describe("GET /api/v1/me", () => runScenarios(authScenarios({ method: "GET", path: "/api/v1/me", scope: "read", ok: 200 })));

describe("GET /api/v1/keys", () => runScenarios(authScenarios({ method: "GET", path: "/api/v1/keys", scope: "read", ok: 200 })));

describe("GET /api/v1/keys/{key_id}", () =>
  runScenarios(
    authScenarios({
      method: "GET",
      path: (f) => `/api/v1/keys/${f.keys.read.id}`,
      scope: "read",
      ok: 200,
      foreignPath: (f) => `/api/v1/keys/${f.keys.otherOrgWrite.id}`,
    }),
  ));

describe("DELETE /api/v1/keys/{key_id}", () =>
  runScenarios(
    authScenarios({
      method: "DELETE",
      path: (f) => `/api/v1/keys/${f.keys.read.id}`,
      scope: "write",
      ok: 204,
      foreignPath: (f) => `/api/v1/keys/${f.keys.otherOrgWrite.id}`,
    }),
  ));

describe("POST /api/v1/keys/{key_id}/rotate", () =>
  runScenarios(
    authScenarios({
      method: "POST",
      path: (f) => `/api/v1/keys/${f.keys.read.id}/rotate`,
      body: { overlap_hours: 1 },
      scope: "write",
      ok: 201,
      foreignPath: (f) => `/api/v1/keys/${f.keys.otherOrgWrite.id}/rotate`,
    }),
  ));
