import { t } from "elysia";

export const VerificationBody = t.Object({
  verification_url: t.Optional(
    t.String({ minLength: 1, maxLength: 4096, description: "The verification link from the document host's email; it must be on the document's host" }),
  ),
  message: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 2_000_000,
      description: "Instead of the link: the raw verification email (RFC 5322, as saved in a .eml file); the link is taken from it",
    }),
  ),
});

export const VerificationAcceptedResponse = t.Object(
  {
    deal_id: t.String({ format: "uuid" }),
    status: t.Literal("queued"),
    waiting_for: t.Null({ description: "No longer waiting: the analysis is queued and proceeds" }),
    status_url: t.String(),
    result_url: t.String(),
    as_of: t.String({ format: "date-time" }),
  },
  { description: "Verification recorded: the analysis proceeds (no action is charged)" },
);

/** The 409 `detail` while a gated submission for the same company waits for its email verification. */
export const waitingSubmissionConflict = (dealId: string) =>
  `A gated document submission for the same company is waiting for email verification (deal ${dealId}), so it is still in progress: ` +
  `complete it by sending the verification link from the host's email (or the whole email) to POST /api/v1/deals/${dealId}/verification ` +
  `(command line: dealgraph deals verify ${dealId} --link URL | --email-file FILE.eml); without it, it fails 24 hours after submission and the company can be submitted again.`;
