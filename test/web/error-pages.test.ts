// The web app answers in HTML, in its own style, whatever goes wrong: a body that is no form, a
// method a page does not take, an address with no page. The API next door keeps its JSON.
import { beforeEach, describe, expect, test } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import type { Fixture } from "../helpers/fixtures.ts";
import { FORM_MAX_BYTES } from "../../src/modules/web/web.http.ts";
import { csrfOf, PASSWORD, textOf, webApp, type Browser, type Page } from "../helpers/web.ts";

let t: TestApp;
let f: Fixture;
let b: Browser;

beforeEach(async () => ({ t, f, b } = await webApp()));

const BROKEN_MULTIPART = { "content-type": "multipart/form-data; boundary=x", origin: "http://localhost" };
const keyCount = () => (t.deps.db.$client.query("SELECT COUNT(*) AS n FROM api_keys").get() as { n: number }).n;

function expectAppPage(page: Page, status: number) {
  expect(page.status, textOf(page.html).slice(0, 300)).toBe(status);
  expect(page.headers.get("content-type")).toContain("text/html");
  expect(page.html).toContain('<link rel="stylesheet" href="/app/assets/app.css"');
  expect(page.html).not.toContain('"detail"');
}

describe("a body that is no form", () => {
  test("sign-in with a multipart body: the sign-in page again (415), nobody signed in; no page posts multipart", async () => {
    await b.get("/app/sign-in");
    const page = await b.request("POST", "/app/sign-in", { body: "--x\r\nContent-Disposition: form-da", headers: BROKEN_MULTIPART });
    expectAppPage(page, 415);
    expect(textOf(page.html)).toContain("This page takes a form, not multipart/form-data");
    expect(page.html).toContain('name="password"');
    expect(page.headers.getSetCookie().some((c) => c.startsWith("dg_session="))).toBe(false);
  });

  test("a well-formed multipart form is refused too, before it is parsed: 415, nobody signed in", async () => {
    await b.get("/app/sign-in");
    const form = new FormData();
    form.set("csrf", csrfOf(b.last!.html));
    form.set("email", "alice@acme.vc");
    form.set("password", PASSWORD);
    const encoded = new Response(form);
    const contentType = encoded.headers.get("content-type")!;
    expect(contentType).toStartWith("multipart/form-data; boundary=");
    const res = await b.request("POST", "/app/sign-in", { body: await encoded.text(), headers: { "content-type": contentType, origin: "http://localhost" } });
    expectAppPage(res, 415);
    expect(res.headers.getSetCookie().some((c) => c.startsWith("dg_session="))).toBe(false);
  });

  test("sign-in as JSON: 415 in HTML", async () => {
    await b.get("/app/sign-in");
    const page = await b.request("POST", "/app/sign-in", {
      body: JSON.stringify({ email: "alice@acme.vc", password: PASSWORD }),
      headers: { "content-type": "application/json", origin: "http://localhost" },
    });
    expectAppPage(page, 415);
    expect(textOf(page.html)).toContain("This page takes a form, not application/json");
  });

  test("a form larger than any form here: 413 in HTML, nothing read past the cap, nobody signed in", async () => {
    await b.get("/app/sign-in");
    const page = await b.post("/app/sign-in", { email: "alice@acme.vc", password: PASSWORD, padding: "x".repeat(FORM_MAX_BYTES) });
    expectAppPage(page, 413);
    expect(textOf(page.html)).toContain("This form is larger than 64 KB");
    expect(page.headers.getSetCookie().some((c) => c.startsWith("dg_session="))).toBe(false);
  });

  test("a signed-in form as multipart, as JSON or oversized: an HTML error page, and no key is created", async () => {
    await b.signIn("alice@acme.vc");
    await b.get("/app/keys");
    const csrf = csrfOf(b.last!.html);
    const before = keyCount();
    const multipart = await b.request("POST", "/app/keys", { body: `--x\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n${csrf}`, headers: BROKEN_MULTIPART });
    expectAppPage(multipart, 415);
    expect(textOf(multipart.html)).toContain("This form could not be read");
    expect(textOf(multipart.html)).toContain("Alice Archer"); // the signed-in frame, not a bare page
    const json = await b.request("POST", "/app/keys", {
      body: JSON.stringify({ csrf, name: "k", scope: "read" }),
      headers: { "content-type": "application/json", origin: "http://localhost" },
    });
    expectAppPage(json, 415);
    const oversized = await b.post("/app/keys", { csrf, name: "k", scope: "read", padding: "x".repeat(FORM_MAX_BYTES) }, { csrf: null });
    expectAppPage(oversized, 413);
    expect(keyCount()).toBe(before);
  });

  test("sign-out with a multipart body: HTML 415, still signed in", async () => {
    await b.signIn("alice@acme.vc");
    const page = await b.request("POST", "/app/sign-out", { body: "--x\r\n", headers: BROKEN_MULTIPART });
    expectAppPage(page, 415);
    expect((await b.get("/app/keys")).status).toBe(200);
  });

  test("an empty body is an empty form, whatever its type: the form's own checks answer", async () => {
    await b.signIn("alice@acme.vc");
    const page = await b.request("POST", "/app/sign-out", { body: "", headers: { "content-type": "text/plain", origin: "http://localhost" } });
    expectAppPage(page, 403); // no CSRF token in an empty form
    expect((await b.get("/app/keys")).status).toBe(200);
  });
});

describe("a method a page does not take, or no page at all", () => {
  test("405 in HTML with Allow, signed in or not", async () => {
    for (const [method, path, allow] of [
      ["PUT", "/app/keys", "GET, HEAD, POST"],
      ["DELETE", "/app", "GET, HEAD"],
      ["PATCH", "/app/sign-in", "GET, HEAD, POST"],
      ["GET", "/app/sign-out", "POST"],
    ] as const) {
      const page = await b.request(method, path);
      expectAppPage(page, 405);
      expect(page.headers.get("allow"), `${method} ${path}`).toBe(allow);
      expect(textOf(page.html)).toContain(`does not take a ${method} request`);
    }
    await b.signIn("alice@acme.vc");
    const page = await b.request("PUT", "/app/keys");
    expectAppPage(page, 405);
    expect(textOf(page.html)).toContain("Alice Archer");
  });

  test("404 in HTML for any method on an address with no page", async () => {
    for (const method of ["GET", "POST", "PUT", "DELETE"]) {
      const page = await b.request(method, "/app/no/such/page", method === "GET" ? {} : { headers: { origin: "http://localhost" } });
      expectAppPage(page, 404);
      expect(textOf(page.html)).toContain("Page not found");
    }
  });

  test("the API keeps its JSON answers", async () => {
    const res = await t.request("PUT", "/api/v1/me", { key: f.keys.read.secret });
    expect(res.status).toBe(405);
    expect(res.headers.get("content-type")).toContain("application/json");
    const nowhere = await t.request("GET", "/api/v1/nowhere", { key: f.keys.read.secret });
    expect(nowhere.json).toEqual({ detail: "Not found" });
  });
});
