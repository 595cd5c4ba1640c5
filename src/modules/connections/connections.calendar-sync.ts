// One sync of a connected calendar. CalDAV: what changed since the kept sync-token (or the ETags
// kept, when the server offers no sync-collection), plus the objects that are due (an occurrence
// of theirs has happened since they were read: a series' next instance, a meeting that was still
// ahead), read in batches and recorded by the importers' rules (each past occurrence of a series
// is a meeting, keyed like file imports, so a meeting seen by both counts once). A subscription
// URL is one object, asked for with its validators (ETag, Last-Modified) at every sync: read
// again only when it changed; when only an occurrence came due, the copy kept at the last read
// (sealed) is expanded instead.
//
// Calendars are untrusted: their text (a subscription's body, a CalDAV multiget reply's XML and
// the calendars in it) is read and expanded in the calendar child (calendar-read.ts), capped per
// series and per object there; here, at most CALENDAR_SYNC_LIMITS.occurrencesPerSync occurrences
// are recorded per sync (the objects past it wait for the next sync: their ETags and the token
// are not kept), and rows are written a chunk per transaction with the event loop free between
// chunks. Every refusal is in the sync's result (refused, refusals) and its ledger row (skipped,
// past_occurrence_caps), never silent. A chunk's rows
// and the bookkeeping of the objects it finishes are one transaction; the sync-token is kept only
// after every change is recorded, so a sync killed anywhere loses nothing and counts nothing twice.
import type { Deps } from "../../deps.ts";
import { CalendarReadError, expansionOf, occurrenceCount, readCalendars, type CalendarObjectRead } from "../network/import/calendar-read.ts";
import type { ImportStats } from "../network/import/network.import.ts";
import { recordSyncedCalendar, userTimeZone, type SyncedCalendarObject, type SyncedUser } from "../network/import/synced.ts";
import { calendarChanges, calendarMultigetReplies, probeCalendar, type CaldavTarget } from "./connections.caldav.ts";
import { ConnectionFailure } from "./connections.failures.ts";
import { httpPolicy, policedFetch, statusFailure } from "./connections.http.ts";
import { readSubscription, SUBSCRIPTION_MAX_BYTES, type Validators } from "./connections.ics.ts";
import { syncedUser } from "./connections.mail-sync.ts";
import { syncGraphCalendar } from "./connections.graph-calendar.ts";
import { bearerFetch, providerPolicy, providerTokens } from "./connections.providers.ts";
import { addReason, connectionsLedger, type Reasons } from "./connections.ledger.ts";
import { connectionsService, type ConnectionRow, type SyncResult } from "./connections.service.ts";
import { checkStop, connectionsState, type Progress, type SyncRun } from "./connections.state.ts";

/**
 * Occurrences recorded per sync of one calendar (after the caps per series and object); CalDAV
 * replies are never larger than `caldavMaxBytes` (a multiget of 50 objects).
 */
export const CALENDAR_SYNC_LIMITS = { occurrencesPerSync: 20_000, caldavMaxBytes: 20 * 1024 * 1024 };

/** Calendar objects per multiget (and per child read). */
const CALENDAR_BATCH = 50;

/**
 * Rows are written a chunk per transaction, the event loop free between two: the chunk's size is
 * adjusted after each so that one takes about WRITE_TARGET_MS (a loaded machine writes slower).
 */
const WRITE_TARGET_MS = 10;
const WRITE_CHUNK = { first: 100, min: 20, max: 2_000 };

/** The ledger's reason for occurrences past the caps (per series, per object): skipped, never silently. */
export const LEDGER_REFUSED = "past_occurrence_caps";

/** Refusal lines kept in a sync's result. */
const MAX_REFUSALS = 10;

/** The href a subscription's one object is kept under. */
const SUBSCRIPTION = "subscription";

const n = (x: number) => x.toLocaleString("en-US");

const dueAt = (o: CalendarObjectRead) => (o.expansion?.nextStart != null ? new Date(o.expansion.nextStart).toISOString() : null);

const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));

function refuse(result: SyncResult, count: number, lines: string[]): void {
  result.refused += count;
  for (const line of lines) if (result.refusals.length < MAX_REFUSALS) result.refusals.push(line);
}

/** A batch's figures into the sync's; events that could not be read count as skipped, and are logged with their reasons. */
function addStats(deps: Deps, row: ConnectionRow, result: SyncResult, stats: ImportStats) {
  result.meetings_new += stats.imported;
  result.duplicates += stats.duplicates;
  result.skipped += stats.skipped + stats.failed_items;
  if (stats.failed_items) deps.log.warn("calendar events that could not be read", { connection_id: row.id, count: stats.failed_items, errors: stats.errors.slice(0, 5) });
}

type Item = { read: CalendarObjectRead; after?: () => void };

/**
 * Records objects read by the child a chunk of occurrences per transaction (about WRITE_TARGET_MS
 * each): each object's `after` (its bookkeeping) in the transaction of its last rows, `finish` in
 * the last one.
 */
async function recordObjects(deps: Deps, row: ConnectionRow, run: SyncRun, user: SyncedUser, folder: string, items: Item[], finish?: () => void, progress: Progress | null = null): Promise<void> {
  const state = connectionsState(deps);
  const ledger = connectionsLedger(deps);
  // Occurrences refused by the caps: in the ledger with the first chunk's counts.
  let refusedNow = 0;
  const queue = items.map((item) => {
    refuse(run.result, item.read.refused, item.read.refusals);
    refusedNow += item.read.refused;
    return { item, expansion: item.read.expansion ? expansionOf(item.read.expansion) : null, at: 0 };
  });
  let chunk = WRITE_CHUNK.first;
  let first = true;
  while (first || queue.length) {
    if (!first) await nextTick();
    first = false;
    // Up to `chunk` occurrences: whole objects, and the first part of one too big to fit.
    const objects: SyncedCalendarObject[] = [];
    const done: Item[] = [];
    let size = 0;
    while (queue.length && (size < chunk || objects.length === 0)) {
      const q = queue[0];
      const all = q.expansion?.occurrences ?? [];
      const take = Math.max(1, chunk - size);
      const occurrences = all.slice(q.at, q.at + take);
      const head = q.at === 0;
      objects.push({
        where: q.item.read.where,
        expansion: q.expansion && (head ? { ...q.expansion, occurrences } : { occurrences, errors: [], superseded: [], futureSeries: [], nextStart: q.expansion.nextStart }),
        errors: head ? q.item.read.errors : [],
      });
      size += occurrences.length;
      q.at += occurrences.length;
      if (q.at >= all.length) {
        done.push(q.item);
        queue.shift();
      }
    }
    const last = queue.length === 0;
    const started = performance.now();
    const stats = recordSyncedCalendar(deps, user, objects, (s) => {
      for (const item of done) item.after?.();
      if (last) finish?.();
      // The sync's ledger row for this calendar (one per sync, added to chunk by chunk): every
      // occurrence counted once, those past the caps as skipped with that reason.
      const skipped: Reasons = { ...s.skipped_by_reason };
      addReason(skipped, LEDGER_REFUSED, refusedNow);
      const failed: Reasons = {};
      addReason(failed, "unreadable_event", s.failed_items);
      const seen = s.imported + s.duplicates + s.skipped + s.failed_items + refusedNow;
      ledger.add({ connectionId: row.id, run: run.token, folder, uidValidity: "", uidFrom: 0, uidTo: 0 }, { seen, imported: s.imported, duplicates: s.duplicates, skipped, failed });
      refusedNow = 0;
      state.heartbeat(row.id, run.token, s.imported, progress);
    });
    addStats(deps, row, run.result, stats);
    const ms = Math.max(1, performance.now() - started);
    if (size >= chunk / 2) chunk = Math.min(WRITE_CHUNK.max, Math.max(WRITE_CHUNK.min, Math.round((chunk * WRITE_TARGET_MS) / ms)));
  }
}

/** A calendar read failed as a whole (a limit of the child): the connection's failure, with the reason. */
function readFailure(error: unknown, what: string): never {
  if (error instanceof CalendarReadError) throw new ConnectionFailure("protocol", `${what}: ${error.message}`);
  throw error;
}

export async function syncCalendar(deps: Deps, row: ConnectionRow, run: SyncRun): Promise<void> {
  const service = connectionsService(deps);
  const secret = await service.secretOf(row);
  const server = service.getMailServer(row.orgId);
  const timeZone = userTimeZone(deps, row.userId);
  // A CalDAV login is kept sealed with its password (the account shown also names the collection).
  const login = secret.login ?? row.account;
  const user = syncedUser(row, row.source === "caldav" || secret.provider ? login : "");
  if (row.source === "ics") return syncSubscription(deps, row, run, user, timeZone, new URL(secret.url!), server);
  // Google Workspace and Microsoft 365: the provider's token for the user's address (connections.providers.ts).
  if (secret.provider && !server) service.noServer();
  if (row.source === "graph") return syncGraphCalendar(deps, row, run, user, server!, login);
  const google = secret.provider === "google";
  const fetch = policedFetch(deps, google ? providerPolicy(deps, server!, row.url!) : httpPolicy(deps, server, new URL(row.url!)), { maxBytes: CALENDAR_SYNC_LIMITS.caldavMaxBytes });
  const target: CaldavTarget = {
    url: row.url!,
    login,
    password: secret.password ?? "",
    // Google's CalDAV: the member's token on every request (a fresh one when a cached one is refused).
    fetch: google ? bearerFetch(fetch, (opts) => providerTokens(deps).tokenOf(server!, login, "calendar", opts)) : fetch,
  };
  return syncCollection(deps, row, run, user, timeZone, target);
}

type Kept = { validators: Validators; gz: string };

/** The kept copy of a subscription (null: none, or not the version the validators name). */
async function keptCopy(deps: Deps, row: ConnectionRow, validators: Validators): Promise<string | null> {
  const sealed = connectionsState(deps).keptOf(row.id, SUBSCRIPTION);
  if (!sealed) return null;
  try {
    const kept = JSON.parse(await deps.secrets.box.decrypt(sealed, `calendar:${row.id}`)) as Kept;
    if (kept.validators.etag !== validators.etag || kept.validators.last_modified !== validators.last_modified) return null;
    return new TextDecoder().decode(Bun.gunzipSync(Buffer.from(kept.gz, "base64")));
  } catch {
    return null;
  }
}

async function sealCopy(deps: Deps, row: ConnectionRow, text: string, validators: Validators): Promise<string> {
  const kept: Kept = { validators, gz: Buffer.from(Bun.gzipSync(new TextEncoder().encode(text))).toString("base64") };
  return deps.secrets.box.encrypt(JSON.stringify(kept), `calendar:${row.id}`);
}

async function syncSubscription(deps: Deps, row: ConnectionRow, run: SyncRun, user: SyncedUser, timeZone: string | null, url: URL, server: ReturnType<ReturnType<typeof connectionsService>["getMailServer"]>): Promise<void> {
  const state = connectionsState(deps);
  const cursor = row.cursor ? (JSON.parse(row.cursor) as Validators) : null;
  // Due: an occurrence has passed since the last read. Unchanged (304), the kept copy is expanded.
  const due = state.dueItems(row.id).length > 0;
  const kept = due && cursor ? await keptCopy(deps, row, cursor) : null;
  const ask = cursor && (!due || kept !== null) ? cursor : null;
  const read = await readSubscription(url, policedFetch(deps, httpPolicy(deps, server, url), { maxBytes: SUBSCRIPTION_MAX_BYTES }), ask);
  if (read.status === "not_modified" && !due) return;
  const text = read.status === "ok" ? read.text : kept!;
  const validators = read.status === "ok" ? read.validators : cursor!;
  const result = await readCalendars({ kind: "texts", objects: [{ where: url.origin, text }] }, { timeZone, now: deps.clock.now() }).catch((e) => readFailure(e, `the subscription at ${url.origin}`));
  const object = result.objects[0];
  const sealed = read.status === "ok" ? await sealCopy(deps, row, text, validators) : undefined;
  await recordObjects(deps, row, run, user, url.origin, [
    {
      read: object,
      after: () => {
        state.putItem(row.id, SUBSCRIPTION, validators.etag, dueAt(object), sealed);
        state.setCursor(row.id, run.token, JSON.stringify(validators));
      },
    },
  ]);
}

async function syncCollection(deps: Deps, row: ConnectionRow, run: SyncRun, user: SyncedUser, timeZone: string | null, target: CaldavTarget): Promise<void> {
  const state = connectionsState(deps);
  const probe = await probeCalendar(target);
  const known = state.items(row.id);
  const changes = await calendarChanges(target, probe, row.cursor, known);
  const wanted = new Map<string, string | null>();
  // Changed since the token; one already recorded with this ETag (a sync killed before its token was kept) is not read again.
  for (const c of changes.changed) if (c.etag === null || known.get(c.href) !== c.etag) wanted.set(c.href, c.etag);
  for (const d of state.dueItems(row.id)) if (!changes.removed.includes(d.href)) wanted.set(d.href, d.etag);
  const hrefs = [...wanted.keys()];
  const progress = { folder: row.url!, done: 0, total: hrefs.length };
  const budget = CALENDAR_SYNC_LIMITS.occurrencesPerSync;
  let used = 0;
  let deferred = 0;
  for (let i = 0; i < hrefs.length && deferred === 0; i += CALENDAR_BATCH) {
    checkStop(run);
    const batch = hrefs.slice(i, i + CALENDAR_BATCH);
    const objects = await readBatch(target, batch, wanted, timeZone, deps.clock.now(), run.result);
    const gone = batch.filter((h) => !objects.some((o) => o.href === h));
    const taken: CalendarObjectRead[] = [];
    for (const o of objects) {
      const count = occurrenceCount(o);
      if (used > 0 && used + count > budget) {
        deferred = objects.length - taken.length + (hrefs.length - i - batch.length);
        break;
      }
      used += count;
      taken.push(o);
    }
    progress.done += batch.length;
    const items: Item[] = taken.map((o) => ({ read: o, after: () => state.putItem(row.id, o.href!, o.etag ?? null, dueAt(o)) }));
    await recordObjects(deps, row, run, user, row.url!, items, () => state.removeItems(row.id, gone), progress);
  }
  if (deferred) {
    // The token is not kept: the next sync lists the same changes and reads what was not recorded.
    refuse(run.result, 0, [`${n(deferred)} calendar objects are left for the next sync (at most ${n(budget)} occurrences are read per sync)`]);
    deps.db.transaction(() => {
      state.removeItems(row.id, changes.removed);
      state.heartbeat(row.id, run.token, 0, null);
    });
    return;
  }
  deps.db.transaction(() => {
    state.removeItems(row.id, changes.removed);
    state.setCursor(row.id, run.token, changes.token);
    state.heartbeat(row.id, run.token, 0, null);
  });
}

/**
 * A batch of objects, read in the child. When the child refuses the batch as a whole (a limit), each
 * object is read on its own, so one hostile object is refused (said in the result, its ETag kept:
 * read again only when it changes) and the others are recorded.
 */
async function readBatch(target: CaldavTarget, batch: string[], etags: Map<string, string | null>, timeZone: string | null, now: Date, result: SyncResult): Promise<CalendarObjectRead[]> {
  const what = `the calendar ${target.url}`;
  const read = async (hrefs: string[]) => {
    const objects: CalendarObjectRead[] = [];
    for (const reply of await calendarMultigetReplies(target, hrefs)) {
      const r = await readCalendars({ kind: "multiget", url: target.url, response: reply }, { timeZone, now });
      if (r.status !== undefined) throw statusFailure(r.status, what);
      objects.push(...r.objects);
    }
    return objects;
  };
  try {
    return await read(batch);
  } catch (error) {
    if (!(error instanceof CalendarReadError)) throw error;
    if (batch.length === 1) {
      refuse(result, 0, [`${batch[0]}: ${error.message}`]);
      // Recorded as read with nothing in it: not read again until it changes.
      return [{ where: batch[0], href: batch[0], etag: etags.get(batch[0]) ?? null, expansion: null, errors: [{ line: 1, reason: error.message }], events: 0, refused: 0, refusals: [] }];
    }
  }
  const objects: CalendarObjectRead[] = [];
  for (const href of batch) objects.push(...(await readBatch(target, [href], etags, timeZone, now, result)));
  return objects;
}
