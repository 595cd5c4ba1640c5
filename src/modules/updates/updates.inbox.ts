// Synced mail into the updates reader: a connected mailbox's sync hands over, read whole, the
// messages whose sender has the domain of a holding's website or is a listed update sender (the
// header check is the only cost for other mail), before the batch that saw them commits; each is
// ingested as an imported update is. Ingesting is keyed by Message-ID, so a sync killed after
// this and before its commit reads the message again and changes nothing.
import type { Deps } from "../../deps.ts";
import type { MailInbox } from "../deals/deals.verification.inbox.ts";
import { domainOf, updatesRecognition } from "./updates.recognise.ts";
import { updatesService } from "./updates.service.ts";

/** `inbox` (another module's hook, e.g. verification mail) with the org's update senders added to what is read whole. */
export function withInvestorUpdates(deps: Deps, mailbox: { orgId: string; userId: string }, inbox: MailInbox): MailInbox {
  const recognition = updatesRecognition(deps);
  const domains = recognition.senderDomains(mailbox.orgId);
  if (domains.length === 0) return inbox;
  const kept: Buffer[] = [];
  const other = inbox.hook;
  const isOthers = (sender: string) => !!other && other.senderDomains.some((d) => domainOf(sender) === d || domainOf(sender).endsWith(`.${d}`));
  return {
    hook: {
      senderDomains: [...new Set([...(other?.senderDomains ?? []), ...domains])],
      wants: (sender, recipients) => (isOthers(sender) && other!.wants(sender, recipients)) || recognition.holdingOf(mailbox.orgId, sender) !== null,
      message(raw) {
        other?.message(raw);
        kept.push(raw);
      },
    },
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
