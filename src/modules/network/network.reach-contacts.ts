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

/**
 * A reader of one proxy's co-contacts in an org since a date, with at least `min` distinct threads
 * (the same message in two mailboxes is one thread: counted by Message-ID / UID, the source key).
 */
export function proxyContactsReader(sqlite: Database, orgId: string, since: string, min: number) {
  // Every participant beside the proxy on the proxy's interactions of the org's users in the window.
  const rows = sqlite.query<Record<string, unknown>, { proxy: string; org: string; since: string }>(
    `SELECT ip2.person_id, i.source_key, i.kind = 'meeting', i.occurred_at, i.user_id, u.share_network = 1
     FROM interaction_people ip1
     JOIN interactions i ON i.id = ip1.interaction_id
     JOIN users u ON u.id = i.user_id
     JOIN interaction_people ip2 ON ip2.interaction_id = ip1.interaction_id AND ip2.person_id != ip1.person_id
     WHERE ip1.person_id = $proxy AND u.org_id = $org AND i.occurred_at >= $since`,
  );

  /** `holders`: the non-sharing users who hold this proxy (their own mail counts for them alone). */
  return (proxy: string, holders: ReadonlySet<string>): ProxyContacts => {
    const byCandidate = new Map<string, Row[]>();
    for (const row of rows.values({ proxy, org: orgId, since }) as unknown as Row[]) {
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
  };
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
