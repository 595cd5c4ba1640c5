// The sync ledger (CONTRACT.md "Live mail and the sync ledger"): per sync and IMAP folder, the
// UID range read and how every message on the server in it was counted: imported, a duplicate,
// skipped by reason, or failed with its reason. A sync adds to its row inside each batch's
// transaction, the one that also advances the folder's high-water UID, so for every folder the
// messages on the server up to that UID equal the sum of its rows (under its UIDVALIDITY), even
// after a kill -9. A sync that finds nothing new in a folder writes no row.
import { and, asc, eq } from "drizzle-orm";
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

  function entries(connectionId: string): LedgerEntry[] {
    return db
      .select()
      .from(connectionLedger)
      .where(eq(connectionLedger.connectionId, connectionId))
      .orderBy(asc(connectionLedger.id))
      .all()
      .map((r) => ({
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

  /**
   * The ledger of a connection, oldest first. `ownerId`: only that user's connection (another
   * user's, another org's or a malformed id: 404, the same answer as one that does not exist).
   */
  function ledgerOf(connectionId: string, ownerId?: string): { connection_id: string; ledger: LedgerEntry[] } {
    const row = connectionsService(deps).get(connectionId);
    if (!row || (ownerId !== undefined && row.userId !== ownerId)) throw notFound(`No connection with id ${connectionId}`);
    return { connection_id: row.id, ledger: entries(row.id) };
  }

  function totals(connectionId: string): LedgerTotals {
    const out: LedgerTotals = { rows: 0, seen: 0, imported: 0, duplicates: 0, skipped: 0, failed: 0, failed_by_reason: {}, last_synced_at: null };
    for (const e of entries(connectionId)) {
      out.rows++;
      out.seen += e.seen;
      out.imported += e.imported;
      out.duplicates += e.duplicates;
      out.skipped += sum(e.skipped);
      out.failed += sum(e.failed);
      out.failed_by_reason = merged(out.failed_by_reason, e.failed);
      out.last_synced_at = e.synced_at;
    }
    return out;
  }

  /** What the ledger counted for a folder under a UIDVALIDITY, and the highest UID it covers. */
  function countedIn(connectionId: string, folder: string, uidValidity: string): { seen: number; uidTo: number } {
    let seen = 0;
    let uidTo = 0;
    for (const e of entries(connectionId)) {
      if (e.folder !== folder || e.uidvalidity !== uidValidity) continue;
      seen += e.seen;
      uidTo = Math.max(uidTo, e.uid_to);
    }
    return { seen, uidTo };
  }

  return { add, entries, ledgerOf, totals, countedIn };
});

/** The total of a reasons map. */
export const reasonsTotal = sum;
