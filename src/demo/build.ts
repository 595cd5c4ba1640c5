// The demo firm: generated files (firm, book, decks, network) loaded through the real services and
// importers, and the demo's keys kept beside the database so every restart can print them again.
import { chmodSync, existsSync } from "node:fs";
import { join } from "node:path";
import type { Deps } from "../deps.ts";
import { apiKeysService } from "../modules/identity/keys.service.ts";
import { orgsService } from "../modules/identity/orgs.service.ts";
import { webAuth } from "../modules/web/web.auth.ts";
import { generateFirm, writeFirm, type FirmManifest } from "./firm.ts";
import { loadDemoBook } from "./load-book.ts";
import { loadDemoDeals } from "./load-deals.ts";
import { loadDemoNetwork } from "./load-network.ts";
import { loadDemoUpdates } from "./updates.ts";

export type Progress = { err(line: string): void };

export type DemoKeys = {
  user_id: string;
  read: { key_id: string; secret: string };
  write: { key_id: string; secret: string };
  /** The token of the demo's web sign-in link (reusable; see demoSignInToken). */
  sign_in_token?: string;
};

// The demo's keys (and its sign-in link's token) are kept in plain text beside the database so
// every restart can print them again. That is for demo data dirs only; real keys and links are
// never stored, only their hashes.
const keysFile = (deps: Deps) => join(deps.config.dataDir, "demo-keys.json");

/**
 * The demo's one-click sign-in link, as the lead partner. Unlike `admin user link` (one use, 15
 * minutes), it is reusable and does not expire: it is printed at every start next to the demo keys,
 * which give the same access for as long, and an evaluator opens it from a terminal at any time,
 * in more than one browser. Only `dealgraph demo` makes such a link, for the data dir it built.
 * The token is kept (and reused) while it still signs in.
 */
async function demoSignInToken(deps: Deps, keys: DemoKeys): Promise<string> {
  const auth = webAuth(deps);
  if (keys.sign_in_token && auth.peekLink(keys.sign_in_token).status === "valid") return keys.sign_in_token;
  keys.sign_in_token = auth.issueLink(keys.user_id, { reusable: true }).token;
  await writeKeys(deps, keys);
  return keys.sign_in_token;
}

async function writeKeys(deps: Deps, keys: DemoKeys) {
  await Bun.write(keysFile(deps), JSON.stringify(keys, null, 2) + "\n");
  chmodSync(keysFile(deps), 0o600);
}

/** Loads the generated firm through the same services the admin CLI uses. */
export function loadFirm(deps: Deps, firm: FirmManifest, progress: (line: string) => void): DemoKeys {
  const orgsSvc = orgsService(deps);
  const keys = apiKeysService(deps);
  return deps.db.transaction(() => {
    const org = orgsSvc.createOrg(firm.org.name);
    progress(`organization ${org.name}`);
    const users = firm.team.map((m, i) => {
      const user = orgsSvc.createUser({ orgId: org.id, email: m.email, name: m.name, shareNetwork: m.share_network, isAdmin: m.admin });
      progress(`team member ${i + 1}/${firm.team.length}: ${m.name}, ${m.title}${m.share_network ? "" : " (not sharing their network)"}`);
      return user;
    });
    const lead = users[0];
    const read = keys.create({ userId: lead.id, scope: "read", name: "demo read key" });
    const write = keys.create({ userId: lead.id, scope: "write", name: "demo write key" });
    return { user_id: lead.id, read: { key_id: read.keyId, secret: read.secret }, write: { key_id: write.keyId, secret: write.secret } };
  });
}

export async function buildDemo(deps: Deps, io: Progress): Promise<DemoKeys> {
  const sourceDir = join(deps.config.dataDir, "demo-source");
  const started = performance.now();
  const step = (n: number, total: number, what: string) => io.err(`[demo ${n}/${total}] ${what}`);
  step(1, 5, `generating the demo firm's files in ${sourceDir}`);
  const firm = generateFirm({ seed: 7 });
  await writeFirm(sourceDir, firm);
  step(2, 5, "loading them");
  const keys = loadFirm(deps, firm, (line) => io.err(`  ${line}`));
  // The book before the network: the network's reach job scores founders against its sectors.
  step(3, 5, "generating the portfolio book and LP funds as CSV files, and importing them");
  const orgId = orgsService(deps).mustGetUser(keys.user_id).orgId!;
  await loadDemoBook(deps, { id: orgId, name: firm.org.name }, sourceDir, (line) => io.err(`  ${line}`));
  // A few months of founders' updates read from mail into the book (some waiting for review).
  const lead = orgsService(deps).mustGetUser(keys.user_id);
  await loadDemoUpdates(deps, orgId, { id: lead.id, email: lead.email }, sourceDir, (line) => io.err(`  ${line}`));
  // The deals before the network too: their sectors join the thesis as well.
  step(4, 5, "generating the deal flow's pitch decks, uploading them and analysing them");
  await loadDemoDeals(deps, orgId, sourceDir, (line) => io.err(`  ${line}`));
  step(5, 5, "generating the team's mail, calendars and address books, and importing them");
  await loadDemoNetwork(deps, firm, sourceDir, (line) => io.err(`  ${line}`));
  await demoSignInToken(deps, keys);
  io.err(`[demo] built in ${Math.round(performance.now() - started)} ms`);
  return keys;
}

export async function existingDemoKeys(deps: Deps): Promise<DemoKeys | null> {
  if (!existsSync(keysFile(deps))) return null;
  const keys = (await Bun.file(keysFile(deps)).json()) as DemoKeys;
  const valid = apiKeysService(deps);
  if (valid.verify(keys.read.secret).status !== "VALID" || valid.verify(keys.write.secret).status !== "VALID") return null;
  await demoSignInToken(deps, keys); // a data dir built before the link existed gets one now
  return keys;
}

