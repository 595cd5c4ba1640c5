// The shared auth scenarios (and malformed ids) on POST /api/v1/deals/{deal_id}/verification. A
// permitted request on a deal whose analysis is not waiting answers 409: every refusal comes first.
import { describe } from "bun:test";
import { dealsService, nameTarget } from "../../../src/modules/deals/deals.service.ts";
import type { TestApp } from "../../helpers/app.ts";
import { authScenarios, malformedIdScenarios } from "../../helpers/auth-scenarios.ts";
import { principalOf, type Fixture } from "../../helpers/fixtures.ts";
import { runScenarios } from "../../helpers/scenarios.ts";

function seedDeal(t: TestApp, secret: string): string {
  return dealsService(t.deps).submit(principalOf(t.deps, secret), { companyName: "Seeded", kind: "company", source: "document", targetKey: nameTarget(`seeded-${crypto.randomUUID()}`) }, () => {}, {}).dealId;
}
const path = (which: "write" | "otherOrgWrite") => (f: Fixture, t: TestApp) => `/api/v1/deals/${seedDeal(t, f.keys[which].secret)}/verification`;
const body = { verification_url: "https://docsend.com/view/abc/verify?token=t1" };

describe("POST /api/v1/deals/{deal_id}/verification", () => {
  runScenarios(authScenarios({ method: "POST", path: path("write"), body, scope: "write", ok: 409, foreignPath: path("otherOrgWrite") }));
  runScenarios(malformedIdScenarios({ method: "POST", template: "/api/v1/deals/:deal_id/verification", body }));
});
