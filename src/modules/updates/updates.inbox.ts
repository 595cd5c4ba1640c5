// Synced mail into the updates reader: a connected mailbox's sync hands over, read whole, the
// messages that may be updates, before the batch that saw them commits, and each is ingested as
// an imported update is (updatesService.ingest: one path decides the company, for a forward by
// its original sender). From the header block alone, a message may be an update when its sender
// has the domain of a holding's website or is a listed update sender, or when a member of the org
// forwarded it (a forward's subject, "Fwd:", "WG:", ..., from a member's address): the founder
// inside is known only once it is read. Other mail costs a header check. Ingesting is keyed by
// Message-ID, so a sync killed after this and before its commit reads the message again and
// changes nothing.
import { decodeWords } from "postal-mime";
import type { Deps } from "../../deps.ts";
import type { MailInbox } from "../deals/deals.verification.inbox.ts";
import { header, mailboxes } from "../network/import/headers.ts";
import { wantsWhole as hookWants, type HeaderBlock } from "../network/import/synced.ts";
import { domainOf, isForwardSubject, updatesRecognition } from "./updates.recognise.ts";
import { updatesService } from "./updates.service.ts";

/** A mailbox's inbox hooks with the updates' added: `wantsWhole` says from its header block whether a message is read whole. */
export type UpdatesInbox = MailInbox & { wantsWhole(block: HeaderBlock): boolean };

/** `inbox` (another module's hook, e.g. verification mail) with the org's possible updates added to what is read whole. */
export function withInvestorUpdates(deps: Deps, mailbox: { orgId: string; userId: string }, inbox: MailInbox): UpdatesInbox {
  const recognition = updatesRecognition(deps);
  const domains = recognition.senderDomains(mailbox.orgId);
  // No holding and no listed sender: nothing in this mailbox can be an update, not even a forward.
  if (domains.length === 0) return { ...inbox, wantsWhole: (block) => !!inbox.hook && hookWants(inbox.hook, block) };
  const kept: Buffer[] = [];
  const other = inbox.hook;
  const isOthers = (sender: string) => !!other && other.senderDomains.some((d) => domainOf(sender) === d || domainOf(sender).endsWith(`.${d}`));
  const hook = {
    senderDomains: [...new Set([...(other?.senderDomains ?? []), ...domains])],
    wants: (sender: string, recipients: string[]) => (isOthers(sender) && other!.wants(sender, recipients)) || recognition.holdingOf(mailbox.orgId, sender) !== null,
    message(raw: Buffer) {
      other?.message(raw);
      kept.push(raw);
    },
  };
  /** A member's forward: the subject first (no lookup for other mail), then the sender. */
  const isMembersForward = (block: HeaderBlock) => {
    const subject = header(block, "subject")?.value;
    if (!subject || !isForwardSubject(decodeWords(subject))) return false;
    return recognition.isMember(mailbox.orgId, mailboxes(block, "from")[0]?.email ?? null);
  };
  return {
    hook,
    wantsWhole: (block) => hookWants(hook, block) || isMembersForward(block),
    async complete() {
      const done = await inbox.complete();
      const updates = updatesService(deps);
      for (const raw of kept.splice(0)) {
        try {
          await updates.ingest(mailbox.orgId, raw, { userId: mailbox.userId, origin: "sync" });
        } catch (error) {
          // One unreadable update never stops the mailbox's sync: it is logged, the rest goes on.
          deps.log.warn("investor update not read", { error: (error as Error).message });
        }
      }
      return done;
    },
  };
}
