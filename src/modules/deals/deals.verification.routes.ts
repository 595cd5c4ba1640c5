// POST /api/v1/deals/{deal_id}/verification: the door through which a gated document link's email
// verification reaches a waiting analysis (additive to the spec; see deals.verification.service.ts).
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { authPlugin } from "../identity/auth.macro.ts";
import { jsonResponses } from "../../http/openapi.ts";
import { VerificationAcceptedResponse, VerificationBody } from "./deals.verification.model.ts";
import { dealVerificationService } from "./deals.verification.service.ts";

const errorBody = (description: string) => ({ description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } });

export function dealVerificationRoutes(deps: Deps) {
  const verification = dealVerificationService(deps);
  return new Elysia({ prefix: "/api/v1/deals" }).use(authPlugin(deps)).post(
    "/:deal_id/verification",
    async ({ principal, params, body, set }) => {
      const accepted = await verification.complete(principal.orgId, params.deal_id, body);
      set.status = 202;
      return accepted;
    },
    {
      auth: "write",
      body: VerificationBody,
      detail: {
        operationId: "completeDealDocumentVerification",
        tags: ["Deals"],
        summary: "Complete a gated document link's email verification (the link, or the raw email it came in); the waiting analysis proceeds",
        description:
          "For a `document_url` submission whose analysis is `queued` with `waiting_for: \"email_verification\"` (DocSend links given with `document_email`). " +
          "Give exactly one of `verification_url` and `message`. The link must be on the document's host (422 otherwise). " +
          "409 when the analysis is not waiting for a verification. No action is charged.",
        responses: { ...jsonResponses({ 202: VerificationAcceptedResponse }), 409: errorBody("The deal's analysis is not waiting for an email verification") },
      },
    },
  );
}
