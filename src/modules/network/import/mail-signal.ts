// What one message says about the user's relationships (the rules of issue 3):
// - From is one of the user's own addresses: a `sent` touch for every To/Cc recipient.
// - An own address is in To/Cc: a `received` touch for the sender only; the other recipients are
//   recorded as present (proxy paths: who is in contact with whom), without a relationship signal.
// - Neither: not the user's message (skipped, `not_addressed_to_user`).
// Skipped, never an error: mailing lists (List-Id; List-Unsubscribe without the user in To),
// bulk mail (Precedence bulk/list/junk), automated senders (no-reply style addresses,
// Auto-Submitted other than `no`), and more than MAX_PARTICIPANTS people on the message.
import { createHash } from "node:crypto";
import type { InteractionInput, PersonFacts } from "../network.graph.ts";
import { isAutomatedAddress, MAX_PARTICIPANTS } from "../network.identity.ts";
import { ImportError, type SkipReason } from "./errors.ts";
import { header, mailboxes, parseMailDate, type HeaderBlock } from "./headers.ts";

export type MailSignal = { interaction: InteractionInput } | { skip: SkipReason };

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

/**
 * The interaction one message makes, or why it makes none.
 * Throws ImportError (file and line) when the message has no parseable Date.
 */
export function mailSignal(block: HeaderBlock, isOwn: (email: string) => boolean, file: string): MailSignal {
  const dateHeader = header(block, "date");
  const occurredAt = parseMailDate(dateHeader?.value);
  if (!occurredAt) {
    const reason = dateHeader ? `the message's Date header ${JSON.stringify(dateHeader.value.slice(0, 80))} is not a date` : "the message has no Date header";
    throw new ImportError(file, dateHeader?.line ?? block.line, reason);
  }
  const to = mailboxes(block, "to");
  const toOwn = to.some((m) => isOwn(m.email));
  if (block.headers.has("list-id")) return { skip: "mailing_list" };
  if (block.headers.has("list-unsubscribe") && !toOwn) return { skip: "mailing_list" };
  if (BULK.test(header(block, "precedence")?.value ?? "")) return { skip: "bulk" };
  const autoSubmitted = header(block, "auto-submitted")?.value.split(";")[0].trim().toLowerCase();
  if (autoSubmitted && autoSubmitted !== "no") return { skip: "automated" };

  const from = mailboxes(block, "from")[0];
  if (!from) return { skip: "no_sender" };
  if (isAutomatedAddress(from.email)) return { skip: "automated" };
  const seen = new Set(to.map((m) => m.email));
  const recipients = [...to, ...mailboxes(block, "cc").filter((m) => !seen.has(m.email))].filter((m) => m.email !== from.email);
  const participantCount = recipients.length + 1;
  if (participantCount > MAX_PARTICIPANTS) return { skip: "too_many_participants" };

  const facts = (m: { email: string; name: string | null }): PersonFacts => ({ email: m.email, name: m.name });
  const base = { sourceKey: messageKey(block), kind: "email" as const, occurredAt, participantCount };
  if (isOwn(from.email)) {
    const others = recipients.filter((m) => !isOwn(m.email) && !isAutomatedAddress(m.email));
    if (others.length === 0) return { skip: "no_other_participants" };
    return { interaction: { ...base, touches: others.map((m) => ({ person: facts(m), direction: "sent" })) } };
  }
  if (!toOwn && !recipients.some((m) => isOwn(m.email))) return { skip: "not_addressed_to_user" };
  return {
    interaction: {
      ...base,
      touches: [{ person: facts(from), direction: "received" }],
      others: recipients.filter((m) => !isOwn(m.email) && !isAutomatedAddress(m.email)).map(facts),
    },
  };
}
