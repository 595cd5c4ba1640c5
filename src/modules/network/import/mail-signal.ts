// What one message says about the user's relationships (the rules of issue 3):
// - From is one of the user's own addresses: a `sent` touch for every To/Cc/Bcc recipient (the
//   sender's copy of sent mail keeps its Bcc line).
// - The user received it (an own address in To/Cc/Bcc, or in Delivered-To / X-Original-To, which
//   the user's mail server adds when the user was only Bcc'd or reached through an alias): a
//   `received` touch for the sender only; the other recipients are recorded as present (proxy
//   paths: who is in contact with whom), without a relationship signal.
// - Neither: not the user's message (skipped, `not_addressed_to_user`).
// Skipped, never an error: mailing lists (List-Id always; List-Unsubscribe unless the user's own
// address is in To or Cc, since sales-engagement tools add it to one-to-one mail, such as a
// founder's cold outreach), bulk mail (Precedence bulk/list/junk), automated mail (no-reply style senders,
// Auto-Submitted other than `no`, X-Auto-Response-Suppress, an empty Return-Path <> as bounces
// and notifications carry), more than MAX_PARTICIPANTS people, mail dated in the future (it
// would never go stale), and unusable messages: no readable Date (`no_date`) or no From
// (`no_sender`). A file fails only when it is not mail at all (mbox.ts, eml.ts).
import { createHash } from "node:crypto";
import type { InteractionInput, PersonFacts } from "../network.graph.ts";
import { isAutomatedAddress, MAX_PARTICIPANTS } from "../network.identity.ts";
import type { SkipReason } from "./errors.ts";
import { header, mailboxes, parseMailDate, type HeaderBlock, type Mailbox } from "./headers.ts";

/** `skip` with the line the reason was read from, when one line says it (the Date header). */
export type MailSignal = { interaction: InteractionInput } | { skip: SkipReason; line?: number };

/** Clock skew tolerated before a message counts as dated in the future. */
export const FUTURE_SKEW_MS = 15 * 60_000;

/** `msg:<message-id>` lower-cased without brackets; without one, a hash of Date, From and Subject. */
export function messageKey(block: HeaderBlock): string {
  const raw = header(block, "message-id")?.value ?? "";
  const bracketed = /<([^<>\s]+)>/.exec(raw);
  const id = bracketed ? bracketed[1] : /^[^\s<>]+$/.test(raw) ? raw : "";
  if (id) return `msg:${id.toLowerCase()}`;
  const basis = ["date", "from", "subject"].map((n) => header(block, n)?.value ?? "").join("\n");
  return `msg:sha256:${createHash("sha256").update(basis).digest("hex")}`;
}

const BULK = /^(bulk|list|junk)\b/i;

/** Headers only automated mail carries. */
function isAutomatedMail(block: HeaderBlock): boolean {
  const autoSubmitted = header(block, "auto-submitted")?.value.split(";")[0].trim().toLowerCase();
  if (autoSubmitted && autoSubmitted !== "no") return true;
  if (header(block, "x-auto-response-suppress")?.value.trim()) return true;
  return (block.headers.get("return-path") ?? []).some((h) => /^<\s*>$/.test(h.value.trim()));
}

/** The interaction one message makes, or why it makes none. `now` is the importer's clock. */
export function mailSignal(block: HeaderBlock, isOwn: (email: string) => boolean, now: Date): MailSignal {
  const dateHeader = header(block, "date");
  const occurredAt = parseMailDate(dateHeader?.value);
  if (!occurredAt) return { skip: "no_date", line: dateHeader?.line ?? block.line };
  if (block.headers.has("list-id")) return { skip: "mailing_list" };
  if (block.headers.has("list-unsubscribe") && !mailboxes(block, "to", "cc").some((m) => isOwn(m.email))) return { skip: "mailing_list" };
  if (BULK.test(header(block, "precedence")?.value ?? "")) return { skip: "bulk" };
  if (isAutomatedMail(block)) return { skip: "automated" };

  const from = mailboxes(block, "from")[0];
  if (!from) return { skip: "no_sender" };
  if (isAutomatedAddress(from.email)) return { skip: "automated" };
  const recipients = mailboxes(block, "to", "cc", "bcc").filter((m) => m.email !== from.email);
  const participantCount = recipients.length + 1;
  if (participantCount > MAX_PARTICIPANTS) return { skip: "too_many_participants" };
  if (occurredAt.getTime() > now.getTime() + FUTURE_SKEW_MS) return { skip: "future" };

  const facts = (m: Mailbox): PersonFacts => ({ email: m.email, name: m.name });
  const base = { sourceKey: messageKey(block), kind: "email" as const, occurredAt, participantCount };
  const others = recipients.filter((m) => !isOwn(m.email) && !isAutomatedAddress(m.email));
  if (isOwn(from.email)) {
    if (others.length === 0) return { skip: "no_other_participants" };
    return { interaction: { ...base, touches: others.map((m) => ({ person: facts(m), direction: "sent" })) } };
  }
  const received = recipients.some((m) => isOwn(m.email)) || mailboxes(block, "delivered-to", "x-original-to").some((m) => isOwn(m.email));
  if (!received) return { skip: "not_addressed_to_user" };
  return { interaction: { ...base, touches: [{ person: facts(from), direction: "received" }], others: others.map(facts) } };
}
