// A gated document link's email verification completed from the key user's inbox: the user's mail
// imported with `dealgraph import mail`, or read by a connected mailbox's sync (both hand over the
// DocSend mail addressed to a waiting submission's document_email through mailInbox). The mail
// goes through the same completion as POST /api/v1/deals/{deal_id}/verification (nothing
// charged). A mail that fits no waiting run of the user's organization changes nothing and is not
// an error: a mailbox holds old verification mails, mails of runs verified or expired long ago,
// and mails of other hosts.
import type { Address, Email } from "postal-mime";
import { perDeps, type Deps } from "../../deps.ts";
import { ApiError } from "../../http/errors.ts";
import { withinDomain } from "../../documents/hosts.ts";
import { actionsService } from "../actions/actions.service.ts";
import type { InboxHook } from "../network/import/network.import.ts";
import type { LinkInput } from "./deals.document-link.ts";
import { dealVerificationService, EMAIL_VERIFICATION, isUnderDocument, linksIn, parseMail, pickVerificationLink } from "./deals.verification.service.ts";

/** Where a host's verification mail comes from: DocSend is the one host whose gate verifies the viewer's email (deals.submissions.ts). */
export const VERIFICATION_SENDER_DOMAINS: readonly string[] = ["docsend.com"];

/**
 * How much earlier than the run's gate opening a verification mail may be dated (the host's clock
 * against ours). An older mail belongs to an earlier attempt whose link the host no longer takes:
 * completing with it would fail the run instead of letting the right mail complete it.
 */
const DATE_SKEW_MS = 15 * 60_000;

type WaitingRun = { dealId: string; documentUrl: string; email: string; openedAt: number };

/** Whether an address is on one of the verification senders' domains (subdomains included). */
export function isVerificationSender(email: string): boolean {
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  return VERIFICATION_SENDER_DOMAINS.some((d) => withinDomain(domain, d));
}

function addressesOf(list: Address[] | undefined): string[] {
  return (list ?? []).flatMap((a) => (a.group ? a.group.map((m) => m.address) : [a.address])).filter((e): e is string => !!e);
}

/** Everyone the mail was delivered to: To, Cc, Bcc, and what the user's mail server added (Delivered-To, X-Original-To). */
function recipientsOf(email: Email): Set<string> {
  const added = email.headers.filter((h) => h.key === "x-original-to").map((h) => h.value.replace(/^.*<|>.*$/g, "").trim());
  const all = [...addressesOf(email.to), ...addressesOf(email.cc), ...addressesOf(email.bcc), email.deliveredTo ?? "", ...added];
  return new Set(all.filter(Boolean).map((e) => e.toLowerCase()));
}

export const inboxVerification = perDeps((deps: Deps) => {
  const verification = dealVerificationService(deps);
  const actions = actionsService(deps);

  /** The org's runs whose host has mailed its verification link (oldest first). */
  function waitingRuns(orgId: string): WaitingRun[] {
    const runs: WaitingRun[] = [];
    for (const row of actions.waitingRuns(orgId, EMAIL_VERIFICATION)) {
      const input = row.input as Partial<LinkInput>;
      const openedAt = Date.parse(input.gate?.opened_at ?? "");
      if (!input.document_url || !input.document_email || input.gate?.outcome !== "verification_sent" || Number.isNaN(openedAt)) continue;
      runs.push({ dealId: row.subjectId, documentUrl: input.document_url, email: input.document_email.toLowerCase(), openedAt });
    }
    return runs;
  }

  /** The addresses (lower case) the org's waiting runs expect a verification mail at: the importer's cheap check before a mail is read whole. */
  function waitingAddresses(orgId: string): Set<string> {
    return new Set(waitingRuns(orgId).map((r) => r.email));
  }

  /**
   * Completes the waiting run of `orgId` that a raw mail verifies, through the route's own
   * completion. The mail must come from a verification sender, be addressed to the run's
   * document_email, be dated after its gate opened, and link to the run's document (the document
   * itself, or a page under it such as DocSend's /view/ID/verify?token=...): a verification link
   * of another document would fail the run. Several runs fit: the oldest (each gate got its mail).
   * Returns the deal id, or null when the mail fits no run (nothing changed).
   */
  async function completeFromMail(orgId: string, raw: string): Promise<string | null> {
    const email = await parseMail(raw);
    if (!email?.from?.address || !isVerificationSender(email.from.address)) return null;
    const recipients = recipientsOf(email);
    const sentAt = Date.parse(email.date ?? "");
    const links = linksIn(email);
    const run = waitingRuns(orgId).find(
      (r) =>
        recipients.has(r.email) &&
        (Number.isNaN(sentAt) || sentAt >= r.openedAt - DATE_SKEW_MS) &&
        links.some((l) => isUnderDocument(l.url, r.documentUrl)) &&
        pickVerificationLink(links, r.documentUrl) !== null,
    );
    if (!run) return null;
    try {
      await verification.complete(orgId, run.dealId, { message: raw });
      return run.dealId;
    } catch (error) {
      // The run stopped waiting meanwhile (verified elsewhere, or the 24-hour sweep): nothing changed.
      if (error instanceof ApiError && (error.status === 404 || error.status === 409 || error.status === 422)) return null;
      throw error;
    }
  }

  /**
   * The inbox side of reading a user's mail (a file import, or a connected mailbox's sync): when
   * runs of the organization wait for a document host's verification mail, a hook that keeps the
   * host's mail addressed to them; `complete` then hands each kept mail to completeFromMail (after
   * the mail's transaction: it cannot wait for that) and counts the runs that proceed. No waiting
   * run, no hook: reading the mail costs what it always did.
   */
  function mailInbox(orgId: string): MailInbox {
    const waiting = waitingAddresses(orgId);
    if (waiting.size === 0) return { complete: async () => 0 };
    const kept: Buffer[] = [];
    return {
      hook: {
        senderDomains: VERIFICATION_SENDER_DOMAINS,
        wants: (_sender, recipients) => recipients.some((r) => waiting.has(r)),
        message: (raw) => kept.push(raw),
      },
      async complete() {
        let verified = 0;
        for (const raw of kept.splice(0)) if (await completeFromMail(orgId, raw.toString("utf8"))) verified++;
        return verified;
      },
    };
  }

  return { waitingAddresses, completeFromMail, mailInbox };
});

/** Mail a reader of the user's mail hands over whole, and the completion of what it verifies. */
export type MailInbox = { hook?: InboxHook; complete(): Promise<number> };
