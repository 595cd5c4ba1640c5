// A small hand-built network written through the real graph writer, with dates relative to the
// test clock, so every figure in a network test can be reasoned about by hand.
import type { Deps } from "../../src/deps.ts";
import { graphWriter, type PersonFacts } from "../../src/modules/network/network.graph.ts";
import type { Direction } from "../../src/modules/network/network.scoring.ts";

const DAY = 86_400_000;
let counter = 0;

export type Touch = { daysAgo: number; direction: Direction };

/** `n` touches alternating sent/received, `every` days apart, the latest `lastDaysAgo` days ago. */
export function thread(n: number, every: number, lastDaysAgo: number, directions: Direction[] = ["sent", "received"]): Touch[] {
  return Array.from({ length: n }, (_, i) => ({ daysAgo: lastDaysAgo + i * every, direction: directions[i % directions.length] }));
}

/** Records touches between a user and one person (each touch its own message or meeting); `others` were on each too. */
export function knows(deps: Deps, userId: string, person: PersonFacts, touchList: Touch[], others: PersonFacts[] = []) {
  const now = deps.clock.now().getTime();
  deps.db.transaction(() => {
    const w = graphWriter(deps, userId);
    for (const t of touchList) {
      w.interaction({
        sourceKey: `${t.direction === "meeting" ? "evt" : "msg"}:test-${++counter}`,
        kind: t.direction === "meeting" ? "meeting" : "email",
        occurredAt: new Date(now - t.daysAgo * DAY),
        participantCount: 2 + others.length,
        touches: [{ person, direction: t.direction }],
        others,
      });
    }
    w.flush();
  });
}

/** A contact card only: the person is known to the user, with no touch. */
export function hasCard(deps: Deps, userId: string, person: PersonFacts) {
  deps.db.transaction(() => graphWriter(deps, userId).contact(person));
}

export function personId(deps: Deps, orgId: string, email: string): string {
  return deps.db.$client.query<{ person_id: string }, [string, string]>("SELECT person_id FROM person_emails WHERE org_id = ? AND email = ?").get(orgId, email)!.person_id;
}
