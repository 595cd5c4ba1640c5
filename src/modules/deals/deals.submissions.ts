// Submitting a deal by URL (a website or a hosted document link), shared by POST /deals/analyze and
// the MCP `ask` tool: both doors check the same things, create the same deal and charge the same
// actions budget. Returns the 202 body and the X-Actions-* headers of the charge.
import type { Deps } from "../../deps.ts";
import type { Principal } from "../identity/auth.macro.ts";
import { invalid } from "../../http/errors.ts";
import { recognizeHost } from "../../documents/hosts.ts";
import { PASSWORD_CONTEXT } from "./deals.document-link.ts";
import type { AnalyzeBody } from "./deals.model.ts";
import { dealsService, nameTarget } from "./deals.service.ts";
import { normalizedHost } from "../../lib/hosts.ts";
import { checkSubmittedUrl, hostTarget } from "./deals.submit-url.ts";

export type DealUrlSubmission = typeof AnalyzeBody.static;

/** The acceptance of every deal submission: the 202 body and the headers of its charge. */
export function dealAcceptance(deps: Deps, accepted: { dealId: string; headers: Record<string, string> }, emailVerificationRequired: boolean | null) {
  return {
    body: {
      deal_id: accepted.dealId,
      status: "queued" as const,
      status_url: `/api/v1/deals/${accepted.dealId}/analysis`,
      result_url: `/api/v1/deals/${accepted.dealId}`,
      email_verification_required: emailVerificationRequired,
      existing: false,
      as_of: deps.clock.now().toISOString(),
    },
    headers: accepted.headers,
  };
}

export async function submitDealUrl(deps: Deps, principal: Principal, body: DealUrlSubmission) {
  const deals = dealsService(deps);
  const given = [body.website_url, body.document_url].filter((v) => v !== undefined).length;
  if (given !== 1) throw invalid(["body", "website_url"], "Give exactly one of website_url and document_url", given ? "value_error" : "missing");
  const companyName = body.company_name?.trim() || null;
  const allowPrivate = deps.config.allowPrivateNetwork;
  if (body.website_url !== undefined) {
    const url = checkSubmittedUrl("website_url", body.website_url, allowPrivate);
    const host = normalizedHost(url);
    const accepted = deals.submit(
      principal,
      { companyName, kind: "company", source: "website", targetKey: hostTarget(url), website: url.origin, domain: host },
      () => {},
      { website_url: url.toString(), detect_kind: true },
    );
    return dealAcceptance(deps, accepted, null);
  }
  const url = checkSubmittedUrl("document_url", body.document_url!, allowPrivate);
  const link = recognizeHost(url.toString());
  // DocSend-style gates verify the viewer's email; that completes outside this server, so the
  // run waits (queued, waiting_for) instead of pretending, and fails after 24 hours without it.
  const waits = link.family === "docsend" && body.document_email !== undefined;
  const sealed = body.document_password ? await deps.secrets.box.encrypt(body.document_password, PASSWORD_CONTEXT) : null;
  const accepted = deals.submit(
    principal,
    { companyName, kind: "company", source: "document", targetKey: companyName ? nameTarget(companyName) : `url:${url.toString()}`, documentUrl: url.toString() },
    () => {},
    { document_url: url.toString(), host: link.family, document_email: body.document_email ?? null, document_password_sealed: sealed, detect_kind: true },
    { waitingFor: waits ? "email_verification" : null },
  );
  return dealAcceptance(deps, accepted, waits);
}
