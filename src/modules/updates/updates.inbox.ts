// Mail into the updates reader: a connected mailbox's sync, and a mail import (`dealgraph import
// mail`), hand over, read whole, the messages that may be updates, before the transaction that saw
// them commits, and each is ingested as an imported update is (updatesService.ingest: one path
// decides the company, for a forward by its original sender). From the header block alone, a
// message may be an update when its sender has the domain of a holding's website or is a listed
// update sender, or when a member of the org forwarded it (a forward's subject, "Fwd:", "WG:", ...,
// from a member's address): the founder inside is known only once it is read. Other mail costs a
// header check. Ingesting is keyed by Message-ID, so a sync killed after this and before its
// commit reads the message again and changes nothing, and a message both imported and synced (or
// imported twice) applies once.
import { join } from "node:path";
import { decodeWords } from "postal-mime";
import type { Deps } from "../../deps.ts";
import type { MailInbox } from "../deals/deals.verification.inbox.ts";
import { header, mailboxes } from "../network/import/headers.ts";
import { wantsWhole as hookWants, type HeaderBlock } from "../network/import/synced.ts";
import { domainOf, isForwardSubject, updatesRecognition } from "./updates.recognise.ts";
import { updatesService, type IngestOptions } from "./updates.service.ts";
import { MessageSpool } from "./updates.spool.ts";

/** What the reader made of the messages handed to it (a mail import reports it). */
export type UpdatesReport = {
  /** Messages read whole for the reader. */
  read: number;
  /** New updates written, and what became of their figures. */
  updates: number;
  applied: number;
  needs_review: number;
  /** Updates the org already had (the same Message-ID, imported or synced before). */
  duplicates: number;
  /** A holding's mail that is no update (an invitation, a thread about a meeting). */
  not_updates: number;
  /** Messages that could not be read, each named in `errors` ("FILE:LINE: reason" for an import). */
  failed: number;
  errors: string[];
  /** Parts of updates that could not be read (an attachment the document reader refused), named the same way. */
  problems: string[];
};

export const emptyUpdatesReport = (): UpdatesReport => ({ read: 0, updates: 0, applied: 0, needs_review: 0, duplicates: 0, not_updates: 0, failed: 0, errors: [], problems: [] });

/** A mail import says how far the reading of its updates got every this many messages. */
export const PROGRESS_EVERY = 1_000;

/** A mailbox's inbox hooks with the updates' added: `wantsWhole` says from its header block whether a message is read whole. */
export type UpdatesInbox = MailInbox & { wantsWhole(block: HeaderBlock): boolean; report: UpdatesReport };

/**
 * `inbox` (another module's hook, e.g. verification mail) with the org's possible updates added to
 * what is read whole. `origin` is what the updates record (a sync's, or an import's); the hook's
 * `message(raw, where)` may name where the message is ("FILE:LINE"), and an update that cannot be
 * read is then reported there (a sync logs it and goes on).
 */
export function withInvestorUpdates(
  deps: Deps,
  mailbox: { orgId: string; userId: string },
  inbox: MailInbox,
  origin: IngestOptions["origin"] = "sync",
  /** Called every PROGRESS_EVERY messages read for updates, with how many are waiting in all. */
  onProgress?: (report: UpdatesReport, total: number) => void,
): UpdatesInbox {
  const recognition = updatesRecognition(deps);
  const domains = recognition.senderDomains(mailbox.orgId);
  const report = emptyUpdatesReport();
  // No holding and no listed sender: nothing in this mailbox can be an update, not even a forward.
  if (domains.length === 0) return { ...inbox, report, wantsWhole: (block) => !!inbox.hook && hookWants(inbox.hook, block) };
  const kept = new MessageSpool(join(deps.config.dataDir, "tmp", "updates"));
  const other = inbox.hook;
  const isOthers = (sender: string) => !!other && other.senderDomains.some((d) => domainOf(sender) === d || domainOf(sender).endsWith(`.${d}`));
  // The org's holdings, listed senders and members, read once for the whole import or sync.
  const org = recognition.snapshot(mailbox.orgId);
  const isHoldings = (sender: string) => org.holdingOf(sender) !== null;
  const hook = {
    senderDomains: [...new Set([...(other?.senderDomains ?? []), ...domains])],
    wants: (sender: string, recipients: string[]) => (isOthers(sender) && other!.wants(sender, recipients)) || isHoldings(sender),
    message(raw: Buffer, where?: string) {
      other?.message(raw);
      kept.add(raw, where ?? null);
    },
  };
  /** A member's forward: the subject first (no lookup for other mail), then the sender. */
  const isMembersForward = (block: HeaderBlock) => {
    const subject = header(block, "subject")?.value;
    // Encoded words ("=?UTF-8?Q?WG:_...?=") decoded only where there are some: most subjects have none.
    if (!subject || !isForwardSubject(subject.includes("=?") ? decodeWords(subject) : subject)) return false;
    return org.isMember(mailboxes(block, "from")[0]?.email ?? null);
  };
  return {
    hook,
    report,
    wantsWhole: (block) => hookWants(hook, block) || isMembersForward(block),
    async complete() {
      const done = await inbox.complete();
      const updates = updatesService(deps);
      const total = kept.size;
      for (const { raw, where } of kept.drain()) {
        report.read++;
        if (onProgress && report.read % PROGRESS_EVERY === 0) onProgress(report, total);
        try {
          const result = await updates.ingest(mailbox.orgId, raw, { userId: mailbox.userId, origin, recognition: org });
          if (result.outcome === "applied") {
            report.updates++;
            report.applied += result.counts.applied;
            report.needs_review += result.counts.needs_review;
            for (const p of result.problems) report.problems.push(where ? `${where}: ${p}` : p);
          } else if (result.outcome === "duplicate") report.duplicates++;
          else report.not_updates++;
        } catch (error) {
          // One unreadable update never stops the import or the mailbox's sync: it is named, the rest goes on.
          report.failed++;
          const reason = (error as Error).message;
          if (where) report.errors.push(`${where}: investor update not read: ${reason}`);
          else deps.log.warn("investor update not read", { error: reason });
        }
      }
      return done;
    },
  };
}
