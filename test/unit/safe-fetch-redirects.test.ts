// Every hop a document-host adapter makes is a safe-fetch of its own: a redirect from a recognised
// host (resolved to a public address) to a private one is refused before any connection with
// DEALGRAPH_ALLOW_PRIVATE_NETWORK off, on every kind of hop (an export redirect, Drive's
// virus-scan confirmation, a OneDrive download redirect, a DocSend verification link), and the
// size cap and the one deadline of a visit hold on later hops too.
import { afterEach, describe, expect, test } from "bun:test";
import type { Server } from "bun";
import { safeFetch, type OutboundOverrides } from "../../src/lib/safe-fetch.ts";
import { fetchHostedDocument } from "../../src/documents/hosts.adapters.ts";
import { HostSession } from "../../src/documents/hosts.session.ts";
import { HostError, recognizeHost } from "../../src/documents/hosts.ts";
import { standInHosts } from "../helpers/document-hosts.ts";
import { refusal } from "../helpers/safe-fetch.ts";

const servers: Server<unknown>[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.stop(true)));

type Route = (url: URL, req: Request) => Response | Promise<Response>;

/** One loopback server standing in for the named public hosts; `secret` counts what reaches a private one. */
function hosts(routes: Record<string, Route>, resolve: Record<string, string[]> = {}) {
  const hits: string[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) => {
      const host = (req.headers.get("host") ?? "").replace(/:\d+$/, "");
      const local = new URL(req.url);
      const url = new URL(`https://${host}${local.pathname}${local.search}`);
      hits.push(`${host} ${local.pathname}${local.search}`);
      return routes[host]?.(url, req) ?? new Response("no", { status: 404 });
    },
  });
  servers.push(server);
  const secret = { hits: 0 };
  const secretServer = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => (secret.hits++, new Response("internal")) });
  servers.push(secretServer);
  const outbound: OutboundOverrides = standInHosts(new Map(Object.keys(routes).map((h) => [h, server.port!])), { "intranet.docs.internal": ["10.0.0.8"], ...resolve });
  return { hits, secret, secretUrl: `http://127.0.0.1:${secretServer.port}/latest`, outbound };
}

const redirect = (to: string, status = 302) => new Response(null, { status, headers: { location: to } });
const pdf = () => new Response("%PDF-1.7\n" + "x".repeat(2000), { headers: { "content-type": "application/pdf" } });

function session(outbound: OutboundOverrides, o: Partial<ConstructorParameters<typeof HostSession>[0]> = {}) {
  return new HostSession({ outbound, allowPrivate: false, deadlineMs: 10_000, maxBytes: 1024 * 1024, maxRequests: 24, now: () => new Date(), ...o });
}


describe("a redirect from a recognised host to a private address is refused, never connected", () => {
  test("safeFetch following redirects: to loopback, to a mapped/decimal loopback, to a name resolving to 10/8", async () => {
    const targets: string[] = [];
    const world = hosts({ "docs.google.com": (url) => redirect(targets[Number(url.searchParams.get("i"))]) });
    targets.push(world.secretUrl, world.secretUrl.replace("127.0.0.1", "[::ffff:127.0.0.1]"), world.secretUrl.replace("127.0.0.1", "2130706433"), "https://intranet.docs.internal/export.pdf");
    for (const [i, target] of targets.entries()) {
      const error = await refusal(safeFetch(`https://docs.google.com/document/d/X/export?format=pdf&i=${i}`, { followRedirects: 5, requireHttps: false, ...world.outbound }));
      expect(error.code, target).toBe("blocked_address");
    }
    expect(world.hits).toHaveLength(4); // the recognised host answered each time...
    expect(world.secret.hits).toBe(0); // ...and nothing private was ever reached
    // A name is not echoed with the private address it resolves to.
    const named = await refusal(safeFetch("https://docs.google.com/document/d/X/export?format=pdf&i=3", { followRedirects: 5, requireHttps: false, ...world.outbound }));
    expect(named.message).toBe("intranet.docs.internal does not resolve to a public address; outbound requests reach public addresses only");
  });

  test("the same through a host session: each hop is its own checked safe-fetch", async () => {
    const world = hosts({ "docs.google.com": () => redirect("https://intranet.docs.internal/export.pdf", 307) });
    const error = await refusal(session(world.outbound).get("https://docs.google.com/presentation/d/X/export/pdf"));
    expect(error.code).toBe("blocked_address");
  });

  test("Drive's virus-scan confirmation hop: a confirm form pointing at a private address is refused", async () => {
    const world = hosts({
      "drive.google.com": (url) => redirect(`https://drive.usercontent.google.com/download?id=${url.searchParams.get("id")}&export=download`, 303),
      "drive.usercontent.google.com": () =>
        new Response(
          `<p>Google Drive can't scan this file for viruses.</p><form id="download-form" action="https://intranet.docs.internal/download" method="get"><input type="hidden" name="confirm" value="t"></form>`,
          { headers: { "content-type": "text/html" } },
        ),
    });
    const ctx = { session: session(world.outbound), link: recognizeHost("https://drive.google.com/file/d/BIG/view"), credentials: { email: null, password: null } };
    expect((await refusal(fetchHostedDocument(ctx))).code).toBe("blocked_address");
    expect(world.hits).toEqual(["drive.google.com /uc?export=download&id=BIG", "drive.usercontent.google.com /download?id=BIG&export=download"]);
  });

  test("a OneDrive download that redirects to loopback, after the 1drv.ms hop, is refused", async () => {
    let secretUrl = "";
    const world = hosts({
      "1drv.ms": () => redirect("https://onedrive.live.com/redir?resid=C%211&authkey=%21K", 301),
      "onedrive.live.com": () => redirect(secretUrl),
    });
    secretUrl = world.secretUrl;
    const ctx = { session: session(world.outbound), link: recognizeHost("https://1drv.ms/b/s!Abc"), credentials: { email: null, password: null } };
    expect((await refusal(fetchHostedDocument(ctx))).code).toBe("blocked_address");
    expect(world.hits).toEqual(["1drv.ms /b/s!Abc", "onedrive.live.com /download?cid=C&resid=C%211&authkey=%21K"]);
    expect(world.secret.hits).toBe(0);
  });

  test("a DocSend verification link that redirects to a private address is refused before the viewer is asked", async () => {
    const world = hosts({ "docsend.com": () => redirect("https://intranet.docs.internal/view") });
    const ctx = {
      session: session(world.outbound),
      link: recognizeHost("https://docsend.com/view/abc"),
      credentials: { email: "partner@acme.vc", password: null },
      verificationUrl: "https://docsend.com/view/abc/verify?token=t1",
    };
    expect((await refusal(fetchHostedDocument(ctx))).code).toBe("blocked_address");
    expect(world.hits).toEqual(["docsend.com /view/abc/verify?token=t1"]);
  });
});

describe("caps hold on every hop of a visit", () => {
  test("the size cap applies to the file behind Drive's confirmation, not only to the first page", async () => {
    const world = hosts({
      "drive.google.com": () =>
        new Response(`<form id="download-form" action="https://drive.usercontent.google.com/download" method="get"><input type="hidden" name="id" value="BIG"><input type="hidden" name="confirm" value="t"></form>`, {
          headers: { "content-type": "text/html" },
        }),
      "drive.usercontent.google.com": pdf,
    });
    const ctx = { session: session(world.outbound), link: recognizeHost("https://drive.google.com/file/d/BIG/view"), credentials: { email: null, password: null }, maxDocumentBytes: 1000 };
    const error = await fetchHostedDocument(ctx).catch((e) => e);
    expect(error).toBeInstanceOf(HostError);
    expect(error.message).toBe("Google Drive: the document is larger than 1000 bytes");
  });

  test("one deadline covers the visit: a confirmation hop that never answers times out the whole fetch", async () => {
    const world = hosts({
      "drive.google.com": () =>
        new Response(`<form id="download-form" action="https://drive.usercontent.google.com/download" method="get"><input type="hidden" name="confirm" value="t"></form>`, {
          headers: { "content-type": "text/html" },
        }),
      "drive.usercontent.google.com": () => new Promise<Response>(() => {}),
    });
    const ctx = { session: session(world.outbound, { deadlineMs: 1000 }), link: recognizeHost("https://drive.google.com/file/d/BIG/view"), credentials: { email: null, password: null } };
    const error = await refusal(fetchHostedDocument(ctx));
    expect(error.code).toBe("timeout");
    expect(error.message).toBe("No complete answer within 1 s");
  });

  test("a redirect loop ends at the hop limit; the visit's request budget ends a long chain", async () => {
    const world = hosts({ "1drv.ms": (url) => redirect(`https://1drv.ms/loop${Number(url.pathname.slice(5) || 0) + 1}`) });
    expect((await refusal(session(world.outbound).get("https://1drv.ms/loop0"))).code).toBe("too_many_redirects");
    const budget = await refusal(session(world.outbound, { maxRequests: 3 }).get("https://1drv.ms/loop0"));
    expect(budget.message).toBe("More than 3 requests for one document");
  });

  test("cookies stay with the host that set them: none is sent to another site on a redirect", async () => {
    const seen: (string | null)[] = [];
    const world = hosts({
      "docsend.com": () => new Response(null, { status: 302, headers: { location: "https://doc-04-docs.googleusercontent.com/x", "set-cookie": "dsv=granted; Path=/" } }),
      "doc-04-docs.googleusercontent.com": (_url, req) => (seen.push(req.headers.get("cookie")), pdf()),
    });
    const s = session(world.outbound);
    await s.get("https://docsend.com/view/abc");
    expect(seen).toEqual([null]);
    expect(s.cookies().map((c) => [c.domain, c.name])).toEqual([["docsend.com", "dsv"]]);
  });
});
