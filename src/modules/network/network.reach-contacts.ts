// Who each proxy is in real contact with, read once per proxy for the whole org rather than once per
// user who knows that proxy. Every user's pool is the teammates who share their network plus the
// user: the sharing users' pool is the same for all of them, and a user who does not share adds
// only their own mail. So one read of the proxy's interactions (within the window, in the org)
// answers every user who holds that proxy: the shared pool's figures, and for each non-sharing
// holder whose own mail has the proxy with a founder, the figures with that mail added. The job's
// work is then the proxies' interactions once each, instead of users x proxies x the proxy's
// org-wide interactions (a company the whole team knows was read once per partner who knew it).
import type { Database } from "bun:sqlite";

/** The proxy and a candidate together: distinct threads and meetings, the latest, and whose mail showed it (user ids, sorted). */
export type CoContact = { candidate: string; shared: number; meetings: number; last_shared: string; via: string[] };

/** The figures for each pool that holds the proxy: `shared` for users who share, `own` by non-sharing user. */
export type ProxyContacts = { shared: CoContact[]; own: Map<string, CoContact[]> };

type Row = [candidate: string, sourceKey: string, meeting: number, occurredAt: string, userId: string, sharing: number];

/** The two reads of the ordered pass (exported for the test that pins their plans). */
export const READ_SQL = {
  // Every interaction of every proxy, in interaction order (one sort; the rows then appended).
  hits: `SELECT ip.interaction_id, ip.person_id FROM temp.reach_proxies p
     JOIN interaction_people ip INDEXED BY interaction_people_person_idx ON ip.person_id = p.person_id
     ORDER BY ip.interaction_id`,
  // Every participant beside the proxy on those interactions of the org's users in the window, the
  // interactions and participants read in id order (CROSS JOIN keeps the hits the outer loop), the
  // result sorted by proxy so each proxy's rows come together.
  contacts: `SELECT h.proxy, ip2.person_id AS candidate, i.source_key, i.kind = 'meeting' AS meeting, i.occurred_at, i.user_id, u.share_network = 1 AS sharing
     FROM temp.reach_hits h
     CROSS JOIN interactions i ON i.id = h.interaction_id
     CROSS JOIN users u ON u.id = i.user_id
     CROSS JOIN interaction_people ip2 ON ip2.interaction_id = h.interaction_id AND ip2.person_id != h.proxy
     WHERE u.org_id = $org AND i.occurred_at >= $since
     ORDER BY h.proxy`,
};

/** The temp tables the pass works in (this connection's own). */
export function createReachTempTables(sqlite: Database) {
  sqlite.exec("CREATE TEMP TABLE IF NOT EXISTS reach_proxies (person_id TEXT PRIMARY KEY) WITHOUT ROWID");
  sqlite.exec("CREATE TEMP TABLE IF NOT EXISTS reach_hits (interaction_id INTEGER NOT NULL, proxy TEXT NOT NULL)");
}

/**
 * A reader of the proxies' co-contacts in an org since a date, with at least `min` distinct threads
 * (the same message in two mailboxes is one thread: counted by Message-ID / UID, the source key).
 *
 * All the org's proxies are read in one ordered pass rather than one lookup per interaction at
 * random: their interactions' ids come from the participants' person index alone (it carries the
 * interaction id), sorted once, and the interactions and their other participants are then read in
 * id order, each page once, in the order the file holds them. On a firm whose database outgrows the
 * page cache, a per-proxy walk made each row a random page read of its own; this pass reads what it
 * needs sequentially, so its work follows the data.
 */
export function proxyContactsReader(sqlite: Database, orgId: string, since: string, min: number) {
  createReachTempTables(sqlite);
  const addProxy = sqlite.query<unknown, [string]>("INSERT OR IGNORE INTO temp.reach_proxies (person_id) VALUES (?)");
  const collect = sqlite.query(`INSERT INTO temp.reach_hits (interaction_id, proxy) ${READ_SQL.hits}`);
  const rows = sqlite.query<{ proxy: string; candidate: string; source_key: string; meeting: number; occurred_at: string; user_id: string; sharing: number }, { org: string; since: string }>(
    READ_SQL.contacts,
  );

  /**
   * Each proxy's figures, one proxy at a time (a proxy with no co-contact in the window is left out).
   * `holders`: each proxy's non-sharing holders (their own mail counts for them alone).
   */
  return function* readAll(holders: ReadonlyMap<string, ReadonlySet<string>>): Generator<[proxy: string, contacts: ProxyContacts]> {
    sqlite.exec("DELETE FROM temp.reach_proxies");
    sqlite.exec("DELETE FROM temp.reach_hits");
    try {
      sqlite.transaction(() => {
        for (const proxy of holders.keys()) addProxy.run(proxy);
      })();
      collect.run();
      let proxy: string | null = null;
      let list: Row[] = [];
      for (const r of rows.iterate({ org: orgId, since })) {
        if (r.proxy !== proxy) {
          if (proxy !== null) yield [proxy, contactsOf(list, holders.get(proxy) ?? new Set(), min)];
          proxy = r.proxy;
          list = [];
        }
        list.push([r.candidate, r.source_key, r.meeting, r.occurred_at, r.user_id, r.sharing]);
      }
      if (proxy !== null) yield [proxy, contactsOf(list, holders.get(proxy) ?? new Set(), min)];
    } finally {
      sqlite.exec("DELETE FROM temp.reach_proxies");
      sqlite.exec("DELETE FROM temp.reach_hits");
    }
  };
}

/** One proxy's rows into the figures each pool that holds it sees. */
function contactsOf(rows: Row[], holders: ReadonlySet<string>, min: number): ProxyContacts {
  const byCandidate = new Map<string, Row[]>();
  for (const row of rows) {
    // A non-sharing user's mail counts only in that user's own pool.
    if (!row[5] && !holders.has(row[4])) continue;
    const list = byCandidate.get(row[0]);
    if (list) list.push(row);
    else byCandidate.set(row[0], [row]);
  }
  const shared: CoContact[] = [];
  const own = new Map<string, CoContact[]>();
  for (const [candidate, list] of byCandidate) {
    const pooled = figures(candidate, list, (r) => r[5] === 1, min);
    if (pooled) shared.push(pooled);
    // A non-sharing holder's pool differs from the shared one only where their own mail is.
    const mine = new Set<string>();
    for (const r of list) if (!r[5]) mine.add(r[4]);
    for (const user of mine) {
      const withMine = figures(candidate, list, (r) => r[5] === 1 || r[4] === user, min);
      if (!withMine) continue;
      const found = own.get(user);
      if (found) found.push(withMine);
      else own.set(user, [withMine]);
    }
  }
  // A non-sharing holder with no mail of their own on a candidate sees the shared figures there.
  for (const [user, list] of own) {
    const theirs = new Set(list.map((c) => c.candidate));
    own.set(user, [...list, ...shared.filter((c) => !theirs.has(c.candidate))]);
  }
  return { shared, own };
}

function figures(candidate: string, rows: Row[], inPool: (r: Row) => boolean, min: number): CoContact | null {
  const threads = new Set<string>();
  const meetings = new Set<string>();
  const via = new Set<string>();
  let last = "";
  for (const r of rows) {
    if (!inPool(r)) continue;
    threads.add(r[1]);
    if (r[2]) meetings.add(r[1]);
    via.add(r[4]);
    if (r[3] > last) last = r[3];
  }
  if (threads.size < min) return null;
  return { candidate, shared: threads.size, meetings: meetings.size, last_shared: last, via: [...via].sort() };
}

/** The figures a user's pool sees for a proxy. */
export function contactsFor(c: ProxyContacts, userId: string, sharing: boolean): CoContact[] {
  return sharing ? c.shared : (c.own.get(userId) ?? c.shared);
}
