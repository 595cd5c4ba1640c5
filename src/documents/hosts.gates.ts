// Gates in front of a hosted document: a form that asks for an email address and/or a password
// (DocSend, Box and Dropbox password links, ...). Given the submission's document_email and
// document_password, the form is filled and submitted as a browser would (its hidden fields, such
// as a CSRF token, included; the session keeps the host's cookies). A host that then emails a
// verification link makes the run wait for it (VerificationPending).
import { htmlForms, htmlTokens } from "./html-scan.ts";
import { htmlToText } from "./html-text.ts";
import { HostError, sameHostFamily, type HostedLink } from "./hosts.ts";
import { bodyText, isHtml, type HostResponse, type HostSession } from "./hosts.session.ts";

export type Credentials = { email: string | null; password: string | null };

/**
 * How much of a page the gate checks read. A gate is at the top of a small page; reading no more
 * also bounds the work a hostile page can ask for (pages themselves may be up to 5 MB).
 */
export const GATE_SCAN_CHARS = 512 * 1024;

/** A page that asks for an email or a passcode before showing the document. */
export function looksGated(html: string): "email" | "password" | null {
  const head = html.length > GATE_SCAN_CHARS ? html.slice(0, GATE_SCAN_CHARS) : html;
  let email = false;
  for (const t of htmlTokens(head)) {
    if (t.kind !== "tag" || t.name !== "input" || t.closing) continue;
    const type = (t.attrs.type ?? "").toLowerCase();
    if (type === "password") return "password";
    if (type === "email") email = true;
  }
  if (/\b(passcode|enter (the )?password)\b/i.test(head)) return "password";
  return email || /\benter your email\b/i.test(head) ? "email" : null;
}

/** The host says it emailed a link (or code) to confirm the address before showing the document. */
export function saysVerificationSent(text: string): boolean {
  return /\b(check your (e-?mail|inbox)|verify your e-?mail|(verification|confirmation) (link|e-?mail)|we(['’]ve| have)? (just )?(sent|emailed) (you )?(a|an) (link|e-?mail|verification))/i.test(text);
}

/** Raised when the host emailed a verification link: the run waits for it (DocSend), or fails saying so. */
export class VerificationPending extends Error {
  constructor(
    readonly label: string,
    readonly email: string,
  ) {
    super(`${label} emailed a verification link to ${email}`);
  }
}

export type GateForm = { action: URL; method: "GET" | "POST"; fields: [string, string][]; emailField: string | null; passwordField: string | null };

/** The first form on the page with an email or password field, with everything a browser would send. */
export function findGateForm(html: string, base: URL): GateForm | null {
  for (const { attrs: form, inputs } of htmlForms(html.length > GATE_SCAN_CHARS ? html.slice(0, GATE_SCAN_CHARS) : html)) {
    const fields: [string, string][] = [];
    let emailField: string | null = null;
    let passwordField: string | null = null;
    for (const a of inputs) {
      const type = (a.type ?? "text").toLowerCase();
      if (!a.name || ["submit", "button", "image", "reset", "file"].includes(type)) continue;
      if (type === "password" || /pass(code|word)/i.test(a.name)) passwordField ??= a.name;
      else if (type === "email" || /e-?mail/i.test(a.name)) emailField ??= a.name;
      else if ((type === "checkbox" || type === "radio") && !("checked" in a)) continue;
      else fields.push([a.name, a.value ?? (type === "checkbox" ? "on" : "")]);
    }
    if (!emailField && !passwordField) continue;
    let action: URL;
    try {
      action = new URL(form.action || base.href, base);
    } catch {
      continue;
    }
    return { action, method: (form.method ?? "get").toLowerCase() === "post" ? "POST" : "GET", fields, emailField, passwordField };
  }
  return null;
}

/**
 * Where a gate's form may send the submission's email and password: the link's own host family
 * (DocSend's form to docsend.com, Box's to box.com), or for a host Dealgraph does not know, the
 * link's own host name. A page naming any other site (a phishing form, a tracker) gets nothing.
 */
export function gateTargetAllowed(action: URL, link: HostedLink): boolean {
  if (action.protocol !== "https:" && action.protocol !== "http:") return false;
  if (link.family === "other") return action.hostname.toLowerCase() === link.url.hostname.toLowerCase();
  return sameHostFamily(action, link.url);
}

function needs(label: string, gate: "email" | "password"): HostError {
  return new HostError(
    gate === "email"
      ? `${label} asks for an email address before showing the document: resubmit with document_email (and document_password if it has one)`
      : `${label} asks for a password before showing the document: resubmit with document_password`,
  );
}

/** The error for a gated page the run may not (or cannot) submit. */
export function gateError(label: string, page: HostResponse, credentials: Credentials): HostError {
  const gate = looksGated(bodyText(page)) ?? "email";
  if (gate === "password" && credentials.password) return new HostError(`${label} refused the password given in document_password`);
  if (gate === "email" && credentials.email) return new HostError(`${label} did not let ${credentials.email} view the document (the sender may allow only some addresses)`);
  return needs(label, gate);
}

/**
 * Fills and submits the gate on `page` (at most two steps: some hosts ask for the email, then the
 * passcode). Returns the page that follows; throws VerificationPending when the host emailed a
 * verification link, HostError when it is refused or the credentials it needs were not given.
 */
export async function passGate(session: HostSession, page: HostResponse, link: HostedLink, credentials: Credentials): Promise<HostResponse> {
  const { label } = link;
  let current = page;
  const submitted = { email: false, password: false };
  for (let step = 0; step < 2; step++) {
    const html = bodyText(current);
    const form = findGateForm(html, new URL(current.url));
    if (!form) throw gateError(label, current, credentials);
    if (form.emailField && !credentials.email) throw needs(label, "email");
    if (form.passwordField && !credentials.password) throw needs(label, "password");
    // The same field again after it was given: the host refused it.
    if ((form.passwordField && submitted.password) || (form.emailField && submitted.email && !form.passwordField)) throw gateError(label, current, credentials);
    if (!gateTargetAllowed(form.action, link)) {
      throw new HostError(`${label}: the page's form would send the email address or password to ${form.action.hostname || form.action.protocol}, which is not ${label}'s own site; they were not sent`);
    }
    const fields: [string, string][] = [...form.fields];
    if (form.emailField) fields.push([form.emailField, credentials.email!]), (submitted.email = true);
    if (form.passwordField) fields.push([form.passwordField, credentials.password!]), (submitted.password = true);
    if (form.method === "POST") current = await session.post(form.action, { form: fields });
    else {
      const url = new URL(form.action);
      for (const [k, v] of fields) url.searchParams.append(k, v);
      current = await session.get(url);
    }
    const text = isHtml(current) ? htmlToText(bodyText(current)) : "";
    if (isHtml(current) && looksGated(bodyText(current))) continue;
    if (current.status >= 400) {
      const what = [submitted.email && "email address", submitted.password && "password"].filter(Boolean).join(" and ");
      throw new HostError(`${label} refused the ${what} given for the document (HTTP ${current.status})`);
    }
    if (text && saysVerificationSent(text)) throw new VerificationPending(label, credentials.email ?? "the address given");
    return current;
  }
  throw gateError(label, current, credentials);
}
