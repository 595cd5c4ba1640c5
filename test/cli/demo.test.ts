// `dealgraph demo` in process: an empty data dir becomes a demo firm whose printed keys work over
// real HTTP; a restart serves the same firm and prints the same keys.
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { demoCommand } from "../../src/cli/demo.ts";
import { captureIo, tempDataDir } from "../helpers/cli.ts";

const dir = tempDataDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function startDemo() {
  const { io, out, err } = captureIo({});
  const running = await demoCommand(["--port", "0", "--data-dir", dir], io);
  const key = (label: string) => out.find((l) => l.startsWith(label))!.split(/\s+/)[2];
  return { running, out, err, read: key("read key:"), write: key("write key:"), link: key("web app:") };
}

/** Opens the sign-in link as a browser does (the page, then its button): the redirect it answers. */
async function signInWith(link: string) {
  const page = await fetch(link);
  const html = await page.text();
  const cookie = page.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const csrf = html.match(/name="csrf" value="([^"]+)"/)![1];
  const token = new URL(link).searchParams.get("token")!;
  const res = await fetch(new URL("/app/sign-in/link", link), {
    method: "POST",
    redirect: "manual",
    headers: { cookie, origin: new URL(link).origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrf, token }),
  });
  return { status: res.status, location: res.headers.get("location"), session: res.headers.getSetCookie().some((c) => c.startsWith("dg_session=") && !c.startsWith("dg_session=;")) };
}

test("builds a demo firm through the real services, prints keys that work, and shows progress", async () => {
  const demo = await startDemo();
  try {
    expect(demo.out[0]).toMatch(/^Dealgraph demo listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(demo.read).toMatch(/^ak_/);
    expect(demo.write).toMatch(/^ak_/);
    expect(demo.err.join("\n")).toMatch(/\[demo 1\/\d\] generating/);
    expect(demo.err.join("\n")).toMatch(/team member 6\/6/);
    const res = await fetch(`${demo.running.url}/api/v1/me`, { headers: { authorization: `Bearer ${demo.read}` } });
    expect(res.status).toBe(200);
    const me: any = await res.json();
    expect(me.org.name).toBe("Northwind Ventures");
    expect(me.key.scope).toBe("read");
    const w: any = await (await fetch(`${demo.running.url}/api/v1/me`, { headers: { "x-api-key": demo.write } })).json();
    expect(w.key.scope).toBe("write");
    const keys: any = await (await fetch(`${demo.running.url}/api/v1/keys`, { headers: { "x-api-key": demo.read } })).json();
    expect(keys.keys.length).toBe(2);
    // The deal flow (test/cli/demo-deals.test.ts checks it in depth): dozens of analysed deals.
    expect(demo.err.join("\n")).toMatch(/analysed \d+ deals in/);
    const deals: any = await (await fetch(`${demo.running.url}/api/v1/deals?limit=200`, { headers: { "x-api-key": demo.read } })).json();
    expect(deals.total).toBeGreaterThanOrEqual(30);
    expect(deals.deals.filter((d: any) => d.score !== null).length).toBeGreaterThanOrEqual(30);
    // The one-click sign-in link for the web app, next to the keys: it signs in, and again.
    expect(demo.link).toStartWith(`${demo.running.url}/app/sign-in/link?token=`);
    for (let i = 0; i < 2; i++) expect(await signInWith(demo.link)).toEqual({ status: 303, location: "/app", session: true });
  } finally {
    await demo.running.stop();
  }
}, 120_000);

test("a second start serves the same firm and prints the same keys", async () => {
  const first = await Bun.file(`${dir}/demo-keys.json`).json();
  const demo = await startDemo();
  try {
    expect(demo.read).toBe(first.read.secret);
    expect(demo.link).toEndWith(`?token=${first.sign_in_token}`);
    expect((await signInWith(demo.link)).status).toBe(303);
    expect(demo.err.join("\n")).not.toMatch(/generating/);
    const res = await fetch(`${demo.running.url}/api/v1/me`, { headers: { authorization: `Bearer ${demo.read}` } });
    expect(res.status).toBe(200);
  } finally {
    await demo.running.stop();
  }
});
