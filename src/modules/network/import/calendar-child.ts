// The calendar child: a separate process of the same program (`dealgraph __read-calendar`, started
// by calendar-read.ts through src/lib/child-job.ts with its time and memory limits) that reads
// untrusted calendars and exits: a subscription's body, the XML of a CalDAV calendar-multiget
// reply and the calendars in it, or an imported .ics file. Parsing a calendar and expanding its
// series "up to now" is the costly part (a kilobyte of old daily series is 100,000 occurrences):
// it happens here, never on the server's event loop, and what comes back is capped:
//   - per series (one UID): its latest `perSeries` past occurrences count, the earlier ones are refused;
//   - per calendar object (a subscription's file, one CalDAV resource, an imported file): its
//     latest `perObject` past occurrences count, the earlier ones are refused;
// each refusal with its reason (the series, how many, the cap), which the caller records and shows.
// What comes back is compact: each event's details once, occurrences pointing at them.
import { ChildRefusal, serveChildJob } from "../../../lib/child-job.ts";
import type { CalendarItemError, CalendarPerson, TimeReading } from "../../../lib/icalendar.ts";
import type { Expansion, Occurrence } from "../../../lib/icalendar-recurrence.ts";

/** The hidden command the child is started with (src/cli/index.ts dispatches it). */
export const READ_CALENDAR_COMMAND = "__read-calendar";

export type CalendarCaps = { perSeries: number; perObject: number };

export type CalendarSource =
  /** Calendars as text (a subscription's body). */
  | { kind: "texts"; objects: { where: string; text: string }[] }
  /** An .ics file (an import), refused past `maxBytes`. */
  | { kind: "file"; path: string; maxBytes: number }
  /** A CalDAV calendar-multiget reply as the server sent it (the XML is read here, not in the server). */
  | { kind: "multiget"; url: string; response: DavReply }
  /** Another WebDAV reply (PROPFIND, sync-collection): its XML read into responses, nothing more. */
  | { kind: "dav"; url: string; response: DavReply };

/** A WebDAV reply as the server sent it. */
export type DavReply = { status: number; contentType: string | null; body: string };

/** A WebDAV response as tsdav reads it, without the parsed tree (`raw`: only the sync-token, or the start of a text body). */
export type DavResponseRead = {
  href?: string;
  status?: number;
  statusText?: string;
  ok: boolean;
  props?: Record<string, unknown>;
  raw?: unknown;
};

export type CalendarReadRequest = { source: CalendarSource; timeZone: string | null; now: number; caps: CalendarCaps };

export type Details = Pick<Occurrence, "line" | "status" | "method" | "organizer" | "attendees">;

/** An occurrence: its series (index into `uids`), RECURRENCE-ID, series start, start, details (index into `details`). */
export type CompactOccurrence = { u: number; r: number | null; s: number | null; t: number; d: number };

export type CompactExpansion = {
  uids: string[];
  details: Details[];
  occurrences: CompactOccurrence[];
  /** Lines of the events superseded by a later version, and of the series entirely ahead. */
  superseded: number[];
  futureSeries: number[];
  nextStart: number | null;
};

export type CalendarObjectRead = {
  /** Where it came from, as named in reports (a path, an origin, a CalDAV href). */
  where: string;
  /** CalDAV: the resource's href (a path) and ETag. */
  href?: string;
  etag?: string | null;
  expansion: CompactExpansion | null;
  errors: CalendarItemError[];
  /** Events read, and events that could not be. */
  events: number;
  times?: TimeReading;
  floatingZone?: string;
  /** Past occurrences refused by the caps, and why (a line per capped series, and for the object). */
  refused: number;
  refusals: string[];
};

/** A multiget the server answered with an error status (the caller turns it into its failure); a WebDAV reply's responses. */
export type CalendarReadResult = { objects: CalendarObjectRead[]; status?: number; dav?: DavResponseRead[] };

const n = (x: number) => x.toLocaleString("en-US");

/** The refusal lines kept per object (each capped series has one; past this, a count). */
const MAX_REFUSAL_LINES = 5;

/** Caps the past occurrences (the latest kept: each later sync moves the window as new ones pass). */
export function capOccurrences(occurrences: Occurrence[], now: number, caps: CalendarCaps, where: string): { kept: Occurrence[]; refused: number; refusals: string[] } {
  const refusedSet = new Set<Occurrence>();
  const refusals: string[] = [];
  let cappedSeries = 0;
  const bySeries = new Map<string, Occurrence[]>();
  for (const o of occurrences) {
    if (o.start > now) continue;
    const list = bySeries.get(o.uid);
    if (list) list.push(o);
    else bySeries.set(o.uid, [o]);
  }
  for (const [uid, past] of bySeries) {
    if (past.length <= caps.perSeries) continue;
    past.sort((a, b) => b.start - a.start);
    for (const o of past.slice(caps.perSeries)) refusedSet.add(o);
    if (++cappedSeries <= MAX_REFUSAL_LINES) {
      refusals.push(
        `${where}: series ${uid} (line ${past[0].line}) has ${n(past.length)} past occurrences; the latest ${n(caps.perSeries)} counted, ${n(past.length - caps.perSeries)} earlier ones refused (at most ${n(caps.perSeries)} per series)`,
      );
    }
  }
  if (cappedSeries > MAX_REFUSAL_LINES) refusals.push(`${where}: ${n(cappedSeries - MAX_REFUSAL_LINES)} more series capped the same way`);
  const past = occurrences.filter((o) => o.start <= now && !refusedSet.has(o));
  if (past.length > caps.perObject) {
    past.sort((a, b) => b.start - a.start);
    for (const o of past.slice(caps.perObject)) refusedSet.add(o);
    refusals.push(
      `${where}: ${n(past.length)} past occurrences${cappedSeries ? " after the series caps" : ""}; the latest ${n(caps.perObject)} counted, ${n(past.length - caps.perObject)} earlier ones refused (at most ${n(caps.perObject)} per calendar or calendar object)`,
    );
  }
  return { kept: refusedSet.size ? occurrences.filter((o) => !refusedSet.has(o)) : occurrences, refused: refusedSet.size, refusals };
}

/** The expansion as sent to the parent: each event's details once. */
function compact(expansion: Expansion, kept: Occurrence[]): CompactExpansion {
  const uids: string[] = [];
  const uidIndex = new Map<string, number>();
  const details: Details[] = [];
  // The details of an occurrence are the master's or an exception's: the same attendee list object.
  const detailIndex = new Map<CalendarPerson[], { d: Details; i: number }[]>();
  const occurrences = kept.map((o): CompactOccurrence => {
    let u = uidIndex.get(o.uid);
    if (u === undefined) uidIndex.set(o.uid, (u = uids.push(o.uid) - 1));
    const same = detailIndex.get(o.attendees) ?? [];
    let found = same.find(({ d }) => d.line === o.line && d.status === o.status && d.method === o.method && d.organizer === o.organizer);
    if (!found) {
      found = { d: { line: o.line, status: o.status, method: o.method, organizer: o.organizer, attendees: o.attendees }, i: details.length };
      details.push(found.d);
      same.push(found);
      detailIndex.set(o.attendees, same);
    }
    return { u, r: o.recurrenceId, s: o.seriesStart, t: o.start, d: found.i };
  });
  return { uids, details, occurrences, superseded: expansion.superseded.map((e) => e.line), futureSeries: expansion.futureSeries.map((e) => e.line), nextStart: expansion.nextStart };
}

async function readOne(text: string, where: string, request: CalendarReadRequest): Promise<CalendarObjectRead> {
  const [{ CalendarFileError, parseCalendar }, { expandOccurrences }] = await Promise.all([import("../../../lib/icalendar.ts"), import("../../../lib/icalendar-recurrence.ts")]);
  try {
    const parsed = parseCalendar(text, { timeZone: request.timeZone });
    const expansion = expandOccurrences(parsed.events, request.now);
    const capped = capOccurrences(expansion.occurrences, request.now, request.caps, where);
    return {
      where,
      expansion: compact(expansion, capped.kept),
      errors: [...parsed.errors, ...expansion.errors].sort((a, b) => a.line - b.line),
      events: parsed.events.length + parsed.errors.length,
      times: parsed.times,
      floatingZone: parsed.floatingZone,
      refused: capped.refused,
      refusals: capped.refusals,
    };
  } catch (error) {
    if (!(error instanceof CalendarFileError)) throw error;
    return { where, expansion: null, errors: [{ line: error.line ?? 1, reason: error.reason }], events: 0, refused: 0, refusals: [] };
  }
}

/** A text property as tsdav hands it (a number when it looks like one, an object for CDATA). */
function propText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "object") {
    const v = value as { _cdata?: unknown; _text?: unknown };
    return v._cdata !== undefined ? String(v._cdata) : v._text !== undefined ? String(v._text) : null;
  }
  return String(value);
}

/** The calendars of a calendar-multiget reply, read by tsdav's own parser (fed the reply the parent received). */
async function multiget(source: Extract<CalendarSource, { kind: "multiget" }>, request: CalendarReadRequest): Promise<CalendarReadResult> {
  const { davRequest } = await import("tsdav");
  const { response } = source;
  const replay = (async () => new Response(response.body, { status: response.status, headers: response.contentType ? { "content-type": response.contentType } : {} })) as unknown as typeof fetch;
  // davRequest, not calendarMultiGet: the latter throws on a reply naming one href the server no longer has.
  const responses = await davRequest({ url: source.url, init: { method: "REPORT", namespace: "c", body: { "calendar-multiget": {} } }, fetch: replay });
  const first = responses[0];
  if (responses.length === 1 && first && !first.ok && first.status !== 207) return { objects: [], status: first.status };
  const objects: CalendarObjectRead[] = [];
  for (const r of responses) {
    const data = propText(r.props?.calendarData);
    if (!r.href || !r.ok || data === null) continue;
    const href = new URL(r.href, source.url).pathname;
    objects.push({ ...(await readOne(data, href, request)), href, etag: propText(r.props?.getetag) });
  }
  return { objects };
}

/** A WebDAV reply read by tsdav's own parser (in the child, or in the server for a small one). */
export async function readDavReply(url: string, response: DavReply): Promise<DavResponseRead[]> {
  const { davRequest } = await import("tsdav");
  const replay = (async () => new Response(response.body, { status: response.status, headers: response.contentType ? { "content-type": response.contentType } : {} })) as unknown as typeof fetch;
  const responses = await davRequest({ url, init: { method: "PROPFIND", namespace: "d", body: { propfind: {} } }, fetch: replay });
  return responses.map((r) => {
    const raw = r.raw as unknown;
    const multistatus = raw && typeof raw === "object" ? (raw as { multistatus?: { syncToken?: unknown } }).multistatus : undefined;
    return {
      href: r.href,
      status: r.status,
      statusText: r.statusText,
      ok: r.ok,
      props: r.props,
      raw: typeof raw === "string" ? raw.slice(0, 4096) : multistatus ? { multistatus: { syncToken: multistatus.syncToken } } : {},
    };
  });
}

async function run(request: CalendarReadRequest): Promise<CalendarReadResult> {
  const { source } = request;
  switch (source.kind) {
    case "texts":
      return { objects: await Promise.all(source.objects.map((o) => readOne(o.text, o.where, request))) };
    case "file": {
      const file = Bun.file(source.path);
      if (file.size > source.maxBytes) {
        throw new ChildRefusal(`${source.path}: the file is ${n(Math.ceil(file.size / 1024 / 1024))} MB; at most ${n(Math.floor(source.maxBytes / 1024 / 1024))} MB of calendar is read from one file, so it was refused`);
      }
      return { objects: [await readOne(await file.text(), source.path, request)] };
    }
    case "multiget":
      return multiget(source, request);
    case "dav":
      return { objects: [], dav: await readDavReply(source.url, source.response) };
  }
}

/** The child's whole life: one request, its calendars or its refusal. Returns the exit code. */
export function readCalendarChild(): Promise<number> {
  return serveChildJob((input) => run(input as CalendarReadRequest), "The calendar could not be read");
}
