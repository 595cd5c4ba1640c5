// The reach-candidates job on a seeded firm (the scale bench's seeder, small: a company half the
// team knows, whose people are every knower's strongest proxies; colleagues on a third of the
// threads; two years of mail, half of it outside the window) plus threads that sit in two partners'
// mailboxes under one Message-ID, a partner who does not share, and another org with the same
// Message-IDs: every stored candidate is what a plain per-user, per-proxy walk over all the
// interactions finds (the job reads each proxy's interactions once for the whole org).
import { expect, test } from "bun:test";
import { seedNetworkBulk } from "../../../scripts/lib/bench-seed-bulk.ts";
import { graphWriter, type PersonFacts } from "../../../src/modules/network/network.graph.ts";
import { orgsService } from "../../../src/modules/identity/orgs.service.ts";
import { PATH_COLUMNS, scorePath, type PathRow } from "../../../src/modules/network/network.paths.ts";
import { computeReachCandidates, DIRECT_MAX_STRENGTH, MIN_SHARED, PROXY_MIN_STRENGTH, WINDOW_DAYS } from "../../../src/modules/network/network.reach-compute.ts";
import { contactReason, dealOf, founderReason, indexBook, isHeldCompany } from "../../../src/modules/network/network.reach-reasons.ts";
import type { FirmBook } from "../../../src/modules/network/network.thesis.ts";
import { seededApp } from "../../helpers/app.ts";
import { TestClock } from "../../helpers/clock.ts";

const DAY = 86_400_000;
const BOOK: FirmBook = {
  // Founders at these companies are held (not candidates) or in the pipeline (a CEO there counts).
  holdings: [1, 4, 9, 16, 25].map((i) => ({ name: `Held ${i}`, website: `company${i}.com`, sector: "Fintech", stage: "seed" })),
  deals: [2, 3, 5, 7, 11, 13].map((i) => ({ name: `Deal ${i}`, domain: `company${i}.com`, kind: "company" as const, pipelineStage: "screening", sector: "Climate software", roundStage: "Seed" })),
};

type Expected = { user: string; person: string; proxy: string; shared: number; meetings: number; last: string; via: string[] };

/** The straightforward reading: for each user, each proxy in strength order, every interaction of the pool in the window that has the proxy. */
function reference(sqlite: import("bun:sqlite").Database, now: Date, book: FirmBook): Expected[] {
  const since = new Date(now.getTime() - WINDOW_DAYS * DAY).toISOString();
  const users = sqlite.query<{ id: string; org_id: string; email: string; name: string; share_network: number }, []>("SELECT id, org_id, email, name, share_network FROM users WHERE org_id IS NOT NULL").all();
  const orgEmails = new Set(users.map((u) => u.email.toLowerCase()));
  const interactions = new Map<number, { user: string; key: string; meeting: boolean; at: string; people: string[] }>();
  for (const r of sqlite
    .query<{ id: number; user_id: string; source_key: string; kind: string; occurred_at: string; person_id: string }, []>(
      "SELECT i.id, i.user_id, i.source_key, i.kind, i.occurred_at, ip.person_id FROM interactions i JOIN interaction_people ip ON ip.interaction_id = i.id",
    )
    .all()) {
    const i = interactions.get(r.id) ?? { user: r.user_id, key: r.source_key, meeting: r.kind === "meeting", at: r.occurred_at, people: [] };
    i.people.push(r.person_id);
    interactions.set(r.id, i);
  }
  const withPerson = new Map<string, (typeof interactions extends Map<number, infer V> ? V : never)[]>();
  for (const i of interactions.values()) for (const p of i.people) withPerson.set(p, [...(withPerson.get(p) ?? []), i]);
  const person = sqlite.query<{ display_name: string | null; title: string | null; company: string | null; domain: string | null }, [string]>("SELECT display_name, title, company, domain FROM persons WHERE id = ?");
  const own = sqlite.query<PathRow, { me: string }>(
    `SELECT ${PATH_COLUMNS} FROM relationships r JOIN persons p ON p.id = r.person_id JOIN users u ON u.id = r.user_id WHERE r.user_id = $me AND r.last_touch_at IS NOT NULL`,
  );
  const index = indexBook(book);
  const out: Expected[] = [];
  for (const u of users) {
    const pool = new Set(users.filter((x) => x.org_id === u.org_id && (x.share_network === 1 || x.id === u.id)).map((x) => x.id));
    const paths = own.all({ me: u.id }).map((r) => scorePath(r, now));
    const known = new Set(paths.filter((p) => (p.strength_score ?? 0) > DIRECT_MAX_STRENGTH).map((p) => p.contact_id));
    const proxies = paths
      .filter((p) => (p.strength_score ?? 0) >= PROXY_MIN_STRENGTH && !orgEmails.has(p.email ?? ""))
      .sort((a, b) => b.strength_score! - a.strength_score!)
      .slice(0, 200);
    const best = new Map<string, { weight: number; e: Expected }>();
    for (const p of proxies) {
      const seen = new Map<string, { keys: Set<string>; meetings: Set<string>; last: string; via: Set<string> }>();
      for (const i of withPerson.get(p.contact_id) ?? []) {
        if (!pool.has(i.user) || i.at < since) continue;
        for (const c of i.people) {
          if (c === p.contact_id) continue;
          const s = seen.get(c) ?? { keys: new Set(), meetings: new Set(), last: "", via: new Set() };
          s.keys.add(i.key);
          if (i.meeting) s.meetings.add(i.key);
          if (i.at > s.last) s.last = i.at;
          s.via.add(i.user);
          seen.set(c, s);
        }
      }
      for (const [c, s] of seen) {
        if (s.keys.size < MIN_SHARED || known.has(c)) continue;
        const weight = p.strength_score! * Math.min(s.keys.size, 10);
        if ((best.get(c)?.weight ?? -1) >= weight) continue;
        best.set(c, { weight, e: { user: u.id, person: c, proxy: p.contact_id, shared: s.keys.size, meetings: s.meetings.size, last: s.last, via: [...s.via].sort() } });
      }
    }
    const firmDomain = u.email.split("@")[1].toLowerCase();
    for (const { e } of best.values()) {
      const row = person.get(e.person)!;
      if (!row.display_name || row.domain === firmDomain) continue;
      const card = { ...row, display_name: row.display_name };
      if (!founderReason(card, dealOf(card, index)) || isHeldCompany(card, index)) continue;
      out.push(e);
    }
  }
  return out;
}

test("the stored reach candidates of a seeded firm are the plain per-user, per-proxy reading's", () => {
  const { t, f } = seededApp({ clock: new TestClock(new Date(Date.now() + DAY)) });
  const sqlite = t.deps.db.$client;
  const orgs = orgsService(t.deps);
  // Alice shares, Bob does not (the fixture); six more partners, two of them not sharing.
  const more = Array.from({ length: 6 }, (_, i) => orgs.createUser({ orgId: f.orgs.acme.id, email: `p${i}@acme.vc`, name: `Partner ${String.fromCharCode(90 - i)}`, shareNetwork: i % 3 !== 2 }));
  const team = [f.users.alice, f.users.bob, ...more];
  seedNetworkBulk(sqlite, f.orgs.acme.id, team.map((u) => u.id), { persons: 2500, interactions: 40_000, relationshipsPerUser: [200, 400], bigCompany: { domain: "bigco.com", persons: 120, knownBy: 5 } });

  // The company's people are the knowers' strongest proxies: threads with one of them and a founder,
  // some under one Message-ID in a sharing and a non-sharing partner's mailbox, some meetings, some
  // older than the window; the same Message-IDs in another org's mailbox.
  const proxyOf = (n: number) => sqlite.query<{ email: string }, [string]>("SELECT e.email FROM person_emails e JOIN persons p ON p.id = e.person_id WHERE p.display_name = ?").get(`Person ${n}`)!.email;
  const now = t.clock.now().getTime();
  const write = (userId: string, proxy: PersonFacts, founder: PersonFacts, key: string, daysAgo: number, meeting = false) =>
    t.deps.db.transaction(() => {
      const w = graphWriter(t.deps, userId);
      w.interaction({ sourceKey: key, kind: meeting ? "meeting" : "email", occurredAt: new Date(now - daysAgo * DAY), participantCount: 3, touches: [], others: [proxy, founder] });
      w.flush();
    });
  for (let k = 0; k < 12; k++) {
    const proxy = { email: proxyOf(k % 4) };
    const founder = { email: `founder${k}@startup${k % 5}.io`, name: `Founder ${k}`, title: k % 3 === 0 ? "Co-founder & CEO" : "Founder" };
    const [a, b] = [team[k % team.length], team[(k * 5 + 1) % team.length]];
    write(a.id, proxy, founder, `msg:shared-${k}-1`, 5 + k);
    write(b.id, proxy, founder, `msg:shared-${k}-1`, 6 + k); // the same thread in a second mailbox
    write(b.id, proxy, founder, `evt:shared-${k}-2`, 30 + k, k % 2 === 0);
    if (k % 4 === 3) write(a.id, proxy, founder, `msg:old-${k}`, WINDOW_DAYS + 20); // outside the window
    write(f.users.carol.id, { email: proxyOf(k % 4) }, founder, `msg:shared-${k}-1`, 5); // another org's mailbox
    write(f.users.carol.id, { email: proxyOf(k % 4) }, founder, `evt:shared-${k}-2`, 6);
  }

  const stats = computeReachCandidates(t.deps, () => BOOK);
  const expected = reference(sqlite, t.clock.now(), BOOK);
  // The firm is large enough to mean something: many candidates, through shared and non-sharing pools.
  expect(expected.length).toBeGreaterThan(50);
  expect(new Set(expected.map((e) => e.user)).size).toBeGreaterThanOrEqual(6);
  expect(expected.some((e) => e.via.length > 1)).toBe(true);
  expect(stats.candidates).toBe(expected.length);

  const names = new Map(sqlite.query<{ id: string; name: string }, []>("SELECT id, name FROM users").all().map((u) => [u.id, u.name]));
  const stored = sqlite
    .query<{ user_id: string; person_id: string; proxy_person_id: string; evidence_user_ids: string; fit_reasons: string; full_name: string }, []>(
      "SELECT user_id, person_id, proxy_person_id, evidence_user_ids, fit_reasons, full_name FROM reach_candidates",
    )
    .all();
  const proxyName = (id: string) => sqlite.query<{ display_name: string | null }, [string]>("SELECT display_name FROM persons WHERE id = ?").get(id)!.display_name!;
  const key = (user: string, person: string) => `${user} ${person}`;
  const byKey = new Map(stored.map((s) => [key(s.user_id, s.person_id), s]));
  expect([...byKey.keys()].sort()).toEqual(expected.map((e) => key(e.user, e.person)).sort());
  for (const e of expected) {
    const s = byKey.get(key(e.user, e.person))!;
    expect({ proxy: s.proxy_person_id, via: [...JSON.parse(s.evidence_user_ids)].sort() }).toEqual({ proxy: e.proxy, via: e.via });
    const whose = [...(e.via.includes(e.user) ? ["your"] : []), ...e.via.filter((id) => id !== e.user).map((id) => names.get(id)!).sort((a, b) => a.localeCompare(b)).map((n) => `${n}'s`)];
    expect(JSON.parse(s.fit_reasons)[4]).toBe(contactReason(proxyName(e.proxy), s.full_name, { shared: e.shared, meetings: e.meetings, lastShared: e.last, via: whose }));
  }
});
