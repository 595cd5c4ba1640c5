// Makes test/fixtures/datadir-<last migration>/: a small firm built by this release through its
// real commands and API (an org, an admin, keys, a portfolio import, an uploaded deck in the blob
// store, a webhook with its sealed secret), kept as a SQL dump plus its files and key. Every later
// release must open it (test/cli/upgrade.test.ts). Run it once per release that changes the schema:
//   bun run scripts/make-datadir-fixture.ts
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrations } from "../migrations/index.ts";
import { createApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { openDataDir } from "../src/db/open.ts";
import { createDeps } from "../src/deps.ts";
import { silentLog } from "../src/lib/log.ts";
import { PORTFOLIO_CSV } from "../test/helpers/book.ts";
import { cli } from "../test/helpers/cli.ts";
import { dumpDatabase, FIXTURES } from "../test/helpers/datadir-fixture.ts";
import { pdfDeck, uploadForm } from "../test/helpers/decks.ts";

const tag = migrations.at(-1)!.tag;
const out = join(FIXTURES, `datadir-${tag}`);
const dir = mkdtempSync(join(tmpdir(), "dealgraph-fixture-"));
try {
  const must = async (...argv: string[]) => {
    const r = await cli(dir, ...argv);
    if (r.code !== 0) throw new Error(`${argv.join(" ")}: ${r.stderr}`);
    return r.json;
  };
  const org = (await must("admin", "org", "create", "--name", "Fixture Ventures", "--json")).org_id;
  const user = (await must("admin", "user", "create", "--org", org, "--email", "gp@fixture.vc", "--name", "Gale Partner", "--admin", "--share-network", "--json")).user_id;
  const write = (await must("admin", "key", "create", "--user", user, "--scope", "write", "--name", "fixture write", "--json")).secret;
  const read = (await must("admin", "key", "create", "--user", user, "--scope", "read", "--name", "fixture read", "--json")).secret;
  writeFileSync(join(dir, "portfolio.csv"), PORTFOLIO_CSV);
  await must("import", "portfolio", "--org", org, join(dir, "portfolio.csv"), "--json");
  rmSync(join(dir, "portfolio.csv"));

  const config = loadConfig({ DEALGRAPH_ALLOW_PRIVATE_NETWORK: "1" }, { dataDir: dir });
  const { db } = openDataDir(config);
  const app = createApp(createDeps({ db, config, log: silentLog }));
  const call = async (method: string, path: string, body?: string | FormData, json = true) => {
    const headers: Record<string, string> = { authorization: `Bearer ${write}` };
    if (json) headers["content-type"] = "application/json";
    const res = await app.handle(new Request(`http://localhost${path}`, { method, headers, body }));
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as any;
  };
  const deck = await pdfDeck();
  const deal = await call("POST", "/api/v1/deals/analyze/upload", uploadForm(deck, "deck.pdf", { company_name: "Ledgerly" }), false);
  const hook = await call("POST", "/api/v1/webhooks", JSON.stringify({ url: "http://127.0.0.1:9/dealgraph" }));
  const applied = db.$client.query<{ tag: string }, []>("SELECT tag FROM _migrations ORDER BY tag").all().map((r) => r.tag);
  const dump = dumpDatabase(db.$client);
  db.$client.close();

  rmSync(out, { recursive: true, force: true });
  cpSync(join(dir, "blobs"), join(out, "blobs"), { recursive: true });
  cpSync(join(dir, "secret.key"), join(out, "secret.key"));
  writeFileSync(join(out, "dump.sql"), dump);
  const facts = {
    made_with: applied,
    org_id: org,
    user_id: user,
    keys: { read, write },
    deal_id: deal.deal_id,
    deck_sha256: new Bun.CryptoHasher("sha256").update(deck).digest("hex"),
    webhook: { id: hook.webhook_id, secret: hook.secret },
    portfolio_companies: 5,
  };
  writeFileSync(join(out, "facts.json"), JSON.stringify(facts, null, 2) + "\n");
  console.log(`wrote ${out} (${dump.length} bytes of SQL, ${existsSync(join(out, "blobs")) ? "blobs, " : ""}secret.key, facts.json)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
