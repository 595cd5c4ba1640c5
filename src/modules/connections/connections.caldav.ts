// A CalDAV calendar collection, read with tsdav over policed fetches (connections.http.ts): the
// probe (is it a calendar, do the login and password work, does the server offer
// sync-collection), what changed since the last sync (RFC 6578 sync-collection where offered, a
// sync-token kept between syncs; else every resource's ETag compared with the ones kept), and
// the objects themselves (calendar-multiget, a batch at a time). tsdav builds the requests; the
// replies' XML is read in the calendar child when large, the multiget replies always (davCall,
// calendarMultigetReplies).
import type { DAVResponse } from "tsdav";
import { CalendarReadError, readDav, type DavReply } from "../network/import/calendar-read.ts";
import { ConnectionFailure } from "./connections.failures.ts";
import { statusFailure } from "./connections.http.ts";

/** `bearer`: an OAuth 2.0 access token (Google's CalDAV) sent instead of the login and password. */
export type CaldavTarget = { url: string; login: string; password: string; bearer?: string; fetch: typeof fetch };

export type CaldavProbe = { syncCollection: boolean; displayName: string | null };

export type CaldavChanges = {
  /** Resources new or changed since the last sync, with their ETags. */
  changed: { href: string; etag: string | null }[];
  /** Resources gone since the last sync. */
  removed: string[];
  /** The sync-token to keep once every change is recorded (null: the server offers none). */
  token: string | null;
  /** Every resource was listed (first sync, an expired token, or the ETag comparison). */
  full: boolean;
};

const tsdav = () => import("tsdav");

/**
 * A tsdav request whose reply is captured as the server sent it (tsdav is handed an empty one),
 * then read: in the calendar child when it is large (calendar-read.ts), so a hostile server's
 * megabytes of XML never hold the event loop.
 */
/** A fetch for tsdav that keeps the server's reply as sent and hands tsdav an empty one (it reads nothing of it). */
function capturing(t: CaldavTarget): { capture: typeof fetch; reply: () => DavReply | null } {
  let reply: DavReply | null = null;
  const capture = (async (url: string | URL | Request, init?: RequestInit) => {
    const r = await t.fetch(url, init);
    reply = { status: r.status, contentType: r.headers.get("content-type"), body: await r.text() };
    return new Response(null, { status: 204 });
  }) as typeof fetch;
  return { capture, reply: () => reply };
}

async function davCall(t: CaldavTarget, send: (capture: typeof fetch) => Promise<unknown>): Promise<DAVResponse[]> {
  const captured = capturing(t);
  await send(captured.capture);
  const reply = captured.reply();
  if (!reply) throw new ConnectionFailure("protocol", `the calendar ${t.url} sent no reply`);
  try {
    return (await readDav(t.url, reply)) as DAVResponse[];
  } catch (error) {
    if (error instanceof CalendarReadError) throw new ConnectionFailure("protocol", `the calendar ${t.url}: ${error.message}`);
    throw error;
  }
}

const auth = (t: CaldavTarget) => ({ authorization: t.bearer ? `Bearer ${t.bearer}` : `Basic ${Buffer.from(`${t.login}:${t.password}`, "utf8").toString("base64")}` });

/** A text property as tsdav hands it (a number when it looks like one, an object for CDATA). */
function text(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "object") {
    const v = value as { _cdata?: unknown; _text?: unknown };
    return v._cdata !== undefined ? String(v._cdata) : v._text !== undefined ? String(v._text) : null;
  }
  return String(value);
}

/** A resource href as a path (servers answer paths; some answer absolute URLs). */
function hrefPath(href: string, base: string): string {
  return new URL(href, base).pathname;
}

function failIfNotOk(responses: DAVResponse[], what: string): void {
  const first = responses[0];
  if (responses.length === 1 && first && !first.ok && first.status !== 207) throw statusFailure(first.status, what);
}

/** Asks the collection what it is. A URL that is no calendar names the calendars under it, when it has some. */
export async function probeCalendar(t: CaldavTarget): Promise<CaldavProbe> {
  const { propfind } = await tsdav();
  const what = `the calendar ${t.url}`;
  const responses = await davCall(t, (fetch) =>
    propfind({ url: t.url, props: { "d:resourcetype": {}, "d:supported-report-set": {}, "d:displayname": {}, "d:sync-token": {} }, depth: "0", headers: auth(t), fetch }),
  );
  failIfNotOk(responses, what);
  const props = responses[0]?.props ?? {};
  const types = Object.keys((props.resourcetype as object | undefined) ?? {});
  if (!types.includes("calendar")) {
    const inside = await calendarsUnder(t);
    const hint = inside.length ? `; calendars under it: ${inside.slice(0, 10).join(", ")}` : "";
    throw new ConnectionFailure("protocol", `${t.url} is not a calendar collection${hint}`);
  }
  const reports = JSON.stringify(props.supportedReportSet ?? {});
  return { syncCollection: /syncCollection/.test(reports), displayName: text(props.displayname) };
}

async function calendarsUnder(t: CaldavTarget): Promise<string[]> {
  const { propfind } = await tsdav();
  try {
    const responses = await davCall(t, (fetch) => propfind({ url: t.url, props: { "d:resourcetype": {} }, depth: "1", headers: auth(t), fetch }));
    return responses.filter((r) => r.href && Object.keys((r.props?.resourcetype as object | undefined) ?? {}).includes("calendar")).map((r) => new URL(r.href!, t.url).href);
  } catch {
    return [];
  }
}

/** True when a sync-collection answer says the token is no longer valid (RFC 6578 3.2). */
const invalidToken = (r: DAVResponse) => (r.status === 403 || r.status === 409 || r.status === 410) && /valid-sync-token/i.test(String(r.raw ?? ""));

/** What changed since `token` (sync-collection), or since the ETags kept (`known`) when the server offers no sync. */
export async function calendarChanges(t: CaldavTarget, probe: CaldavProbe, token: string | null, known: Map<string, string | null>): Promise<CaldavChanges> {
  const { syncCollection, propfind } = await tsdav();
  const what = `the calendar ${t.url}`;
  const collection = hrefPath(t.url, t.url);
  if (probe.syncCollection) {
    let full = !token;
    const sync = (from: string) => davCall(t, (fetch) => syncCollection({ url: t.url, props: { "d:getetag": {} }, syncLevel: 1, syncToken: from, headers: auth(t), fetch }));
    let responses = await sync(token ?? "");
    if (token && responses.length === 1 && invalidToken(responses[0])) {
      full = true;
      responses = await sync("");
    }
    failIfNotOk(responses, what);
    const raw = responses[0]?.raw as { multistatus?: { syncToken?: unknown } } | undefined;
    const changed: CaldavChanges["changed"] = [];
    const removed: string[] = [];
    for (const r of responses) {
      if (!r.href) continue;
      const href = hrefPath(r.href, t.url);
      if (href === collection) continue;
      if (r.status === 404 || r.status === 410) removed.push(href);
      else changed.push({ href, etag: text(r.props?.getetag) });
    }
    if (full) for (const href of known.keys()) if (!changed.some((c) => c.href === href)) removed.push(href);
    return { changed, removed, token: text(raw?.multistatus?.syncToken), full };
  }
  const responses = await davCall(t, (fetch) => propfind({ url: t.url, props: { "d:getetag": {}, "d:resourcetype": {} }, depth: "1", headers: auth(t), fetch }));
  failIfNotOk(responses, what);
  const listed = new Map<string, string | null>();
  for (const r of responses) {
    if (!r.href || !r.ok) continue;
    const href = hrefPath(r.href, t.url);
    if (href === collection || Object.keys((r.props?.resourcetype as object | undefined) ?? {}).includes("collection")) continue;
    listed.set(href, text(r.props?.getetag));
  }
  const changed = [...listed].filter(([href, etag]) => etag === null || known.get(href) !== etag).map(([href, etag]) => ({ href, etag }));
  const removed = [...known.keys()].filter((href) => !listed.has(href));
  return { changed, removed, token: null, full: true };
}

const MULTIGET_BATCH = 50;


/**
 * The calendar-multiget replies for these hrefs, unread (tsdav builds each request; the reply's
 * XML and the calendars in it are read by the calendar child, calendar-read.ts).
 */
export async function calendarMultigetReplies(t: CaldavTarget, hrefs: string[]): Promise<DavReply[]> {
  const { calendarMultiGet } = await tsdav();
  const out: DavReply[] = [];
  for (let i = 0; i < hrefs.length; i += MULTIGET_BATCH) {
    // The child reads the real reply (its XML and the calendars in it).
    const { capture, reply } = capturing(t);
    await calendarMultiGet({ url: t.url, props: { "d:getetag": {}, "c:calendar-data": {} }, objectUrls: hrefs.slice(i, i + MULTIGET_BATCH), depth: "1", headers: auth(t), fetch: capture });
    const got = reply();
    if (got) out.push(got);
  }
  return out;
}
