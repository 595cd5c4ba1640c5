// The HTTP side of the web app: cookies, the same-origin check for POSTs, form fields, and the
// HTML and redirect responses (with the security headers every page carries).
import type { Config } from "../../config.ts";
import { hasContent, readBounded } from "../../http/request-body.ts";
import { toString, type Html } from "./html.ts";

export const SESSION_COOKIE = "dg_session";
/** Before sign-in there is no session: the sign-in forms use a double-submit token instead. */
export const PRE_SESSION_COOKIE = "dg_presession";
export const COOKIE_PATH = "/app";

export const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  // Not no-referrer: with it, browsers send `Origin: null` on our own form posts.
  "referrer-policy": "same-origin",
  "cache-control": "no-store",
};

export function parseCookies(request: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || name in out) continue;
    try {
      out[name] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      // a value that is not valid percent-encoding is no value of ours
    }
  }
  return out;
}

/** HTTPS as the browser sees it: directly, or behind a proxy that says so. */
export function isHttps(request: Request): boolean {
  const forwarded = request.headers.get("x-forwarded-proto")?.split(",")[0].trim().toLowerCase();
  if (forwarded) return forwarded === "https";
  return new URL(request.url).protocol === "https:";
}

export function cookie(request: Request, name: string, value: string, maxAgeSeconds?: number): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${COOKIE_PATH}`, "HttpOnly", "SameSite=Lax"];
  if (maxAgeSeconds !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`);
  if (isHttps(request)) parts.push("Secure");
  return parts.join("; ");
}

export function clearCookie(request: Request, name: string): string {
  return cookie(request, name, "", 0);
}

/** The origins a form of ours can be posted from: this server as the browser addresses it. */
function ownOrigins(request: Request, config: Config): Set<string> {
  const url = new URL(request.url);
  const proto = isHttps(request) ? "https:" : url.protocol;
  const origins = new Set<string>([url.origin, `${proto}//${url.host}`]);
  const host = request.headers.get("x-forwarded-host")?.split(",")[0].trim() || request.headers.get("host");
  if (host) origins.add(`${proto}//${host}`);
  if (config.publicUrl) origins.add(new URL(config.publicUrl).origin);
  return origins;
}

/**
 * A POST is refused when the browser says it comes from another site: an `Origin` header that is
 * not ours (including "null"), or, without one, `Sec-Fetch-Site: cross-site`.
 */
export function sameOrigin(request: Request, config: Config): boolean {
  const origin = request.headers.get("origin");
  if (origin !== null) return ownOrigins(request, config).has(origin);
  const site = request.headers.get("sec-fetch-site");
  return site === null || site === "same-origin" || site === "none";
}

/** Why a request body is no form of ours: kept by the parser, answered by the handler in HTML. */
export type FormProblem = { status: 400 | 413 | 415; message: string };
const FORM_PROBLEM = Symbol("form-problem");

const problem = (status: FormProblem["status"], message: string) => ({ [FORM_PROBLEM]: { status, message } });

/**
 * The most a form of ours may carry. Forms are read before their same-origin and session checks
 * (the sign-in form is how a session starts), so this is all an anonymous client can make the
 * server read; the largest real one is a password change (three fields of at most 1,024 characters).
 */
export const FORM_MAX_BYTES = 64 * 1024;

/**
 * The web app's body parser: urlencoded forms, the first value of each field. It never throws,
 * so a broken body reaches the handler (and an HTML page) instead of the API's JSON error
 * handler. No page posts multipart (it would be parsed whole before any check), so it is refused
 * like any other type. An empty body is an empty form. Elysia hands it the media type without
 * parameters ("" when there is none).
 */
export async function readForm({ request }: { request: Request }, contentType: string): Promise<unknown> {
  const media = contentType.trim().toLowerCase();
  const fields: Record<string, string> = {};
  try {
    if (media !== "application/x-www-form-urlencoded") {
      if (!(await hasContent(request))) return fields;
      return problem(415, `This page takes a form, not ${media || "a body without a content type"}. Nothing was changed.`);
    }
    const read = await readBounded(request, FORM_MAX_BYTES);
    if ("overLimit" in read) return problem(413, `This form is larger than ${FORM_MAX_BYTES / 1024} KB, more than any form here sends. Nothing was changed.`);
    for (const [name, value] of new URLSearchParams(new TextDecoder().decode(read.bytes))) if (!(name in fields)) fields[name] = value;
    return fields;
  } catch {
    return problem(400, "The form could not be read: the request broke off. Nothing was changed.");
  }
}

export function formProblem(body: unknown): FormProblem | null {
  return body && typeof body === "object" && FORM_PROBLEM in body ? (body as Record<symbol, FormProblem>)[FORM_PROBLEM] : null;
}

/** Form fields as strings (the first value of a repeated field; files are ignored). */
export function formFields(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!body || typeof body !== "object") return out;
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    const value = Array.isArray(v) ? v[0] : v;
    if (typeof value === "string") out[k] = value;
    else if (typeof value === "number" || typeof value === "boolean") out[k] = String(value);
  }
  return out;
}

export function htmlResponse(page: Html, status = 200, headers: Record<string, string> | Headers = {}): Response {
  const h = new Headers(headers);
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) if (!h.has(k)) h.set(k, v);
  h.set("content-type", "text/html; charset=utf-8");
  return new Response("<!doctype html>\n" + toString(page), { status, headers: h });
}

/** 303 See Other: after a POST, the browser GETs the next page. */
export function redirect(location: string, setCookies: string[] = []): Response {
  const h = new Headers({ location, "cache-control": "no-store" });
  for (const c of setCookies) h.append("set-cookie", c);
  return new Response(null, { status: 303, headers: h });
}

/** The `page` of a paged list: a whole number from 1 (anything else is the first page). */
export function pageNumber(url: URL): number {
  return Math.max(1, Math.min(100_000, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1));
}

/** A `next` path we will send a browser to after sign-in: only our own pages. */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith("/app") || next.startsWith("//") || /[\\\r\n]/.test(next)) return "/app";
  return next;
}
