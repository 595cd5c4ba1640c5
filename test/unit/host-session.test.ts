// The document hosts' browser session keeps cookies as a browser does: for the host that set them
// and, with a Domain attribute, for the parent it names, never for another site or a whole
// top-level domain. Against two stand-in hosts on loopback (private networks NOT allowed).
import { afterEach, describe, expect, test } from "bun:test";
import { cookieDomain, HostSession } from "../../src/documents/hosts.session.ts";
import { standInHosts } from "../helpers/document-hosts.ts";

let server: ReturnType<typeof Bun.serve> | null = null;
afterEach(() => server?.stop(true));

describe("cookie domains", () => {
  test("the host or a parent of it; never another site, a bare top-level domain, or a parent of an address", () => {
    expect(cookieDomain("app.box.com", ".box.com")).toBe("box.com");
    expect(cookieDomain("app.box.com", "APP.BOX.COM")).toBe("app.box.com");
    expect(cookieDomain("app.box.com", "com")).toBeNull();
    expect(cookieDomain("app.box.com", ".com.")).toBeNull();
    expect(cookieDomain("app.box.com", "evil.com")).toBeNull();
    expect(cookieDomain("app.box.com", "pp.box.com")).toBeNull();
    expect(cookieDomain("localhost", "localhost")).toBe("localhost");
    expect(cookieDomain("93.184.216.10", "216.10")).toBeNull();
  });

  test("a cookie set for Domain=com by one site is not sent to another .com site; one for its parent is sent to a sibling", async () => {
    const seen: Record<string, string> = {};
    server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (req) => {
        const host = (req.headers.get("host") ?? "").replace(/:\d+$/, "");
        seen[host] = req.headers.get("cookie") ?? "";
        if (host === "a.tracker.com") return new Response("ok", { headers: [["set-cookie", "tld=1; Domain=com"], ["set-cookie", "parent=2; Domain=tracker.com"], ["set-cookie", "own=3"]] });
        return new Response("ok");
      },
    });
    const routes = new Map<string, number | null>(["a.tracker.com", "b.tracker.com", "victim.com"].map((h) => [h, server!.port!]));
    const session = new HostSession({ outbound: standInHosts(routes), allowPrivate: false, deadlineMs: 10_000, maxBytes: 1024, maxRequests: 10, now: () => new Date() });
    await session.get("https://a.tracker.com/");
    await session.get("https://b.tracker.com/");
    await session.get("https://victim.com/");
    expect(seen["b.tracker.com"]).toBe("parent=2");
    expect(seen["victim.com"]).toBe("");
    expect(session.cookies().map((c) => `${c.name}@${c.domain}${c.hostOnly ? " (host only)" : ""}`).sort()).toEqual(["own@a.tracker.com (host only)", "parent@tracker.com"]);
  });
});
