// One sync of a connected calendar. CalDAV: what changed since the kept sync-token (or the ETags
// kept, when the server offers no sync-collection), plus the objects that are due (an occurrence
// of theirs has happened since they were read: a series' next instance, a meeting that was still
// ahead), read in batches and recorded by the importers' rules (each past occurrence of a series
// is a meeting, keyed like file imports, so a meeting seen by both counts once). Each batch's rows
// and the objects' ETags and due times are one transaction; the sync-token is kept only after
// every change is recorded. A subscription URL is one object: re-read when it changed (its ETag
// or Last-Modified) or is due.
import type { Deps } from "../../deps.ts";
import type { ImportStats } from "../network/import/network.import.ts";
import { readCalendarObject, recordSyncedCalendar, userTimeZone, type SyncedCalendarObject } from "../network/import/synced.ts";
import { calendarChanges, calendarObjects, probeCalendar, type CaldavTarget } from "./connections.caldav.ts";
import { httpPolicy, policedFetch } from "./connections.http.ts";
import { readSubscription, type Validators } from "./connections.ics.ts";
import { syncedUser } from "./connections.mail-sync.ts";
import { connectionsService, type ConnectionRow, type SyncResult } from "./connections.service.ts";
import { checkStop, connectionsState, type SyncRun } from "./connections.state.ts";

/** Calendar objects per multiget and per transaction. */
const CALENDAR_BATCH = 50;

/** The href a subscription's one object is kept under. */
const SUBSCRIPTION = "subscription";

const dueAt = (o: SyncedCalendarObject) => (o.expansion?.nextStart != null ? new Date(o.expansion.nextStart).toISOString() : null);

/** A batch's figures into the sync's; events that could not be read count as skipped, and are logged with their reasons. */
function addStats(deps: Deps, row: ConnectionRow, result: SyncResult, stats: ImportStats) {
  result.meetings_new += stats.imported;
  result.duplicates += stats.duplicates;
  result.skipped += stats.skipped + stats.failed_items;
  if (stats.failed_items) deps.log.warn("calendar events that could not be read", { connection_id: row.id, count: stats.failed_items, errors: stats.errors.slice(0, 5) });
}

export async function syncCalendar(deps: Deps, row: ConnectionRow, run: SyncRun): Promise<void> {
  const { token, result } = run;
  const service = connectionsService(deps);
  const state = connectionsState(deps);
  const secret = await service.secretOf(row);
  const server = service.getMailServer(row.orgId);
  const timeZone = userTimeZone(deps, row.userId);
  // A CalDAV login is kept sealed with its password (the account shown also names the collection).
  const login = secret.login ?? row.account;
  const user = syncedUser(row, row.source === "caldav" ? login : "");

  if (row.source === "ics") {
    const url = new URL(secret.url!);
    const due = state.dueItems(row.id).length > 0;
    // Due: read it whole whatever the server says of changes (an occurrence has passed since).
    const read = await readSubscription(url, policedFetch(deps, httpPolicy(deps, server, url)), due || !row.cursor ? null : (JSON.parse(row.cursor) as Validators));
    if (read.status === "not_modified") return;
    const object = readCalendarObject(read.text, url.origin, timeZone, deps.clock.now());
    const stats = recordSyncedCalendar(deps, user, [object], (s) => {
      state.putItem(row.id, SUBSCRIPTION, read.validators.etag, dueAt(object));
      state.setCursor(row.id, token, JSON.stringify(read.validators));
      state.heartbeat(row.id, token, s.imported, null);
    });
    addStats(deps, row, result, stats);
    return;
  }

  const target: CaldavTarget = { url: row.url!, login, password: secret.password ?? "", fetch: policedFetch(deps, httpPolicy(deps, server, new URL(row.url!))) };
  const probe = await probeCalendar(target);
  const known = state.items(row.id);
  const changes = await calendarChanges(target, probe, row.cursor, known);
  const wanted = new Map<string, string | null>();
  // Changed since the token; one already recorded with this ETag (a sync killed before its token was kept) is not read again.
  for (const c of changes.changed) if (c.etag === null || known.get(c.href) !== c.etag) wanted.set(c.href, c.etag);
  for (const d of state.dueItems(row.id)) if (!changes.removed.includes(d.href)) wanted.set(d.href, d.etag);
  const hrefs = [...wanted.keys()];
  const progress = { folder: row.url!, done: 0, total: hrefs.length };
  for (let i = 0; i < hrefs.length; i += CALENDAR_BATCH) {
    checkStop(run);
    const batch = hrefs.slice(i, i + CALENDAR_BATCH);
    const fetched = await calendarObjects(target, batch);
    const now = deps.clock.now();
    const objects = fetched.map((o) => ({ href: o.href, etag: o.etag, read: readCalendarObject(o.text, o.href, timeZone, now) }));
    const gone = batch.filter((h) => !fetched.some((o) => o.href === h));
    progress.done += batch.length;
    const stats = recordSyncedCalendar(
      deps,
      user,
      objects.map((o) => o.read),
      (s) => {
        for (const o of objects) state.putItem(row.id, o.href, o.etag, dueAt(o.read));
        state.removeItems(row.id, gone);
        state.heartbeat(row.id, token, s.imported, progress);
      },
    );
    addStats(deps, row, result, stats);
  }
  deps.db.transaction(() => {
    state.removeItems(row.id, changes.removed);
    state.setCursor(row.id, token, changes.token);
    state.heartbeat(row.id, token, 0, null);
  });
}
