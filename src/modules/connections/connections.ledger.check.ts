// Proving the ledger against the server: per folder a connection has read, the messages the
// server holds up to the folder's high-water UID (under the UIDVALIDITY recorded) beside what the
// ledger counted for it. Equal means nothing was lost and nothing counted twice; a message
// deleted on the server after it was counted makes the server's side smaller (it was counted once,
// when it was there).
import { asc, eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { notFound } from "../../http/errors.ts";
import { closeImap } from "./connections.imap.ts";
import { connectionsLedger } from "./connections.ledger.ts";
import { openMailSession } from "./connections.mail-sync.ts";
import { connectionsService } from "./connections.service.ts";
import { connectionFolders } from "./connections.tables.ts";

export type LedgerCheck = {
  folder: string;
  uidvalidity: string;
  /** The folder's UIDVALIDITY now differs: the next sync reads it again, and the check waits for it. */
  uidvalidity_changed: boolean;
  high_water: number;
  on_server: number;
  counted: number;
  /** on_server - counted when positive: messages the ledger does not account for. */
  missing: number;
  /** counted - on_server when positive: counted more often than the server holds them. */
  excess: number;
};

export async function checkLedger(deps: Deps, connectionId: string): Promise<LedgerCheck[]> {
  const row = connectionsService(deps).get(connectionId);
  if (!row || row.kind !== "mail") throw notFound(`No mail connection with id ${connectionId}`);
  const folders = deps.db.select().from(connectionFolders).where(eq(connectionFolders.connectionId, row.id)).orderBy(asc(connectionFolders.name)).all();
  const ledger = connectionsLedger(deps);
  const { client } = await openMailSession(deps, row, 5 * 60_000);
  try {
    const out: LedgerCheck[] = [];
    for (const f of folders) {
      const status = await client.status(f.name, { uidValidity: true });
      const changed = String((status && status.uidValidity) ?? "") !== f.uidValidity;
      let onServer = 0;
      if (!changed && f.lastUid > 0) {
        const lock = await client.getMailboxLock(f.name, { readOnly: true });
        try {
          const found = await client.search({ uid: `1:${f.lastUid}` }, { uid: true });
          // `1:N` also matches the highest UID when it is above N: only those up to the high-water.
          onServer = (found || []).filter((u) => u <= f.lastUid).length;
        } finally {
          lock.release();
        }
      }
      const counted = ledger.countedIn(row.id, f.name, f.uidValidity).seen;
      out.push({
        folder: f.name,
        uidvalidity: f.uidValidity,
        uidvalidity_changed: changed,
        high_water: f.lastUid,
        on_server: onServer,
        counted,
        missing: changed ? 0 : Math.max(0, onServer - counted),
        excess: changed ? 0 : Math.max(0, counted - onServer),
      });
    }
    return out;
  } finally {
    await closeImap(client);
  }
}
