// The verification request: when a gated document link's host has mailed its verification link
// and the key user has no connected mailbox the link would be read from, the user is emailed what
// to do (CONTRACT.md "outbound mail"): which mail to look for, where to send its link (the deal's
// /verification endpoint, or `dealgraph deals verify`), and by when. Without outbound mail the
// run records plainly that it could not ask; the wait and its 24-hour limit are the same either way.
import { publicOrigin } from "../../config.ts";
import type { Deps } from "../../deps.ts";
import { connectionsService } from "../connections/connections.service.ts";
import { NOT_CONFIGURED, OutboundMailError, outboundMail } from "../connections/connections.outbound.ts";
import { orgsService } from "../identity/orgs.service.ts";

export type VerificationRequest = { sent_to: string; sent_at: string } | { not_sent: string };

export async function requestVerification(deps: Deps, run: { id: string; userId: string; subjectId: string }, documentUrl: string, documentEmail: string): Promise<VerificationRequest> {
  if (connectionsService(deps).hasWorkingMailbox(run.userId)) return { not_sent: "the key user's connected mailbox is read at its next sync" };
  const mail = outboundMail(deps);
  if (!mail.configured) return { not_sent: NOT_CONFIGURED };
  const user = orgsService(deps).getUser(run.userId);
  if (!user) return { not_sent: "the key user no longer exists" };
  const origin = publicOrigin(deps.config);
  const host = new URL(documentUrl).hostname;
  const expires = new Date(deps.clock.now().getTime() + 24 * 3600_000).toISOString();
  const text = [
    `Hello ${user.name},`,
    "",
    `The document you submitted for analysis (${documentUrl}) is behind an email check: ${host} has just mailed a verification link to ${documentEmail}.`,
    "",
    `Find that mail (from ${host}, to ${documentEmail}) and send its link to Dealgraph, one of these ways:`,
    "",
    `- POST ${origin}/api/v1/deals/${run.subjectId}/verification with {"verification_url": "<the link>"} (or {"message": "<the whole mail>"}) and a read-and-write key;`,
    `- or on the server: dealgraph deals verify ${run.subjectId} --link '<the link>'  (or --email-file the-mail.eml);`,
    `- or connect your mailbox on ${origin}/app/connections: Dealgraph then reads such mail itself at its next sync.`,
    "",
    `The analysis waits until then; without a verification by ${expires} it fails and says so.`,
  ].join("\n");
  try {
    await mail.send({ to: user.email, subject: `Verify the document link for deal ${run.subjectId.slice(0, 8)}: forward ${host}'s link`, text });
  } catch (error) {
    if (!(error instanceof OutboundMailError)) throw error;
    deps.log.warn("verification request not sent", { run_id: run.id, error: error.message });
    return { not_sent: error.message };
  }
  return { sent_to: user.email, sent_at: deps.clock.now().toISOString() };
}
