// One small firm for the `ask` tests, written through the real services: Alice's network (Dana at
// acme.com, Nora at stripe.com, a relationship going stale), the standard portfolio and LP books, a
// scored deal (ledgerly.io), and another org (Globex) with a deal and a contact of its own.
// `seedRuns` adds what actions leave behind: a finished founder analysis, a finished research run
// and a reach candidate.
import { reachCandidates } from "../../../jobs/reach-candidates.ts";
import { FUNDS_AS_OF, importFundsBook, importPortfolioBook } from "../../helpers/book.ts";
import { finishedFounderAnalysis, finishedResearch } from "../../helpers/finished-runs.ts";
import { principalOf } from "../../helpers/fixtures.ts";
import { knows, thread } from "../../helpers/network.ts";
import { actionsService } from "../../../src/modules/actions/actions.service.ts";
import { dealsService, nameTarget } from "../../../src/modules/deals/deals.service.ts";
import { graphWriter, type PersonFacts } from "../../../src/modules/network/network.graph.ts";
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
  knows(deps, alice, { email: "nora@stripe.com", name: "Nora Quinn", title: "Head of Partnerships" }, thread(6, 7, 3));
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
  deps.db.$client.query("UPDATE deals SET domain = 'ledgerly.io', website = 'https://ledgerly.io' WHERE id = ?").run(ledgerly);
  const initech = scored(f.keys.otherOrgWrite.secret, "Initech", 55);
  // The fixtures' charges are not the tests' business: start every count from zero.
  deps.db.$client.query("DELETE FROM key_usage").run();
  deps.db.$client.query("DELETE FROM web_action_usage").run(); // actions are counted per user too
  return { ledgerly, initech };
}

const DAY = 86_400_000;

/** A message from `from` to Alice with `others` on copy: who is in contact with whom (for reach candidates). */
function copied(h: McpHarness, from: PersonFacts, others: PersonFacts[], daysAgo: number, key: string) {
  const deps = h.t.deps;
  deps.db.transaction(() => {
    const w = graphWriter(deps, h.f.users.alice.id);
    w.interaction({ sourceKey: `msg:${key}`, kind: "email", occurredAt: new Date(deps.clock.now().getTime() - daysAgo * DAY), participantCount: 2 + others.length, touches: [{ person: from, direction: "received" }], others });
    w.flush();
  });
}

/** A finished founder analysis (Sam Rivera, 81), a finished research run and a reach candidate (Priya Raman); no charge left on any key. */
export async function seedRuns(h: McpHarness) {
  const deps = h.t.deps;
  const principal = principalOf(deps, h.f.keys.write.secret);
  const founderAnalysisId = finishedFounderAnalysis(deps, principal, { name: "Sam Rivera", company: "Ledgerly", score: 81, expertise: 88, why: "Ten years in payments.", strength: "Built two payments products" });
  const researchId = await finishedResearch(deps, principal, { query: "payroll APIs in Europe", key: "seed-research-payroll", title: "Payroll APIs", summary: "Three payroll API vendors lead in Europe." });

  const proxy = { email: "jane@bank.com", name: "Jane Proxy", title: "Partner" };
  const candidate = { email: "priya@quillpay.io", name: "Priya Raman", title: "Co-founder & CEO", company: "Quillpay (payments infrastructure)" };
  knows(deps, h.f.users.alice.id, proxy, [...thread(16, 6, 2), { daysAgo: 5, direction: "meeting" }]);
  copied(h, proxy, [candidate], 10, "reach-1");
  copied(h, proxy, [candidate], 40, "reach-2");
  // The nightly job itself, with the firm's book as it reads it.
  reachCandidates.runOnce(deps);

  deps.db.$client.query("DELETE FROM key_usage").run();
  deps.db.$client.query("DELETE FROM web_action_usage").run(); // actions are counted per user too
  return { founderAnalysisId, researchId };
}
