// The web workspace's fast tests: a file-backed app (uploads need a data dir) with the standard
// cast, a signed-in browser for Alice (Acme) and one for Carol (Globex, another organization), and
// small readers of the database's state, so each test can say "nothing changed".
import { afterEach } from "bun:test";
import { createTestApp, type TestApp } from "./app.ts";
import { seedIdentity, type Fixture } from "./fixtures.ts";
import { Browser } from "./web.ts";

export type Workspace = { t: TestApp; f: Fixture; alice: Browser; carol: Browser };

const open: TestApp[] = [];
afterEach(() => {
  while (open.length) open.pop()!.close();
});

export async function workspace(): Promise<Workspace> {
  const t = createTestApp({ file: true });
  open.push(t);
  const f = seedIdentity(t.deps);
  const alice = new Browser(t);
  const carol = new Browser(t);
  await alice.signInAs(f.users.alice.id);
  await carol.signInAs(f.users.carol.id);
  return { t, f, alice, carol };
}

/** One number from the database (a count, usually). */
export function scalar(t: TestApp, sql: string, ...params: (string | number)[]): number {
  return (t.deps.db.$client.query(sql).get(...params) as { n: number }).n;
}

/** What a refusal must leave as it was: deals, documents, runs and the web actions charged. */
export function state(t: TestApp) {
  return {
    deals: scalar(t, "SELECT count(*) AS n FROM deals"),
    documents: scalar(t, "SELECT count(*) AS n FROM deal_documents"),
    runs: scalar(t, "SELECT count(*) AS n FROM action_runs"),
    research: scalar(t, "SELECT count(*) AS n FROM research_runs"),
    webActions: scalar(t, "SELECT COALESCE(sum(actions), 0) AS n FROM web_action_usage"),
    stages: t.deps.db.$client.query("SELECT id, stage FROM deals ORDER BY id").all(),
  };
}
