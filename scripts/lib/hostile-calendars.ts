// Hostile calendars (issue 27, finding 1), for the tests and scripts/bench/hostile-uploads.ts: a
// file of about a kilobyte whose few daily series reach back decades, so that expanding it "up to
// now" yields about 100,000 meetings (each series stays under the 20,000 past occurrences after
// which the reader refuses a series outright, which is why there are several).
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Served } from "./hostile-server.ts";

/** `series` daily series since `since` (YYYYMMDD), each a meeting of `me` with one other person. */
export function calendarBomb(me: string, opts: { series?: number; since?: string } = {}): string {
  const series = opts.series ?? 5;
  const since = opts.since ?? "19730101";
  const events = Array.from({ length: series }, (_, i) => [
    "BEGIN:VEVENT",
    `UID:bomb-${i}@hostile.example`,
    `DTSTART:${since}T${String(8 + i).padStart(2, "0")}0000Z`,
    "RRULE:FREQ=DAILY",
    `ORGANIZER:mailto:${me}`,
    `ATTENDEE;PARTSTAT=ACCEPTED:mailto:guest${i}@hostile.example`,
    "SUMMARY:Daily",
    "END:VEVENT",
  ]);
  return ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//hostile//EN", ...events.flat(), "END:VCALENDAR", ""].join("\r\n");
}

/** A well-formed calendar of one meeting padded past `megabytes` with a long description. */
export function calendarOfSize(me: string, megabytes: number): string {
  const line = `DESCRIPTION:${"x".repeat(70)}`;
  const lines = Math.ceil((megabytes * 1024 * 1024) / (line.length + 2));
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//hostile//EN",
    "BEGIN:VEVENT",
    "UID:big@hostile.example",
    "DTSTART:20260101T100000Z",
    `ORGANIZER:mailto:${me}`,
    "ATTENDEE:mailto:guest@hostile.example",
    ...Array.from({ length: lines }, () => `X-PAD:${"x".repeat(70)}`),
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");
}

/**
 * The calendar bomb as a subscription against a real `dealgraph serve` (scripts/bench/hostile-uploads.ts):
 * served from a loopback origin named as the org's CalDAV server (so it may be loopback), connected
 * on the web app's Connections page by the served user (signed in with a one-time link), which
 * starts its first sync in the server; returns when that sync has ended, with its figures and the
 * database's growth.
 */
export async function syncCalendarBomb(s: Served, bytes: Uint8Array): Promise<string> {
  return (await prepareCalendarBomb(s)).send(bytes);
}

/**
 * The same in two steps: `prepare` does the CLI's part (the org's CalDAV server, a sign-in link:
 * other processes writing the database, which the bench keeps out of the measured part), `send`
 * the rest.
 */
export async function prepareCalendarBomb(s: Served): Promise<{ send(bytes: Uint8Array): Promise<string> }> {
  let served: Uint8Array = new Uint8Array();
  const feed = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(served, { headers: { "content-type": "text/calendar", etag: '"bomb"' } }) });
  try {
    const me = (await (await fetch(`${s.url}/api/v1/me`, { headers: { authorization: `Bearer ${s.key.secret}` } })).json()) as { org: { org_id: string } };
    await s.cli("admin", "mail-server", "set", "--org", me.org.org_id, "--imap", "127.0.0.1:1", "--imap-security", "plain", "--caldav", `http://127.0.0.1:${feed.port}/`, "--json");
    const link = new URL((await s.cli<{ url: string }>("admin", "user", "link", "--user", s.userId, "--json")).url);
    return {
      send: (bytes) => {
        served = bytes;
        return connectAndSync(s, feed, link).finally(() => feed.stop(true));
      },
    };
  } catch (error) {
    feed.stop(true);
    throw error;
  }
}

async function connectAndSync(s: Served, feed: ReturnType<typeof Bun.serve>, link: URL): Promise<string> {
  {
    const size = (f: string) => (existsSync(join(s.dataDir, f)) ? statSync(join(s.dataDir, f)).size : 0);
    const dbBytes = () => size("dealgraph.db") + size("dealgraph.db-wal");
    const before = dbBytes();
    const fileBefore = size("dealgraph.db");
    // Signed in with a one-time link (GET shows the button, POST uses it up), as a member would be.
    const cookies = new Map<string, string>();
    const remember = (r: Response) => r.headers.getSetCookie().forEach((c) => cookies.set(c.split("=")[0], c.split(";")[0]));
    const cookie = () => [...cookies.values()].join("; ");
    const web = async (path: string, form?: Record<string, string>) => {
      const r = await fetch(`${s.url}${path}`, {
        method: form ? "POST" : "GET",
        redirect: "manual",
        headers: { cookie: cookie(), ...(form ? { origin: s.url, "content-type": "application/x-www-form-urlencoded" } : {}) },
        body: form ? new URLSearchParams(form).toString() : undefined,
      });
      remember(r);
      return { status: r.status, html: await r.text() };
    };
    const csrf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";
    const shown = await web(`${link.pathname}${link.search}`);
    await web("/app/sign-in/link", { token: link.searchParams.get("token") ?? "", csrf: csrf(shown.html) });
    const page = await web("/app/connections");
    const connected = await web("/app/connections/calendar", { csrf: csrf(page.html), source: "ics", url: `http://127.0.0.1:${feed.port}/private/bomb.ics` });
    if (connected.status !== 303) return `connect answered ${connected.status}`;
    type Listed = { connections: { status: string; last_error: string | null; last_result: { meetings_new: number; refused?: number } | null }[] };
    for (const until = Date.now() + 300_000; Date.now() < until; await Bun.sleep(200)) {
      const listed = (await (await fetch(`${s.url}/api/v1/me/connections`, { headers: { authorization: `Bearer ${s.key.secret}` } })).json()) as Listed;
      const c = listed.connections[0];
      if (!c || c.status === "syncing" || c.status === "never_synced") continue;
      // The WAL's share is its high-water mark: SQLite writes it over from its start, never shorter.
      const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
      const grew = `${mb(dbBytes() - before)} (file +${mb(size("dealgraph.db") - fileBefore)}, WAL ${mb(size("dealgraph.db-wal"))})`;
      if (c.status === "error") return `sync error: ${c.last_error}; database +${grew} MB`;
      return `${c.last_result?.meetings_new.toLocaleString("en-US")} meetings, ${(c.last_result?.refused ?? 0).toLocaleString("en-US")} refused; database +${grew} MB`;
    }
    return "the sync did not end within 5 minutes";
  }
}
