// A browser stand-in for the web app's fast tests: app.handle with a cookie jar, forms posted as
// a browser would (same Origin, the page's CSRF token), and the last page's HTML at hand; the
// same form dance for any server (openForm/postForm: a compiled binary, a listening server); and
// webApp(), where a web test starts.
import { expect } from "bun:test";
import { webAuth } from "../../src/modules/web/web.auth.ts";
import { SESSION_COOKIE } from "../../src/modules/web/web.http.ts";
import { webService } from "../../src/modules/web/web.service.ts";
import { seededApp, type TestApp } from "./app.ts";
import type { Fixture } from "./fixtures.ts";

export const PASSWORD = "correct horse battery";
const ORIGIN = "http://localhost";
const FORM_TYPE = "application/x-www-form-urlencoded";

/** What answers a request: app.handle, or fetch for a server that listens. */
export type Handle = (request: Request) => Promise<Response>;

export type Page = { status: number; headers: Headers; html: string; location: string | null };

export function csrfOf(html: string): string {
  const m = html.match(/name="csrf" value="([^"]+)"/);
  if (!m) throw new Error(`no CSRF field on the page:\n${html.slice(0, 500)}`);
  return m[1];
}

/** A form's body as a browser sends it: the CSRF token (unless null) first, then the fields. */
const formBody = (csrf: string | null, fields: Record<string, string>) => new URLSearchParams({ ...(csrf !== null ? { csrf } : {}), ...fields }).toString();

export type Form = { cookie: string; csrf: string };

/** A page with a form as a browser first gets it: the cookie it sets (the pre-session one) and its CSRF token. */
export async function openForm(handle: Handle, url: string): Promise<Form & { status: number }> {
  const res = await handle(new Request(url));
  return { status: res.status, cookie: res.headers.getSetCookie()[0]?.split(";")[0] ?? "", csrf: csrfOf(await res.text()) };
}

/** Posts a form as a browser does: the page's cookie, the page's own Origin, its CSRF token; a redirect is not followed. */
export function postForm(handle: Handle, url: string, form: Form, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  const init = { method: "POST", redirect: "manual", body: formBody(form.csrf, fields) } as const;
  return handle(new Request(url, { ...init, headers: { cookie: form.cookie, origin: new URL(url).origin, "content-type": FORM_TYPE, ...headers } }));
}

/** The visible text of a page, tags stripped and entities decoded (enough for assertions). */
export function textOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

export class Browser {
  readonly jar = new Map<string, string>();
  last: Page | null = null;

  constructor(readonly t: TestApp) {}

  private cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  private remember(headers: Headers) {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";").map((s) => s.trim());
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const gone = attrs.some((a) => /^max-age=0$/i.test(a)) || value === "";
      if (gone) this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }

  async request(method: string, path: string, init: { body?: string | FormData; headers?: Record<string, string> } = {}): Promise<Page> {
    const headers = new Headers(init.headers);
    if (this.jar.size && !headers.has("cookie")) headers.set("cookie", this.cookieHeader());
    const res = await this.t.app.handle(new Request(`${ORIGIN}${path}`, { method, headers, body: init.body }));
    this.remember(res.headers);
    const page = { status: res.status, headers: res.headers, html: await res.text(), location: res.headers.get("location") };
    if (res.status !== 303) this.last = page;
    return page;
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Page> {
    return this.request("GET", path, { headers });
  }

  /**
   * Posts a form. The CSRF token is taken from the last page unless `csrf` is given (null: none);
   * the Origin is this server's unless `origin` says otherwise (null: no Origin header).
   */
  post(path: string, fields: Record<string, string>, o: { csrf?: string | null; origin?: string | null; headers?: Record<string, string> } = {}): Promise<Page> {
    const csrf = o.csrf === undefined ? csrfOf(this.last?.html ?? "") : o.csrf;
    const body = formBody(csrf, fields);
    const headers: Record<string, string> = { "content-type": FORM_TYPE, ...o.headers };
    const origin = o.origin === undefined ? ORIGIN : o.origin;
    if (origin !== null) headers.origin = origin;
    return this.request("POST", path, { body, headers });
  }

  /**
   * Posts a multipart form (a file upload) as a browser does: the CSRF token a field of it, taken
   * from the last page unless `csrf` says otherwise (null: none), this server's Origin.
   */
  upload(path: string, fields: Record<string, string>, files: { field: string; bytes: Uint8Array | string; filename: string }[], o: { csrf?: string | null; origin?: string | null } = {}): Promise<Page> {
    const form = new FormData();
    const csrf = o.csrf === undefined ? csrfOf(this.last?.html ?? "") : o.csrf;
    if (csrf !== null) form.append("csrf", csrf);
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    for (const f of files) form.append(f.field, new Blob([f.bytes]), f.filename);
    const headers: Record<string, string> = {};
    const origin = o.origin === undefined ? ORIGIN : o.origin;
    if (origin !== null) headers.origin = origin;
    return this.request("POST", path, { body: form, headers });
  }

  /** Follows a 303 like a browser (GET the Location). */
  async follow(page: Page): Promise<Page> {
    expect(page.status, `expected a redirect, got ${page.status}: ${textOf(page.html).slice(0, 300)}`).toBe(303);
    return this.get(page.location!);
  }

  /** A session for the user made directly (no password hashing): for tests of the pages behind sign-in. */
  async signInAs(userId: string, landing = "/app"): Promise<Page> {
    const { token } = webService(this.t.deps).createSession(userId, "password", "test");
    this.jar.set(SESSION_COOKIE, encodeURIComponent(token));
    return this.get(landing);
  }

  async signIn(email: string, password = PASSWORD): Promise<Page> {
    await this.get("/app/sign-in");
    const res = await this.post("/app/sign-in", { email, password });
    expect(res.status, textOf(res.html).slice(0, 300)).toBe(303);
    return this.follow(res);
  }
}

export async function withPassword(t: TestApp, userId: string, password = PASSWORD) {
  await webAuth(t.deps).setPassword(userId, password);
}

/**
 * Where a web test starts: a seeded app (closed when the test finishes), a password for each user
 * named (alice unless told), and a browser, signed in with `signIn`'s email when given.
 */
export async function webApp(o: { passwords?: (keyof Fixture["users"])[]; signIn?: string; env?: Record<string, string> } = {}): Promise<{ t: TestApp; f: Fixture; b: Browser }> {
  const { t, f } = seededApp({ env: o.env });
  for (const user of o.passwords ?? ["alice"]) await withPassword(t, f.users[user].id);
  const b = new Browser(t);
  if (o.signIn) await b.signIn(o.signIn);
  return { t, f, b };
}
