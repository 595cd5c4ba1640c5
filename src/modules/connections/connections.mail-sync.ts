// One sync of a connected mailbox: for each folder (INBOX and \Sent by default), the new UIDs
// since the highest one recorded, their header blocks only (no body; of the headers, only the
// fields the importers read are kept, and none is stored beyond what they record), through
// the importers' rules into the network, a batch at a time. Each batch's rows, the folder's new
// highest UID and the connection's count are one transaction: a sync killed anywhere resumes at
// the first UID not committed and counts nothing twice (interactions are keyed by Message-ID too,
// which also makes a message imported from a file and synced count once). A changed UIDVALIDITY
// means the UIDs are new names: the folder is read again, and the Message-IDs keep it exact.
// A folder whose UIDNEXT and HIGHESTMODSEQ (CONDSTORE) have not moved is not opened at all.
// Mail from a document host addressed to a gated link waiting for verification is read whole
// (that message only) and handed to the deals module before its batch commits.
// Each batch also adds to the sync ledger (connections.ledger.ts) in that transaction: every UID
// on the server up to the new high-water is counted there once (imported, duplicate, skipped by
// reason, before --since included, or failed), so the ledger and the folder never disagree; a
// folder with nothing new gets its row too (seen 0).
import type { ImapFlow } from "imapflow";
import type { Deps } from "../../deps.ts";
import { inboxVerification } from "../deals/deals.verification.inbox.ts";
import { withInvestorUpdates, type UpdatesInbox } from "../updates/updates.inbox.ts";
import { headerBlock, MAX_WHOLE_MESSAGE_BYTES, recordSyncedMessages, type SyncedMessage, type SyncedUser } from "../network/import/synced.ts";
import type { HeaderBlock } from "../network/import/headers.ts";
import { ConnectionFailure } from "./connections.failures.ts";
import { chooseFolders, closeImap, IMAP_LIMITS, openImap, syncError, type ImapServer } from "./connections.imap.ts";
import { addReason, connectionsLedger, emptyCounts, type LedgerCounts } from "./connections.ledger.ts";
import { connectionsService, type ConnectionRow } from "./connections.service.ts";
import { checkStop, connectionsState, type FolderState, type SyncRun } from "./connections.state.ts";

/** UIDs per fetch and per transaction. */
export const MAIL_BATCH = 2_000;

/** The user whose mailbox or calendar it is, and the login when it is an address of theirs. */
export function syncedUser(row: ConnectionRow, login: string): SyncedUser {
  return { userId: row.userId, aliases: login.includes("@") ? [login] : [] };
}

/** `1:5,7,9:12`: a sorted UID list as IMAP sequence-set ranges. */
export function uidSet(uids: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < uids.length; ) {
    let j = i;
    while (j + 1 < uids.length && uids[j + 1] === uids[j] + 1) j++;
    parts.push(i === j ? String(uids[i]) : `${uids[i]}:${uids[j]}`);
    i = j + 1;
  }
  return parts.join(",");
}

/** A logged-in IMAP session on the connection's mailbox (a sync's, or the IDLE watcher's); the caller closes it. */
export async function openMailSession(deps: Deps, row: ConnectionRow, sessionMs: number): Promise<{ client: ImapFlow; imap: ImapServer }> {
  const service = connectionsService(deps);
  const server = service.getMailServer(row.orgId) ?? service.noServer();
  const secret = await service.secretOf(row);
  const imap = service.imapServer(server);
  const client = await openImap(imap, row.account, secret.password ?? "", { sessionMs });
  return { client, imap };
}

export async function syncMailbox(deps: Deps, row: ConnectionRow, run: SyncRun): Promise<void> {
  // Founders' updates from the holdings' domains are read whole too (modules/updates, same guarantees).
  const inbox = withInvestorUpdates(deps, row, inboxVerification(deps).mailInbox(row.orgId));
  const { client, imap } = await openMailSession(deps, row, IMAP_LIMITS.syncMs);
  try {
    const folders = await chooseFolders(client, row.folders ? (JSON.parse(row.folders) as string[]) : null);
    for (const folder of folders) await syncFolder(deps, client, row, run, folder, inbox);
  } catch (error) {
    // A deadline or a size limit of the session (IMAP_LIMITS) ended it: that is the reason.
    throw syncError(client, error, imap);
  } finally {
    await closeImap(client);
  }
}

async function syncFolder(deps: Deps, client: ImapFlow, row: ConnectionRow, run: SyncRun, folder: string, inbox: UpdatesInbox): Promise<void> {
  const state = connectionsState(deps);
  const status = await client.status(folder, { uidValidity: true, uidNext: true, highestModseq: true, messages: true });
  if (!status) throw new ConnectionFailure("protocol", `the server gave no status for ${folder}`);
  const validity = String(status.uidValidity ?? "0");
  const modseq = status.highestModseq !== undefined ? String(status.highestModseq) : null;
  const known = state.folder(row.id, folder);
  // A new UIDVALIDITY (or a folder never read): every UID is new; Message-IDs keep the counts exact.
  const at: FolderState = known && known.uidValidity === validity ? known : { uidValidity: validity, lastUid: 0, highestModseq: null, backfilled: false };
  const unchanged = at.backfilled && ((modseq !== null && at.highestModseq === modseq) || (status.uidNext !== undefined && status.uidNext - 1 <= at.lastUid));
  if (unchanged) {
    // Nothing new, and the ledger says so: a row with seen 0 and the empty range past the high-water.
    deps.db.transaction(() => {
      if (modseq !== at.highestModseq) state.setFolder(row.id, folder, { ...at, highestModseq: modseq });
      connectionsLedger(deps).add({ connectionId: row.id, run: run.token, folder, uidValidity: validity, uidFrom: at.lastUid + 1, uidTo: at.lastUid }, emptyCounts());
    });
    return;
  }
  const lock = await client.getMailboxLock(folder, { readOnly: true });
  try {
    // A session that stays open sees mail delivered meanwhile only after a NOOP (DESIGN.md).
    await client.noop();
    const range = `${at.lastUid + 1}:*`;
    // `N:*` matches the highest UID even when it is below N.
    const newer = (found: number[] | false | undefined) => (found || []).filter((u) => u > at.lastUid).sort((a, b) => a - b);
    // Every UID on the server past the high-water, and of them those read (the first backfill reads from --since on).
    const all = newer(await client.search({ uid: range }, { uid: true }));
    const uids = at.backfilled ? all : newer(await client.search({ uid: range, since: new Date(`${row.since}T00:00:00Z`) }, { uid: true }));
    const ledger = ledgerTally(deps, row, run, folder, validity, at.lastUid, all, uids);
    const reached = await readInBatches(deps, client, row, run, folder, inbox, at, uids, ledger);
    // Every UID the folder had when the sync began was looked at (those before --since on purpose):
    // from now on, what arrives is read whatever its date.
    const seen = status.uidNext !== undefined ? Math.max(reached.lastUid, status.uidNext - 1) : reached.lastUid;
    deps.db.transaction(() => {
      state.setFolder(row.id, folder, { ...reached, lastUid: seen, backfilled: true, highestModseq: modseq });
      ledger.advance(seen, emptyCounts());
      state.heartbeat(row.id, run.token, 0, null);
    });
  } finally {
    lock.release();
  }
}

/**
 * The ledger's side of one folder's sync: `advance(uid, counts)`, inside the transaction that
 * moves the high-water to `uid`, adds the batch's counts and the UIDs not read because they are
 * before --since, up to `uid`. The sync's last advance writes the row even when nothing was new
 * (seen 0, uid_from = uid_to + 1).
 */
function ledgerTally(deps: Deps, row: ConnectionRow, run: SyncRun, folder: string, uidValidity: string, from: number, all: number[], read: number[]) {
  const ledger = connectionsLedger(deps);
  const wanted = new Set(read);
  const notRead = all.filter((u) => !wanted.has(u));
  let next = 0;
  return {
    advance(uid: number, counts: LedgerCounts) {
      let before = 0;
      while (next < notRead.length && notRead[next] <= uid) {
        before++;
        next++;
      }
      addReason(counts.skipped, "before_since", before);
      counts.seen += before;
      ledger.add({ connectionId: row.id, run: run.token, folder, uidValidity, uidFrom: from + 1, uidTo: Math.max(uid, from) }, counts);
    },
  };
}

/** Characters of the header fields kept of one message (what a batch holds of it until it is written). */
function keptChars(block: HeaderBlock): number {
  let n = 0;
  for (const [name, list] of block.headers) for (const h of list) n += name.length + h.value.length;
  return n;
}

/** One batch as read: the UIDs done (every one of them answered or gone), and those to read again. */
type BatchRead = { batch: number[]; rest: number[]; messages: SyncedMessage[]; whole: number[]; failed: Record<string, number>; chars: number; answered: number };

/**
 * The UIDs' header fields into the network, up to MAIL_BATCH at a time, each batch committed with
 * the folder's new highest UID. The next batch is asked for before this one is written: the server
 * reads and sends it while the rows go into the database (the fetch is most of a sync's time,
 * and it is the server's). A batch holds at most half of IMAP_LIMITS.bufferedCharsPerSync of
 * header fields (two are in flight): past it the batch ends at the last UID answered in order (what
 * the server still sends of that FETCH is read and dropped, one response at a time), the rest is
 * read next, and later batches are sized to what fits. Returns how far the folder got.
 */
async function readInBatches(deps: Deps, client: ImapFlow, row: ConnectionRow, run: SyncRun, folder: string, inbox: UpdatesInbox, from: FolderState, uids: number[], ledger: ReturnType<typeof ledgerTally>): Promise<FolderState> {
  const state = connectionsState(deps);
  const progress = { folder, done: 0, total: uids.length };
  const limit = Math.max(1, Math.floor(IMAP_LIMITS.bufferedCharsPerSync / 2));
  const read = async (batch: number[]): Promise<BatchRead> => {
    const messages: (SyncedMessage & { uid: number })[] = [];
    // On the server but unreadable as mail (the ledger's `failed`), by UID.
    const failed: { uid: number; reason: string }[] = [];
    const answered = new Set<number>();
    const asked = new Set(batch);
    let chars = 0;
    let full = false;
    // The whole header block (BODY.PEEK[HEADER]): measured about twice as fast as asking for the
    // wanted fields (HEADER.FIELDS), which the server filters and imapflow parses name by name;
    // headerBlock() keeps only the fields the importers read, and nothing is stored.
    for await (const m of client.fetch(uidSet(batch), { uid: true, headers: true }, { uid: true })) {
      // A UID not asked for, or answered twice, is passed over: it would be held beyond the batch's count.
      if (!asked.has(m.uid) || answered.has(m.uid)) continue;
      answered.add(m.uid);
      if (!m.headers) failed.push({ uid: m.uid, reason: "no_header_block" });
      else {
        const block = headerBlock(m.headers);
        messages.push({ uid: m.uid, block, where: `${folder} UID ${m.uid}` });
        chars += keptChars(block);
      }
      if (chars >= limit && answered.size < batch.length) {
        full = true;
        break;
      }
    }
    // Done: every UID up to the first one not answered yet (all of them when the FETCH ended).
    let k = batch.length;
    if (full) for (k = 0; k < batch.length && answered.has(batch[k]); ) k++;
    const last = k > 0 ? batch[k - 1] : -1;
    const kept = messages.filter((m) => m.uid <= last);
    const reasons: Record<string, number> = {};
    for (const f of failed) if (f.uid <= last) addReason(reasons, f.reason);
    return {
      batch: batch.slice(0, k),
      rest: batch.slice(k),
      messages: kept.map(({ block, where }) => ({ block, where })),
      whole: kept.filter((m) => inbox.wantsWhole(m.block)).map((m) => m.uid),
      failed: reasons,
      chars,
      answered: answered.size,
    };
  };
  let at = from;
  let pos = 0;
  let size = MAIL_BATCH;
  const nextRead = () => {
    if (pos >= uids.length) return null;
    const batch = uids.slice(pos, pos + size);
    pos += batch.length;
    return read(batch);
  };
  let pending = nextRead();
  try {
    while (pending) {
      const { batch, rest, messages, whole, failed, chars, answered } = await pending;
      pending = null;
      checkStop(run);
      if (rest.length) {
        // Ended early: the rest first in the next batch, sized to what fits (one UID when the server answered out of order).
        pos -= rest.length;
        size = batch.length === 0 ? 1 : Math.max(1, Math.min(MAIL_BATCH, Math.floor((limit * answered) / Math.max(1, chars)) - 1));
      } else size = Math.min(MAIL_BATCH, size * 2);
      // Verification mail is handed over before the batch commits: a sync killed in between reads it again (completing twice changes nothing).
      for (const uid of whole) {
        const sized = await client.fetchOne(String(uid), { uid: true, size: true }, { uid: true });
        if (!sized || (sized.size ?? Infinity) > MAX_WHOLE_MESSAGE_BYTES) continue;
        const m = await client.fetchOne(String(uid), { uid: true, source: true }, { uid: true });
        if (m && m.source) inbox.hook!.message(m.source);
      }
      if (whole.length) await inbox.complete();
      pending = nextRead();
      if (batch.length === 0) continue;
      const next: FolderState = { ...at, lastUid: batch[batch.length - 1] };
      progress.done += batch.length;
      const stats = recordSyncedMessages(deps, syncedUser(row, row.account), messages, (s) => {
        state.setFolder(row.id, folder, next);
        const failures = Object.values(failed).reduce((a, b) => a + b, 0);
        ledger.advance(next.lastUid, { seen: messages.length + failures, imported: s.imported, duplicates: s.duplicates, skipped: { ...s.skipped_by_reason }, failed: { ...failed } });
        state.heartbeat(row.id, run.token, s.imported, progress);
      });
      at = next;
      run.result.messages_new += stats.imported;
      run.result.duplicates += stats.duplicates;
      run.result.skipped += stats.skipped;
    }
  } finally {
    // A sync that stops with a batch still being read: that read fails with the session, unheard.
    pending?.catch(() => {});
  }
  return at;
}
