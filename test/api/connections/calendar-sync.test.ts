// Connected calendars against a real Radicale (CalDAV, started by the test helper on loopback) and
// a loopback server publishing an iCalendar subscription: connecting probes first; a sync records
// each past meeting (each past occurrence of a series, declined and cancelled ones left out) by
// the importers' rules, reads only what changed (sync-collection, or ETags when the server offers
// no sync) plus what has become due (a series' next instance, a meeting that was still ahead),
// keeps counts exact when the token expires, and counts a meeting seen by a file import once.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { connectionsService } from "../../../src/modules/connections/connections.service.ts";
import { connectionsSync } from "../../../src/modules/connections/connections.sync.ts";
import { importCalendar } from "../../../src/modules/network/import/network.import.ts";
import { orgsService } from "../../../src/modules/identity/orgs.service.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { TestClock } from "../../helpers/clock.ts";
import { calendar, filesDir, relationshipsOf, snapshot, writeTo, type Ev } from "../../helpers/import-files.ts";
import { hasRadicale, startRadicale, type Radicale } from "../../helpers/mail-servers.ts";

const NOW = "2026-11-22T12:00:00.000Z";
const USERS = ["amy", "ben", "cat", "don", "eve", "fay", "gus"].map((n) => ({ login: n, password: `pw-${n}-calendar-1` }));
let radicale: Radicale | null = null;
let t: TestApp;
let free = 0;

beforeAll(async () => {
  radicale = await startRadicale({ users: USERS });
});
afterAll(async () => {
  await radicale?.close();
});
afterEach(() => {
  t?.close();
});

/** An app whose org's CalDAV server is the test Radicale, a member, and their own calendar on it. */
async function setup(opts: { caldav?: string | null; env?: Record<string, string> } = {}) {
  t = createTestApp({ clock: new TestClock(NOW), env: opts.env });
  const orgs = orgsService(t.deps);
  const org = orgs.createOrg("Acme Ventures");
  const account = USERS[free++];
  const email = `${account.login}@acme.vc`;
  const user = orgs.createUser({ orgId: org.id, email, name: account.login });
  const service = connectionsService(t.deps);
  service.setMailServer(org.id, { imap: "127.0.0.1:1", security: "plain", caldav: opts.caldav === undefined ? `${radicale!.url}/` : opts.caldav });
  const cal = await radicale!.makeCalendar(account, "work");
  return { user, email, account, cal, service, sync: connectionsSync(t.deps), put: (name: string, ...events: Ev[]) => radicale!.put(account, cal, name, calendar(...events)) };
}

const meeting = (uid: string, start: string, me: string, others: string[], extra: string[] = []): Ev => ({
  uid,
  start,
  lines: [`ORGANIZER:mailto:${me}`, ...others.map((o) => `ATTENDEE;PARTSTAT=ACCEPTED:mailto:${o}`), "SUMMARY:Meeting", ...extra],
});

describe.skipIf(!hasRadicale() && process.env.CI !== "1")("connected calendars (Radicale)", () => {
  test("connecting probes the collection: a wrong password, a URL that is no calendar (naming the ones under it) store nothing", async () => {
    const { user, account, cal, service } = await setup();
    await expect(service.connectCalendar(user.id, { caldav: cal, login: account.login, password: "wrong" })).rejects.toThrow(/refused the login and password \(HTTP 401\)/);
    await expect(service.connectCalendar(user.id, { caldav: `${radicale!.url}/${account.login}/`, login: account.login, password: account.password })).rejects.toThrow(
      new RegExp(`is not a calendar collection; calendars under it: ${cal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
    );
    await expect(service.connectCalendar(user.id, { caldav: `${radicale!.url}/${account.login}/nope/`, login: account.login, password: account.password })).rejects.toThrow(/does not exist \(HTTP 404\)/);
    expect(service.list(user.id)).toEqual([]);
    const { connection_id } = await service.connectCalendar(user.id, { caldav: cal, login: account.login, password: account.password });
    // Shown by login and collection (one login may have several calendars); the password nowhere.
    expect(service.list(user.id)).toMatchObject([{ connection_id, kind: "calendar", source: "caldav", account: `${account.login} (${new URL(cal).host}/${account.login}/work/)`, status: "never_synced" }]);
    expect(JSON.stringify(service.list(user.id))).not.toContain(account.password);
  }, 30_000);

  test("past meetings and each past occurrence of a series count; declined, cancelled and future ones do not, until they have happened", async () => {
    const { user, email, account, cal, service, sync, put } = await setup();
    await put("single", meeting("single@t", "20261110T100000Z", email, ["jane@target.com"]));
    await put("ahead", meeting("ahead@t", "20261125T100000Z", email, ["omar@fund.vc"]));
    // Weekly on Mondays from Nov 2: Nov 2, 9, 16 have happened by Nov 22; Nov 23 is next. Nov 9 was cancelled.
    await put("weekly", meeting("weekly@t", "20261102T090000Z", email, ["kim@portco.io"], ["RRULE:FREQ=WEEKLY;COUNT=10"]), {
      uid: "weekly@t",
      start: "20261109T090000Z",
      lines: ["RECURRENCE-ID:20261109T090000Z", `ORGANIZER:mailto:${email}`, "ATTENDEE:mailto:kim@portco.io", "STATUS:CANCELLED"],
    });
    await put("declined", { uid: "declined@t", start: "20261112T100000Z", lines: ["ORGANIZER:mailto:vc@other.vc", `ATTENDEE;PARTSTAT=DECLINED:mailto:${email}`] });
    const { connection_id } = await service.connectCalendar(user.id, { caldav: cal, login: account.login, password: account.password });

    const first = (await sync.syncUser(user.id)).connections[0];
    expect(first).toMatchObject({ connection_id, status: "ok", messages_new: 0, meetings_new: 3 });
    let rels = relationshipsOf(t.deps, user.id);
    expect(rels.get("jane@target.com")).toMatchObject({ meetings: 1 });
    expect(rels.get("kim@portco.io")).toMatchObject({ meetings: 2 });
    expect(rels.has("omar@fund.vc") || rels.has("vc@other.vc")).toBe(false);
    expect(service.list(user.id)[0]).toMatchObject({ status: "ok", items_synced: 3 });

    // Nothing changed, nothing due: nothing read.
    expect((await sync.syncUser(user.id)).connections[0]).toMatchObject({ meetings_new: 0, duplicates: 0, skipped: 0 });

    // A week on: the series' Nov 23 instance and the Nov 25 meeting have happened; both are read again and counted.
    t.clock.set("2026-11-26T12:00:00Z");
    expect((await sync.syncUser(user.id)).connections[0]).toMatchObject({ meetings_new: 2 });
    rels = relationshipsOf(t.deps, user.id);
    expect(rels.get("kim@portco.io")).toMatchObject({ meetings: 3 });
    expect(rels.get("omar@fund.vc")).toMatchObject({ meetings: 1 });
    expect(service.list(user.id)[0].items_synced).toBe(5);
    expect((await sync.syncUser(user.id)).connections[0]).toMatchObject({ meetings_new: 0, duplicates: 0 });

    // A changed event (a new guest) is read again; a deleted one is forgotten (what it counted stays).
    await put("single", meeting("single@t", "20261110T100000Z", email, ["jane@target.com", "raj@target.com"], ["SEQUENCE:1"]));
    await radicale!.remove(account, `${cal}ahead.ics`);
    expect((await sync.syncUser(user.id)).connections[0]).toMatchObject({ meetings_new: 0, duplicates: 1 });
    expect(t.deps.db.$client.query("SELECT href FROM connection_items ORDER BY href").all()).toEqual(
      ["declined", "single", "weekly"].map((n) => ({ href: `/${account.login}/work/${n}.ics` })),
    );
    expect(relationshipsOf(t.deps, user.id).get("omar@fund.vc")).toMatchObject({ meetings: 1 });
  }, 30_000);

  test("a meeting imported from a file and synced counts once; an expired sync-token reads everything again without counting twice", async () => {
    const { user, email, account, cal, service, sync, put } = await setup();
    const events = [meeting("shared@t", "20261110T100000Z", email, ["jane@target.com"]), meeting("series@t", "20261103T150000Z", email, ["kim@portco.io"], ["RRULE:FREQ=WEEKLY;COUNT=4"])];
    importCalendar(t.deps, { userId: user.id, path: writeTo(filesDir(), "export.ics", calendar(...events)) });
    const imported = snapshot(t.deps);
    await put("shared", events[0]);
    await put("series", events[1]);
    await service.connectCalendar(user.id, { caldav: cal, login: account.login, password: account.password });
    expect((await sync.syncUser(user.id)).connections[0]).toMatchObject({ status: "ok", meetings_new: 0, duplicates: 4 });
    expect(snapshot(t.deps)).toEqual(imported);

    t.deps.db.$client.query("UPDATE connections SET cursor = 'http://radicale.org/ns/sync/0000000000000000000000000000000000000000000000000000000000000000'").run();
    await put("late", meeting("late@t", "20261120T100000Z", email, ["lee@later.io"]));
    expect((await sync.syncUser(user.id)).connections[0]).toMatchObject({ status: "ok", meetings_new: 1 });
    expect(relationshipsOf(t.deps, user.id).get("kim@portco.io")).toMatchObject({ meetings: 3 });
  }, 30_000);

  test("a server without sync-collection is synced by ETags", async () => {
    // A loopback front for Radicale that does not offer sync-collection.
    const front = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(req) {
        const url = new URL(req.url);
        const sent = req.method === "GET" ? undefined : await req.text();
        if (req.method === "REPORT" && sent?.includes("sync-collection")) return new Response("no", { status: 501 });
        const upstream = await fetch(`${radicale!.url}${url.pathname}${url.search}`, { method: req.method, headers: req.headers, body: sent });
        const body = (await upstream.text()).replace(/<supported-report><report><sync-collection \/><\/report><\/supported-report>/g, "");
        const headers = new Headers(upstream.headers);
        for (const h of ["content-encoding", "content-length"]) headers.delete(h);
        return new Response(body, { status: upstream.status, headers });
      },
    });
    try {
      const frontUrl = `http://127.0.0.1:${front.port}`;
      const { user, email, account, cal, service, sync, put } = await setup({ caldav: `${frontUrl}/` });
      const viaFront = cal.replace(radicale!.url, frontUrl);
      await put("one", meeting("one@t", "20261110T100000Z", email, ["jane@target.com"]));
      await service.connectCalendar(user.id, { caldav: viaFront, login: account.login, password: account.password });
      expect((await sync.syncUser(user.id)).connections[0]).toMatchObject({ status: "ok", meetings_new: 1 });
      expect(t.deps.db.$client.query("SELECT cursor FROM connections").get()).toEqual({ cursor: null });
      expect((await sync.syncUser(user.id)).connections[0]).toMatchObject({ meetings_new: 0, duplicates: 0 });
      await put("two", meeting("two@t", "20261111T100000Z", email, ["omar@fund.vc"]));
      await radicale!.remove(account, `${cal}one.ics`);
      expect((await sync.syncUser(user.id)).connections[0]).toMatchObject({ meetings_new: 1, duplicates: 0 });
      expect(t.deps.db.$client.query("SELECT href FROM connection_items").all()).toEqual([{ href: `/${account.login}/work/two.ics` }]);
    } finally {
      front.stop(true);
    }
  }, 30_000);
});

describe("iCalendar subscription URLs", () => {
  test("fetched through safe-fetch: a private address only on the org's own server; unchanged calendars cost a 304; the URL is never shown", async () => {
    // The member the subscription belongs to is the subscriber (set below).
    let me = "";
    let body = () => calendar(meeting("sub-1@t", "20261110T100000Z", me, ["jane@target.com"]));
    let etag = '"v1"';
    const hits: string[] = [];
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch(req) {
        const url = new URL(req.url);
        hits.push(`${url.pathname} ${req.headers.get("if-none-match") ?? "-"}`);
        if (url.pathname !== "/private/s3cr3t-token/basic.ics") return new Response("not here", { status: 404 });
        if (req.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers: { etag } });
        return new Response(body(), { headers: { "content-type": "text/calendar", etag } });
      },
    });
    try {
      const origin = `http://127.0.0.1:${server.port}`;
      const secretUrl = `${origin}/private/s3cr3t-token/basic.ics`;
      // Not the org's server, and private networks not allowed: refused before any request.
      const { user, service } = await setup({ caldav: "https://dav.acme.example/" });
      await expect(service.connectCalendar(user.id, { icsUrl: secretUrl })).rejects.toThrow(/The URL must use https \(only the organization's own CalDAV server, set by an administrator, may be on a private address\)/);
      await expect(service.connectCalendar(user.id, { icsUrl: secretUrl.replace("http://", "https://") })).rejects.toThrow(/127\.0\.0\.1 is not a public address/);
      expect(hits).toEqual([]);
      t.close();

      const s = await setup({ caldav: `${origin}/` });
      me = s.email;
      await expect(s.service.connectCalendar(s.user.id, { icsUrl: `${origin}/gone.ics` })).rejects.toThrow(/no longer exists \(HTTP 404\)/);
      const { connection_id } = await s.service.connectCalendar(s.user.id, { icsUrl: secretUrl });
      const listed = s.service.list(s.user.id);
      expect(listed).toMatchObject([{ connection_id, kind: "calendar", source: "ics", account: `${origin} (subscription)` }]);
      expect(JSON.stringify(listed)).not.toContain("s3cr3t");
      expect((await s.sync.syncUser(s.user.id)).connections[0]).toMatchObject({ status: "ok", meetings_new: 1 });
      hits.length = 0;
      expect((await s.sync.syncUser(s.user.id)).connections[0]).toMatchObject({ status: "ok", meetings_new: 0, duplicates: 0 });
      expect(hits).toEqual(['/private/s3cr3t-token/basic.ics "v1"']);
      body = () => calendar(meeting("sub-1@t", "20261110T100000Z", me, ["jane@target.com"]), meeting("sub-2@t", "20261112T100000Z", me, ["omar@fund.vc"]));
      etag = '"v2"';
      expect((await s.sync.syncUser(s.user.id)).connections[0]).toMatchObject({ status: "ok", meetings_new: 1, duplicates: 1 });
    } finally {
      server.stop(true);
    }
  }, 30_000);

  test("an event that cannot be read is skipped and logged with its reason; the others are recorded", async () => {
    let me = "";
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () => new Response(calendar(meeting("good@t", "20261110T100000Z", me, ["jane@target.com"]), { uid: "bad@t", start: "20260230T100000Z", lines: [`ORGANIZER:mailto:${me}`] })),
    });
    try {
      const logged: string[] = [];
      const origin = `http://127.0.0.1:${server.port}`;
      const s = await setup({ caldav: `${origin}/` });
      me = s.email;
      t.deps.log = { info: () => {}, error: () => {}, warn: (m, f) => logged.push(JSON.stringify({ m, ...f })) };
      await s.service.connectCalendar(s.user.id, { icsUrl: `${origin}/cal.ics` });
      expect((await s.sync.syncUser(s.user.id)).connections[0]).toMatchObject({ status: "ok", meetings_new: 1, skipped: 1 });
      expect(logged).toEqual([expect.stringMatching(/calendar events that could not be read.*"count":1.*February 2026 has no day 30/)]);
    } finally {
      server.stop(true);
    }
  }, 30_000);
});
