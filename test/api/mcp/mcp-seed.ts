// One small firm for the `ask` tests, written through the real services: Alice's network (Dana at
// acme.com, a relationship going stale), the standard portfolio and LP books, a scored deal, and
// another org (Globex) with a deal and a contact of its own.
import { FUNDS_AS_OF, importFundsBook, importPortfolioBook } from "../../helpers/book.ts";
import { principalOf } from "../../helpers/fixtures.ts";
import { knows, thread } from "../../helpers/network.ts";
import { actionsService } from "../../../src/modules/actions/actions.service.ts";
import { dealsService, nameTarget } from "../../../src/modules/deals/deals.service.ts";
import { networkSignals } from "../../../src/modules/network/network.signals.ts";
import type { McpHarness } from "./mcp-harness.ts";

export const SEEDED_AT = FUNDS_AS_OF;

export function seedFirm(h: McpHarness) {
  const { t, f } = h;
  const deps = t.deps;
  const alice = f.users.alice.id;
  knows(deps, alice, { email: "dana@acme.com", name: "Dana Scully", title: "CTO", company: "Acme" }, thread(8, 5, 2));
  knows(deps, alice, { email: "erin@boltpay.io", name: "Erin Ito", title: "CEO" }, thread(4, 10, 40));
  networkSignals(deps).declareCadence(alice, "erin@boltpay.io", 14);
  knows(deps, f.users.carol.id, { email: "gina@initech.com", name: "Gina Globex" }, thread(5, 3, 1));
  importPortfolioBook(deps, f.orgs.acme.id);
  importFundsBook(deps, f.orgs.acme.id);

  const deals = dealsService(deps);
  const actions = actionsService(deps);
  const scored = (secret: string, name: string, score: number) => {
    const principal = principalOf(deps, secret);
    const { dealId, run } = deals.submit(principal, { companyName: name, kind: "company", source: "upload", targetKey: nameTarget(name) }, () => {}, {});
    actions.start(run.id);
    actions.succeed(run.id);
    deps.db.$client.query("UPDATE deals SET score = ?, score_confidence = 0.8, stage = 'screening' WHERE id = ?").run(score, dealId);
    return dealId;
  };
  const ledgerly = scored(f.keys.write.secret, "Ledgerly", 72);
  const initech = scored(f.keys.otherOrgWrite.secret, "Initech", 55);
  // The fixtures' charges are not the tests' business: start every count from zero.
  deps.db.$client.query("DELETE FROM key_usage").run();
  return { ledgerly, initech };
}
