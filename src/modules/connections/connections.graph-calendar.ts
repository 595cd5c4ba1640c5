// A Microsoft 365 calendar, read from Microsoft Graph with the app's token (client credentials):
// `/users/{address}/calendarView/delta` over a window from the backfill's first day to a year
// ahead. Graph expands recurrences itself (each occurrence is an event of its own, with the
// series' `uid` and its `originalStart`), says cancellations (`isCancelled`) and deletions
// (`@removed`), and gives each attendee's response. Pages are followed by @odata.nextLink and the
// last page's @odata.deltaLink is kept: the next sync asks only for what changed.
//
// The rules are the other calendars' (CONTRACT.md): each past occurrence counts as a meeting,
// keyed as file imports key it (UID and RECURRENCE-ID); an attendee who declined is not counted,
// nor the meeting when the user declined it; a cancelled one never counts; a future occurrence
// never counts. A future occurrence is kept (sealed) with the time it happens, and counted by the
// first sync after it (unless it was cancelled or deleted meanwhile). Each page's rows, the kept
// occurrences and the link to go on from are one transaction: a sync killed anywhere resumes from
// the last link kept, and the occurrence keys make a page read twice count nothing twice.
import type { Deps } from "../../deps.ts";
import type { CalendarPerson } from "../../lib/icalendar.ts";
import type { Expansion, Occurrence } from "../../lib/icalendar-recurrence.ts";
import { ianaZone, UTC, wallToInstant, windowsZoneToIana, type Zone } from "../../lib/icalendar-zones.ts";
import type { CalendarItemError } from "../../lib/icalendar.ts";
import type { ImportStats } from "../network/import/network.import.ts";
import { recordSyncedCalendar, type SyncedUser } from "../network/import/synced.ts";
import { ConnectionFailure } from "./connections.failures.ts";
import { graphFailure, graphFetch, graphHeaders } from "./connections.graph.ts";
import { graphBase } from "./connections.providers.ts";
import type { ConnectionRow, SyncResult } from "./connections.service.ts";
import { checkStop, connectionsState, type SyncRun } from "./connections.state.ts";
import type { mailServers } from "./connections.tables.ts";

type MailServer = typeof mailServers.$inferSelect;

/** How far back the window starts on a first sync, how far ahead it reaches, and when it is renewed. */
export const GRAPH_WINDOW = { backYears: 2, aheadDays: 365, renewDaysBefore: 30 };

/** The delta link (or a next link, mid-way) and the window it belongs to. */
type Cursor = { link: string; window_start: string; window_end: string };

type GraphPerson = { emailAddress?: { name?: string | null; address?: string | null } | null };
type GraphAttendee = GraphPerson & { type?: string; status?: { response?: string } | null };
export type GraphEvent = {
  id: string;
  "@removed"?: { reason?: string };
  uid?: string | null;
  iCalUId?: string | null;
  type?: string;
  originalStart?: string | null;
  seriesMasterId?: string | null;
  start?: { dateTime?: string; timeZone?: string } | null;
  isCancelled?: boolean;
  isOrganizer?: boolean;
  changeKey?: string | null;
  responseStatus?: { response?: string } | null;
  organizer?: GraphPerson | null;
  attendees?: GraphAttendee[] | null;
};

const PARTSTAT: Record<string, string> = { accepted: "ACCEPTED", declined: "DECLINED", tentativelyAccepted: "TENTATIVE", notResponded: "NEEDS-ACTION", none: "NEEDS-ACTION", organizer: "ACCEPTED" };

const DAY = 86_400_000;

/** A Graph dateTimeTimeZone as an instant; null when its zone is unknown or the time unreadable. */
export function graphInstant(value: { dateTime?: string; timeZone?: string } | null | undefined): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?$/.exec(value?.dateTime ?? "");
  if (!m) return null;
  const name = value?.timeZone ?? "UTC";
  const zone: Zone | null = /^(utc|etc\/utc|gmt)$/i.test(name) ? UTC : (ianaZone(name) ?? ianaZone(windowsZoneToIana(name) ?? ""));
  if (!zone) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number);
  return wallToInstant({ year, month, day, hour, minute, second }, zone);
}

function person(p: GraphPerson | null | undefined, partstat: string | null, cutype: string | null): CalendarPerson | null {
  const email = p?.emailAddress?.address?.trim().toLowerCase();
  if (!email || !email.includes("@")) return null;
  return { email, name: p?.emailAddress?.name?.trim() || null, partstat, cutype };
}

/** One Graph event (an occurrence, an exception or a single meeting) as the recording rules read an occurrence. */
export function graphOccurrence(ev: GraphEvent, address: string, seriesStart: number | null = null): Occurrence | CalendarItemError {
  const start = graphInstant(ev.start);
  if (start === null) return { line: 0, reason: `event ${ev.id}: its start (${JSON.stringify(ev.start ?? null).slice(0, 100)}) could not be read` };
  const owner = address.toLowerCase();
  const attendees = (ev.attendees ?? [])
    .map((a) => person(a, PARTSTAT[a.status?.response ?? ""] ?? null, a.type === "resource" ? "RESOURCE" : "INDIVIDUAL"))
    .filter((p): p is CalendarPerson => p !== null);
  // The mailbox's own answer is on the event (responseStatus), not always in the attendee list.
  const mine = ev.isOrganizer ? "ACCEPTED" : (PARTSTAT[ev.responseStatus?.response ?? ""] ?? null);
  const self = attendees.find((p) => p.email === owner);
  if (self) self.partstat = mine === "DECLINED" ? "DECLINED" : (self.partstat ?? mine);
  else if (!ev.isOrganizer) attendees.push({ email: owner, name: null, partstat: mine, cutype: "INDIVIDUAL" });
  const organizer = person(ev.organizer, null, null) ?? (ev.isOrganizer ? { email: owner, name: null, partstat: null, cutype: null } : null);
  const instance = (ev.type === "occurrence" || ev.type === "exception") && ev.originalStart ? Date.parse(ev.originalStart) : null;
  return {
    uid: ev.uid || ev.iCalUId || ev.id,
    line: 0,
    recurrenceId: instance !== null && Number.isFinite(instance) ? instance : null,
    // The series' own first start: its first instance is keyed by UID alone, as file imports key it.
    seriesStart: instance !== null ? seriesStart : null,
    start,
    status: ev.isCancelled ? "CANCELLED" : null,
    method: null,
    organizer,
    attendees,
  };
}

const isError = (o: Occurrence | CalendarItemError): o is CalendarItemError => "reason" in o;

function addStats(result: SyncResult, stats: ImportStats) {
  result.meetings_new += stats.imported;
  result.duplicates += stats.duplicates;
  result.skipped += stats.skipped + stats.failed_items;
}

const expansion = (occurrences: Occurrence[]): Expansion => ({ occurrences, errors: [], superseded: [], futureSeries: [], nextStart: null });

export async function syncGraphCalendar(deps: Deps, row: ConnectionRow, run: SyncRun, user: SyncedUser, server: MailServer, address: string): Promise<void> {
  const state = connectionsState(deps);
  const box = deps.secrets.box;
  const context = `calendar:${row.id}`;
  const now = deps.clock.now().getTime();
  const where = `graph:${address}`;

  // Occurrences that have happened since they were kept: counted now, then forgotten.
  const due = state.dueItems(row.id);
  if (due.length) {
    const occurrences: Occurrence[] = [];
    for (const d of due) {
      const sealed = state.keptOf(row.id, d.href);
      if (sealed) occurrences.push(JSON.parse(await box.decrypt(sealed, context)) as Occurrence);
    }
    const stats = recordSyncedCalendar(deps, user, [{ where, expansion: expansion(occurrences), errors: [] }], (s) => {
      state.removeItems(row.id, due.map((d) => d.href));
      state.heartbeat(row.id, run.token, s.imported, null);
    });
    addStats(run.result, stats);
  }

  const base = graphBase(deps);
  const fresh = (): Cursor => {
    const start = new Date(now);
    start.setUTCFullYear(start.getUTCFullYear() - GRAPH_WINDOW.backYears);
    const windowStart = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate())).toISOString();
    const windowEnd = new Date(now + GRAPH_WINDOW.aheadDays * DAY).toISOString();
    const link = `${base}/users/${encodeURIComponent(address)}/calendarView/delta?startDateTime=${encodeURIComponent(windowStart)}&endDateTime=${encodeURIComponent(windowEnd)}`;
    return { link, window_start: windowStart, window_end: windowEnd };
  };
  const kept = row.cursor ? (JSON.parse(row.cursor) as Cursor) : null;
  // The window is renewed before its end comes near (what lies past it would never be listed).
  let cursor = kept && Date.parse(kept.window_end) - GRAPH_WINDOW.renewDaysBefore * DAY > now ? kept : fresh();
  let restarted = cursor !== kept;
  const progress = { folder: "calendar", done: 0, total: 0 };
  // Graph lists a series' occurrences, not the series: its first start is asked for once per sync
  // (unknown when the master cannot be read: the occurrences are then keyed by their own starts).
  const series = new Map<string, number | null>();
  const learnSeries = async (events: GraphEvent[]) => {
    for (const ev of events) {
      const id = ev?.seriesMasterId;
      if (!id || series.has(id) || ev["@removed"]) continue;
      const url = `${base}/users/${encodeURIComponent(address)}/events/${encodeURIComponent(id)}?$select=start`;
      const response = await graphFetch(deps, server, url, address)(url, { headers: graphHeaders });
      let start: number | null = null;
      if (response.status === 200) {
        try {
          start = graphInstant((JSON.parse(await response.text()) as GraphEvent).start);
        } catch {
          // not JSON: the series' start stays unknown
        }
      }
      series.set(id, start);
    }
  };
  let link: string | null = cursor.link;
  while (link) {
    checkStop(run);
    // Graph's links stay on Graph: a link to anywhere else is refused, never followed.
    if (new URL(link).origin !== new URL(base).origin) throw new ConnectionFailure("protocol", `Microsoft Graph sent a link to another host (${new URL(link).host})`);
    const response = await graphFetch(deps, server, link, address)(link, { headers: graphHeaders });
    if (response.status === 410 && !restarted) {
      // The delta state expired (syncStateNotFound): the window is read again; the keys keep counts exact.
      cursor = fresh();
      restarted = true;
      link = cursor.link;
      continue;
    }
    if (response.status !== 200) throw await graphFailure(response, address);
    let page: { value?: GraphEvent[]; "@odata.nextLink"?: string; "@odata.deltaLink"?: string };
    try {
      page = JSON.parse(await response.text());
    } catch {
      throw new ConnectionFailure("protocol", `Microsoft Graph answered something that is not JSON for the calendar of ${address}`);
    }
    const next = page["@odata.nextLink"] ?? null;
    const delta = page["@odata.deltaLink"] ?? null;
    if (!next && !delta) throw new ConnectionFailure("protocol", `Microsoft Graph's answer for the calendar of ${address} has neither a next link nor a delta link`);
    await learnSeries(page.value ?? []);
    const past: Occurrence[] = [];
    const errors: CalendarItemError[] = [];
    const forget: string[] = [];
    const ahead: { href: string; etag: string | null; at: string; sealed: string }[] = [];
    for (const ev of page.value ?? []) {
      if (!ev || typeof ev.id !== "string") continue;
      const href = `graph:${ev.id}`;
      if (ev["@removed"]) {
        forget.push(href);
        continue;
      }
      const o = graphOccurrence(ev, address, ev.seriesMasterId ? (series.get(ev.seriesMasterId) ?? null) : null);
      if (isError(o)) errors.push(o);
      else if (o.start <= now) {
        past.push(o);
        forget.push(href);
      } else if (o.status === "CANCELLED") forget.push(href);
      else ahead.push({ href, etag: ev.changeKey ?? null, at: new Date(o.start).toISOString(), sealed: await box.encrypt(JSON.stringify(o), context) });
    }
    progress.done += page.value?.length ?? 0;
    progress.total = progress.done;
    const nextCursor: Cursor = { ...cursor, link: next ?? delta! };
    const stats = recordSyncedCalendar(deps, user, [{ where, expansion: expansion(past), errors }], (s) => {
      state.removeItems(row.id, forget);
      for (const a of ahead) state.putItem(row.id, a.href, a.etag, a.at, a.sealed);
      state.setCursor(row.id, run.token, JSON.stringify(nextCursor));
      state.heartbeat(row.id, run.token, s.imported, progress);
    });
    addStats(run.result, stats);
    cursor = nextCursor;
    link = next;
  }
}
