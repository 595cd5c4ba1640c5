// Gated document links that verify the viewer's email (DocSend). The run is submitted waiting
// (`queued`, waiting_for "email_verification"); its wait step submits the submission's email (and
// password) to the host's gate as a browser would, so the host emails its verification link to
// document_email, and keeps the host's cookies (sealed). The link reaches Dealgraph through
// POST /api/v1/deals/{deal_id}/verification or `dealgraph deals verify` (as a URL, or the raw
// email it came in); then the run is queued for real, follows the link with the same cookies and
// reads the document. Nothing is charged again. Without a verification, the stale-run sweep fails
// the run 24 hours after submission, saying so.
import type { Email } from "postal-mime";
import { perDeps, type Deps } from "../../deps.ts";
import { conflict, invalid, notFound } from "../../http/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { actionsService, type Run } from "../actions/actions.service.ts";
import type { WaitStep } from "../actions/runner.ts";
import { openGate } from "../../documents/hosts.adapters.ts";
import { decodeEntities, htmlAnchors } from "../../documents/html-scan.ts";
import { recognizeHost, sameHostFamily } from "../../documents/hosts.ts";
import { linkContext, linkFailure, sealCookies, sealVerificationUrl, type GateState, type LinkInput } from "./deals.document-link.ts";
import { ANALYSIS_PASS, dealsService } from "./deals.service.ts";
import { requestVerification } from "./deals.verification.request.ts";
import { checkSubmittedUrl } from "./deals.submit-url.ts";

export const EMAIL_VERIFICATION = "email_verification";

/** The wait step of a gated link: open the gate (the host emails its link), or go on at once when it lets the session in. */
export function documentGateStep(deps: Deps): WaitStep {
  return async ({ run, signal }) => {
    const input = run.input as Partial<LinkInput>;
    // A data-room pass waiting for the running pass: that pass releases it when it ends (or has already ended).
    if (run.waitingFor === ANALYSIS_PASS) return { resume: !dealsService(deps).liveBefore(run.orgId, run.subjectId, run.id) };
    if (!input.document_url || run.waitingFor !== EMAIL_VERIFICATION) return { resume: true };
    const ctx = await linkContext(deps, { id: run.id, input: input as LinkInput }, signal);
    let outcome: "open" | "verification_sent";
    try {
      outcome = await openGate(ctx);
    } catch (error) {
      throw linkFailure(ctx.link, input.document_url, error);
    }
    const gate: GateState = { opened_at: deps.clock.now().toISOString(), outcome, cookies_sealed: await sealCookies(deps, run.id, ctx.session) };
    deps.log.info(outcome === "open" ? "document gate opened without verification" : "document host emailed a verification link", { run_id: run.id, host: ctx.link.family });
    // Where the link will come from: the key user's connected mailbox, else a request mailed to them.
    if (outcome === "verification_sent") gate.request = await requestVerification(deps, run, input.document_url, input.document_email ?? "");
    return { resume: outcome === "open", patch: { gate } };
  };
}

export type VerificationInput = { verification_url?: string; message?: string };

const VERIFY_WORDS = /verif|confirm|token|auth|access|magic|login|sign/i;

/** A link of a message, with the text of its anchor ("" for a bare URL). */
export type MailLink = { url: string; label: string };

/** A raw RFC 5322 message, parsed; null when it cannot be read as one. */
export async function parseMail(raw: string): Promise<Email | null> {
  try {
    // postal-mime loads with the first verification mail, not at start-up.
    const { default: PostalMime } = await import("postal-mime");
    return await PostalMime.parse(raw);
  } catch {
    return null;
  }
}

/** Every http(s) link of a message: the HTML's anchors with their text first, then the bare URLs of its text and HTML. */
export function linksIn(email: Email): MailLink[] {
  const candidates: MailLink[] = [];
  for (const a of htmlAnchors(email.html ?? "")) candidates.push({ url: a.href, label: a.label });
  for (const m of `${email.text ?? ""}\n${email.html ?? ""}`.matchAll(/https?:\/\/[^\s<>"'()\]]+/g)) candidates.push({ url: decodeEntities(m[0], { attribute: true }).replace(/[.,;:!?]+$/, ""), label: "" });
  return candidates.filter((c) => URL.canParse(c.url) && /^https?:$/.test(new URL(c.url).protocol));
}

/** Whether a link is the document or a page under it (DocSend: /view/ID and /view/ID/verify?token=...). */
export function isUnderDocument(url: string, documentUrl: string): boolean {
  if (!sameHostFamily(url, documentUrl)) return false;
  const path = new URL(documentUrl).pathname.replace(/\/+$/, "");
  const p = new URL(url).pathname;
  return p === path || p.startsWith(`${path}/`);
}

/**
 * The verification link among a message's links, on the document's host family and not the
 * document itself: a link under the document's path first (DocSend's /view/ID/verify?token=...),
 * the likeliest of them first. A link elsewhere on the host is taken only when it is the one
 * candidate (with verification words, or at all): a mail linking to several other documents
 * could otherwise complete this run with another document's link.
 */
export function pickVerificationLink(links: MailLink[], documentUrl: string): string | null {
  const documentHref = new URL(documentUrl).href;
  const candidates = links.filter((c) => sameHostFamily(c.url, documentUrl) && new URL(c.url).href !== documentHref);
  const likeliest = (list: MailLink[]) => list.find((c) => VERIFY_WORDS.test(c.url) || VERIFY_WORDS.test(c.label)) ?? list[0];
  const under = candidates.filter((c) => isUnderDocument(c.url, documentUrl));
  if (under.length) return likeliest(under).url;
  const distinct = (list: MailLink[]) => new Set(list.map((c) => new URL(c.url).href)).size;
  const worded = candidates.filter((c) => VERIFY_WORDS.test(c.url) || VERIFY_WORDS.test(c.label));
  if (distinct(worded) === 1) return worded[0].url;
  if (worded.length === 0 && distinct(candidates) === 1) return candidates[0].url;
  return null;
}

/** The verification link in a raw RFC 5322 message: a link on the document's host family, the likeliest first. */
export async function verificationLinkIn(raw: string, documentUrl: string): Promise<string | null> {
  const email = await parseMail(raw);
  return email ? pickVerificationLink(linksIn(email), documentUrl) : null;
}

export const dealVerificationService = perDeps((deps: Deps) => {
  const deals = dealsService(deps);
  const actions = actionsService(deps);
  const orgOfDeal = deps.db.$client.query<{ org_id: string }, [string]>("SELECT org_id FROM deals WHERE id = ?");

  function waitingRun(orgId: string, dealId: string): Run {
    const deal = deals.mustGet(orgId, dealId);
    const run = actions.latestFor(orgId, deal.id);
    if (!run || run.status !== "queued" || run.waitingFor !== EMAIL_VERIFICATION) {
      const state = run ? (run.status === "queued" && run.waitingFor ? `queued, waiting for ${run.waitingFor}` : run.status) : "never analysed";
      throw conflict(`The deal's analysis is not waiting for an email verification (it is ${state}); nothing was changed.`);
    }
    return run;
  }

  async function linkOf(input: VerificationInput, documentUrl: string): Promise<string> {
    const host = recognizeHost(documentUrl);
    const where = `${host.label} (${host.url.hostname})`;
    if (input.verification_url !== undefined) {
      const url = checkSubmittedUrl("verification_url", input.verification_url, deps.config.allowPrivateNetwork);
      if (!sameHostFamily(url, documentUrl)) {
        throw invalid(["body", "verification_url"], `The verification link must be on the document's host, ${where}; this one is on ${url.hostname}`, "value_error");
      }
      return url.href;
    }
    const link = await verificationLinkIn(input.message!, documentUrl);
    if (!link) throw invalid(["body", "message"], `The message holds no verification link on the document's host, ${where}`, "value_error");
    return link;
  }

  /**
   * Completes a waiting run's email verification. `orgId` null: any organization's deal (the
   * command line, run by the operator). 404 unknown deal, 409 not waiting, 422 a bad or foreign link.
   */
  async function complete(orgId: string | null, dealId: string, input: VerificationInput) {
    const given = [input.verification_url, input.message].filter((v) => v !== undefined).length;
    if (given !== 1) {
      throw invalid(["body", "verification_url"], "Give exactly one of verification_url and message", given ? "value_error" : "missing");
    }
    const org = orgId ?? (isUuid(dealId) ? orgOfDeal.get(dealId)?.org_id : null);
    if (!org) throw notFound("Deal not found");
    const run = waitingRun(org, dealId);
    const documentUrl = String((run.input as Partial<LinkInput>).document_url ?? "");
    const link = await linkOf(input, documentUrl);
    const now = deps.clock.now().toISOString();
    // Still waiting at the moment of writing, or another request (or the sweep) got there first.
    const sealed = await sealVerificationUrl(deps, run.id, link);
    const resumed = actions.resume(run.id, { gate: { verification_url_sealed: sealed, verified_at: now } satisfies GateState });
    if (!resumed) throw conflict("The deal's analysis stopped waiting for an email verification meanwhile; nothing was changed.");
    return {
      deal_id: run.subjectId,
      status: "queued" as const,
      waiting_for: null,
      status_url: `/api/v1/deals/${run.subjectId}/analysis`,
      result_url: `/api/v1/deals/${run.subjectId}`,
      as_of: now,
    };
  }

  return { complete };
});
