// The sync ledger (CONTRACT.md "Live mail and the sync ledger"): per sync and IMAP folder, the
// UID range read and how every message on the server in it was counted: imported, a duplicate,
// skipped by reason, or failed with its reason. A sync adds to its row inside each batch's
// transaction, the one that also advances the folder's high-water UID, so for every folder the
// messages on the server up to that UID equal the sum of its rows (under its UIDVALIDITY), even
// after a kill -9. Every sync writes one row per folder it read, also when it found nothing new:
// then seen is 0 and the range is empty, stated as uid_from = uid_to + 1 = the high-water + 1 (the
// next UID it looked for) with uid_to the high-water, unchanged. The rows of a mailbox synced every
// 5 minutes add up (about 9,000 a month per folder): readers take them a page at a time, and the
// totals and the invariant's sums are computed in SQL.
import { and, asc, count, eq, max, sql, sum as sqlSum } from "drizzle-orm";
import { perDeps, type Deps } from "../../deps.ts";
import { notFound } from "../../http/errors.ts";
import { connectionLedger } from "./connections.ledger.tables.ts";
import { connectionsService } from "./connections.service.ts";

export type Reasons = Record<string, number>;

/** What one batch (or a whole row) counted. `seen` = imported + duplicates + skipped + failed. */
export type LedgerCounts = { seen: number; imported: number; duplicates: number; skipped: Reasons; failed: Reasons };

export type LedgerEntry = {
  synced_at: string;
  folder: string;
  uidvalidity: string;
  uid_from: number;
  uid_to: number;
  seen: number;
  imported: number;
  duplicates: number;
  skipped: Reasons;
  failed: Reasons;
};

/** Each connection's figures over its whole ledger (the web page's totals). */
export type LedgerTotals = { rows: number; seen: number; imported: number; duplicates: number; skipped: number; failed: number; failed_by_reason: Reasons; last_synced_at: string | null };

/** A page of a connection's ledger, oldest first: the contract's shape plus the paging fields. */
export type LedgerPage = { connection_id: string; ledger: LedgerEntry[]; total: number; limit: number; offset: number; has_more: boolean };

/** Rows per page when none is asked for, and the most one page holds. */
export const LEDGER_PAGE = { default: 100, max: 1_000 } as const;

export const emptyCounts = (): LedgerCounts => ({ seen: 0, imported: 0, duplicates: 0, skipped: {}, failed: {} });

/** Adds `n` under `reason`. */
export function addReason(into: Reasons, reason: string, n = 1): void {
  if (n > 0) into[reason] = (into[reason] ?? 0) + n;
}

const sum = (r: Reasons) => Object.values(r).reduce((a, b) => a + b, 0);

function merged(a: Reasons, b: Reasons): Reasons {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) addReason(out, k, v);
  return out;
}

export const connectionsLedger = perDeps((deps: Deps) => {
  const { db } = deps;

  /**
   * Inside the transaction that advances the folder to `uidTo`: adds a batch's counts to this
   * sync's row for the folder (created on its first batch, from `uidFrom`).
   */
  function add(at: { connectionId: string; run: string; folder: string; uidValidity: string; uidFrom: number; uidTo: number }, counts: LedgerCounts): void {
    const existing = db
      .select()
      .from(connectionLedger)
      .where(and(eq(connectionLedger.run, at.run), eq(connectionLedger.folder, at.folder)))
      .get();
    if (!existing) {
      db.insert(connectionLedger)
        .values({
          connectionId: at.connectionId,
          run: at.run,
          syncedAt: deps.clock.now().toISOString(),
          folder: at.folder,
          uidValidity: at.uidValidity,
          uidFrom: at.uidFrom,
          uidTo: at.uidTo,
          seen: counts.seen,
          imported: counts.imported,
          duplicates: counts.duplicates,
          skipped: JSON.stringify(counts.skipped),
          failed: JSON.stringify(counts.failed),
        })
        .run();
      return;
    }
    db.update(connectionLedger)
      .set({
        uidTo: Math.max(existing.uidTo, at.uidTo),
        seen: existing.seen + counts.seen,
        imported: existing.imported + counts.imported,
        duplicates: existing.duplicates + counts.duplicates,
        skipped: JSON.stringify(merged(JSON.parse(existing.skipped), counts.skipped)),
        failed: JSON.stringify(merged(JSON.parse(existing.failed), counts.failed)),
      })
      .where(eq(connectionLedger.id, existing.id))
      .run();
  }

  /** Rows of the connection oldest first; `page` takes `limit` rows after `offset` (all without it). */
  function entries(connectionId: string, page?: { limit: number; offset: number }): LedgerEntry[] {
    const q = db.select().from(connectionLedger).where(eq(connectionLedger.connectionId, connectionId)).orderBy(asc(connectionLedger.id));
    return (page ? q.limit(page.limit).offset(page.offset) : q).all().map((r) => ({
      synced_at: r.syncedAt,
      folder: r.folder,
      uidvalidity: r.uidValidity,
      uid_from: r.uidFrom,
      uid_to: r.uidTo,
      seen: r.seen,
      imported: r.imported,
      duplicates: r.duplicates,
      skipped: JSON.parse(r.skipped) as Reasons,
      failed: JSON.parse(r.failed) as Reasons,
    }));
  }

  function rowCount(connectionId: string): number {
    return db.select({ n: count() }).from(connectionLedger).where(eq(connectionLedger.connectionId, connectionId)).get()?.n ?? 0;
  }

  /** The latest `n` rows, oldest first (the web page's recent syncs). */
  function latest(connectionId: string, n: number): LedgerEntry[] {
    return entries(connectionId, { limit: n, offset: Math.max(0, rowCount(connectionId) - n) });
  }

  /**
   * A page of the ledger of a connection, oldest first (`offset` 0 is its first sync; the latest
   * rows are at `total - limit`). `ownerId`: only that user's connection (another user's, another
   * org's or a malformed id: 404, the same answer as one that does not exist).
   */
  function ledgerOf(connectionId: string, ownerId?: string, page: { limit?: number; offset?: number } = {}): LedgerPage {
    const row = connectionsService(deps).get(connectionId);
    if (!row || (ownerId !== undefined && row.userId !== ownerId)) throw notFound(`No connection with id ${connectionId}`);
    const limit = page.limit ?? LEDGER_PAGE.default;
    const offset = page.offset ?? 0;
    const total = rowCount(row.id);
    const ledger = entries(row.id, { limit, offset });
    return { connection_id: row.id, ledger, total, limit, offset, has_more: offset + ledger.length < total };
  }

  /** Sums of a JSON {reason: n} column over the connection's rows, by reason. */
  function reasonSums(connectionId: string, column: "skipped" | "failed"): Reasons {
    const rows = db.$client
      .query(`SELECT j.key AS reason, SUM(j.value) AS n FROM connection_ledger l, json_each(l.${column}) j WHERE l.connection_id = ? GROUP BY j.key ORDER BY j.key`)
      .all(connectionId) as { reason: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.reason, r.n]));
  }

  function totals(connectionId: string): LedgerTotals {
    const a = db
      .select({
        rows: count(),
        seen: sqlSum(connectionLedger.seen),
        imported: sqlSum(connectionLedger.imported),
        duplicates: sqlSum(connectionLedger.duplicates),
        last: sql<string | null>`(SELECT synced_at FROM connection_ledger WHERE connection_id = ${connectionId} ORDER BY id DESC LIMIT 1)`,
      })
      .from(connectionLedger)
      .where(eq(connectionLedger.connectionId, connectionId))
      .get();
    const failedByReason = reasonSums(connectionId, "failed");
    return {
      rows: a?.rows ?? 0,
      seen: Number(a?.seen ?? 0),
      imported: Number(a?.imported ?? 0),
      duplicates: Number(a?.duplicates ?? 0),
      skipped: sum(reasonSums(connectionId, "skipped")),
      failed: sum(failedByReason),
      failed_by_reason: failedByReason,
      last_synced_at: a?.last ?? null,
    };
  }

  /** What the ledger counted for a folder under a UIDVALIDITY, and the highest UID it covers. */
  function countedIn(connectionId: string, folder: string, uidValidity: string): { seen: number; uidTo: number } {
    const a = db
      .select({ seen: sqlSum(connectionLedger.seen), uidTo: max(connectionLedger.uidTo) })
      .from(connectionLedger)
      .where(and(eq(connectionLedger.connectionId, connectionId), eq(connectionLedger.folder, folder), eq(connectionLedger.uidValidity, uidValidity)))
      .get();
    return { seen: Number(a?.seen ?? 0), uidTo: a?.uidTo ?? 0 };
  }

  return { add, entries, latest, ledgerOf, totals, countedIn };
});

/** The total of a reasons map. */
export const reasonsTotal = sum;
