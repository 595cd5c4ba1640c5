// Loopback imitations of the identity providers' endpoints, for the Google Workspace and Microsoft
// 365 tests (CONTRACT.md "Google Workspace and Microsoft 365"), all on one HTTP server:
//   - Google's token endpoint (/google/token): verifies the RS256 assertion with the test service
//     account's public key and its claims (iss, sub, aud, scope, iat/exp), refuses a user outside
//     the domain (invalid_grant) or one whose delegation was withdrawn (unauthorized_client), and
//     issues a token per user;
//   - Microsoft's token endpoint (/ms/{tenant}/oauth2/v2.0/token): client credentials with the
//     client secret, or a client assertion verified with the certificate's key and x5t;
//   - the introspection endpoint Dovecot's oauth2 passdb asks about tokens (/introspect);
//   - Google's CalDAV (/caldav/v2/{address}/events/): the bearer token checked, then passed on to
//     a real Radicale as that user (Radicale mounted under /caldav/v2 with X-Script-Name);
//   - Microsoft Graph (/graph/v1.0/users/{address}/calendar and .../calendarView/delta): events as
//     Graph gives them, pages by @odata.nextLink, changes since an @odata.deltaLink.
// Keys are made at test time (node:crypto, openssl for the certificate) and never written to the repo.
import { spawnSync } from "node:child_process";
import { generateKeyPairSync, randomBytes, X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeProtectedHeader, importSPKI, jwtVerify } from "jose";
import type { MailUser, Radicale } from "./mail-servers.ts";

export const GOOGLE_SCOPES = ["https://mail.google.com/", "https://www.googleapis.com/auth/calendar.readonly"];
export const MS_IMAP_SCOPE = "https://outlook.office365.com/.default";
export const MS_GRAPH_SCOPE = "https://graph.microsoft.com/.default";

/** A Google service account's JSON key, as Google issues it, with a key made now. */
export function googleServiceAccount(): { json: string; publicPem: string; clientEmail: string } {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const clientEmail = "dealgraph-sync@dealgraph-test.iam.gserviceaccount.com";
  const json = JSON.stringify(
    {
      type: "service_account",
      project_id: "dealgraph-test",
      private_key_id: randomBytes(20).toString("hex"),
      private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      client_email: clientEmail,
      client_id: "109876543210987654321",
      auth_uri: "https://accounts.google.com/o/oauth2/auth",
      token_uri: "https://oauth2.googleapis.com/token",
    },
    null,
    2,
  );
  return { json, publicPem: publicKey.export({ type: "spki", format: "pem" }).toString(), clientEmail };
}

/** A self-signed certificate and its key in one PEM (what an admin uploads to the app registration, and keeps the key of). */
export function microsoftCertificate(): { pem: string; publicPem: string; thumbprint: string } {
  const dir = mkdtempSync(join(tmpdir(), "dealgraph-mscert-"));
  try {
    const r = spawnSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem", "-out", "cert.pem", "-days", "2", "-subj", "/CN=Dealgraph test app"], { cwd: dir, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`openssl req failed: ${r.stderr}`);
    const cert = readFileSync(join(dir, "cert.pem"), "utf8");
    const key = readFileSync(join(dir, "key.pem"), "utf8");
    const x509 = new X509Certificate(cert);
    const thumbprint = Buffer.from(x509.fingerprint.replace(/:/g, ""), "hex").toString("base64url");
    return { pem: `${cert}${key}`, publicPem: x509.publicKey.export({ type: "spki", format: "pem" }).toString(), thumbprint };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An event as Graph's calendarView gives it (only the fields Dealgraph reads, and a few more). */
export type GraphTestEvent = {
  id: string;
  uid?: string;
  type?: "singleInstance" | "occurrence" | "exception";
  originalStart?: string;
  /** An occurrence's series (its master's start is the earliest originalStart of its occurrences). */
  seriesMasterId?: string;
  start: string;
  subject?: string;
  isCancelled?: boolean;
  isOrganizer?: boolean;
  response?: "accepted" | "declined" | "tentativelyAccepted" | "notResponded" | "none" | "organizer";
  organizer?: string;
  attendees?: { address: string; name?: string; response?: string; type?: string }[];
};

type Issued = { kind: "google"; sub: string; scope: string } | { kind: "microsoft"; scope: string };

export type ProviderImitation = {
  origin: string;
  /** The env that points Dealgraph at the imitations. */
  env: Record<string, string>;
  introspectionUrl: string;
  google: {
    /** Addresses of the Workspace domain (others: invalid_grant). */
    users: Set<string>;
    /** Users whose delegation is withdrawn (unauthorized_client), and whose tokens stop working. */
    withdrawn: Set<string>;
    /** Assertions received, with their verified claims. */
    assertions: Record<string, unknown>[];
    /** Seconds each token lives. */
    expiresIn: number;
  };
  microsoft: {
    tenant: string;
    clientId: string;
    secret: string;
    /** Mailboxes Graph refuses (ErrorAccessDenied): the app was not granted them. */
    deniedMailboxes: Set<string>;
    /** Token requests: how the client authenticated, and the scope. */
    requests: { auth: "secret" | "assertion"; scope: string }[];
  };
  graph: {
    /** Sets a mailbox's events (a change for every event that differs: the delta lists it). */
    setEvents(address: string, events: GraphTestEvent[]): void;
    /** Removes an event (the delta lists it as @removed). */
    remove(address: string, id: string): void;
    /** Paths and queries asked, in order. */
    requests: string[];
  };
  /** Tokens issued so far. */
  issued(): number;
  /** Revokes a token before it expires (introspection, CalDAV and Graph refuse it from now on). */
  revoke(token: string): void;
  close(): Promise<void>;
};

export async function startProviderImitation(opts: { googlePublicPem: string; googleClientEmail: string; msCertPublicPem?: string; msThumbprint?: string; radicale?: Radicale | null; radicaleUsers?: MailUser[] }): Promise<ProviderImitation> {
  const googleKey = await importSPKI(opts.googlePublicPem, "RS256");
  const msKey = opts.msCertPublicPem ? await importSPKI(opts.msCertPublicPem, "RS256") : null;
  const tokens = new Map<string, Issued>();
  const issue = (t: Issued, expiresIn: number) => {
    const token = `ya29.test-${randomBytes(24).toString("base64url")}`;
    tokens.set(token, t);
    return Response.json({ access_token: token, token_type: "Bearer", expires_in: expiresIn });
  };
  const oauthError = (status: number, error: string, description: string) => Response.json({ error, error_description: description }, { status });
  const graphError = (status: number, code: string, message: string) => Response.json({ error: { code, message } }, { status });

  const google: ProviderImitation["google"] = { users: new Set(), withdrawn: new Set(), assertions: [], expiresIn: 3600 };
  const microsoft: ProviderImitation["microsoft"] = { tenant: "4f2c1e8a-7d3b-4c9e-9a1f-2b6d8e0c5a71", clientId: "0b9e3c2d-5a4f-4e8b-b1c7-6d2e9f8a3b50", secret: `ms-secret-${randomBytes(12).toString("hex")}`, deniedMailboxes: new Set(), requests: [] };
  // Graph: per mailbox, events with the version they last changed at, and removals.
  let version = 0;
  const mailboxes = new Map<string, { events: Map<string, { event: GraphTestEvent; at: number }>; removed: Map<string, number> }>();
  const mailbox = (a: string) => {
    let m = mailboxes.get(a.toLowerCase());
    if (!m) mailboxes.set(a.toLowerCase(), (m = { events: new Map(), removed: new Map() }));
    return m;
  };
  const graphRequests: string[] = [];
  let origin = "";

  const bearer = (req: Request) => tokens.get((req.headers.get("authorization") ?? "").replace(/^Bearer /, ""));

  const graphJson = (e: GraphTestEvent) => ({
    id: e.id,
    uid: e.uid ?? e.id,
    iCalUId: `ical-${e.id}`,
    type: e.type ?? "singleInstance",
    originalStart: e.originalStart ?? null,
    seriesMasterId: e.seriesMasterId ?? null,
    subject: e.subject ?? "Meeting",
    start: { dateTime: e.start.replace(/Z$/, "").replace(/(\.\d+)?$/, ".0000000"), timeZone: "UTC" },
    end: { dateTime: new Date(Date.parse(e.start) + 3600_000).toISOString().replace(/Z$/, "").replace(/\.\d+$/, ".0000000"), timeZone: "UTC" },
    isCancelled: e.isCancelled ?? false,
    isOrganizer: e.isOrganizer ?? false,
    changeKey: `ck-${e.id}-${version}`,
    responseStatus: { response: e.response ?? "accepted", time: "0001-01-01T00:00:00Z" },
    organizer: e.organizer ? { emailAddress: { name: e.organizer.split("@")[0], address: e.organizer } } : null,
    attendees: (e.attendees ?? []).map((a) => ({ type: a.type ?? "required", status: { response: a.response ?? "accepted", time: "0001-01-01T00:00:00Z" }, emailAddress: { name: a.name ?? a.address.split("@")[0], address: a.address } })),
  });

  type Skip = { address: string; start: string; end: string; since: number; upTo: number; offset: number };
  const PAGE = 2;
  function deltaPage(s: Skip) {
    const m = mailbox(s.address);
    const inWindow = (e: GraphTestEvent) => Date.parse(e.start) >= Date.parse(s.start) && Date.parse(e.start) < Date.parse(s.end);
    const all: object[] = [
      ...[...m.events.values()].filter((x) => x.at > s.since && x.at <= s.upTo && inWindow(x.event)).map((x) => graphJson(x.event)),
      ...(s.since > 0 ? [...m.removed].filter(([, at]) => at > s.since && at <= s.upTo).map(([id]) => ({ id, "@removed": { reason: "deleted" } })) : []),
    ];
    const value = all.slice(s.offset, s.offset + PAGE);
    const base = `${origin}/graph/v1.0/users/${encodeURIComponent(s.address)}/calendarView/delta`;
    const more = s.offset + PAGE < all.length;
    const link = more
      ? { "@odata.nextLink": `${base}?$skiptoken=${Buffer.from(JSON.stringify({ ...s, offset: s.offset + PAGE })).toString("base64url")}` }
      : { "@odata.deltaLink": `${base}?$deltatoken=${Buffer.from(JSON.stringify({ address: s.address, start: s.start, end: s.end, since: s.upTo })).toString("base64url")}` };
    return Response.json({ "@odata.context": `${origin}/graph/v1.0/$metadata#Collection(event)`, value, ...link });
  }

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const path = url.pathname;
    if (req.method === "POST" && path === "/google/token") {
      const form = new URLSearchParams(await req.text());
      if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") return oauthError(400, "unsupported_grant_type", "Invalid grant_type");
      let claims: Record<string, unknown>;
      try {
        ({ payload: claims } = await jwtVerify(form.get("assertion") ?? "", googleKey, { algorithms: ["RS256"], issuer: opts.googleClientEmail, audience: `${origin}/google/token`, requiredClaims: ["sub", "iat", "exp", "scope"] }));
      } catch (error) {
        return oauthError(400, "invalid_grant", `Invalid JWT Signature or claims (${(error as Error).message})`);
      }
      const life = Number(claims.exp) - Number(claims.iat);
      if (!(life > 0 && life <= 3600)) return oauthError(400, "invalid_grant", "Invalid JWT: Token must be a short-lived token (60 minutes)");
      const scopes = String(claims.scope).split(" ");
      if (!GOOGLE_SCOPES.every((s) => scopes.includes(s))) return oauthError(400, "invalid_scope", "The scopes asked are not those granted");
      google.assertions.push(claims);
      const sub = String(claims.sub).toLowerCase();
      if (!google.users.has(sub)) return oauthError(400, "invalid_grant", "Invalid email or User ID");
      if (google.withdrawn.has(sub)) return oauthError(401, "unauthorized_client", "Client is unauthorized to retrieve access tokens using this method, or client not authorized for any of the scopes requested.");
      return issue({ kind: "google", sub, scope: GOOGLE_SCOPES.join(" ") }, google.expiresIn);
    }
    const ms = /^\/ms\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(path);
    if (req.method === "POST" && ms) {
      const form = new URLSearchParams(await req.text());
      if (decodeURIComponent(ms[1]) !== microsoft.tenant) return oauthError(400, "invalid_request", `AADSTS90002: Tenant '${decodeURIComponent(ms[1])}' not found.\r\nTrace ID: 0\r\nCorrelation ID: 0`);
      if (form.get("grant_type") !== "client_credentials") return oauthError(400, "unsupported_grant_type", "AADSTS70003: The app requested an unsupported grant type.");
      if (form.get("client_id") !== microsoft.clientId) return oauthError(400, "unauthorized_client", `AADSTS700016: Application with identifier '${form.get("client_id")}' was not found in the directory.`);
      const scope = form.get("scope") ?? "";
      if (scope !== MS_IMAP_SCOPE && scope !== MS_GRAPH_SCOPE) return oauthError(400, "invalid_scope", `AADSTS1002012: The provided value for scope ${scope} is not valid.`);
      if (form.has("client_secret")) {
        if (form.get("client_secret") !== microsoft.secret) return oauthError(401, "invalid_client", "AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID.\r\nTrace ID: 0\r\nCorrelation ID: 0\r\nTimestamp: 2026-11-29 00:00:00Z");
        microsoft.requests.push({ auth: "secret", scope });
      } else {
        const assertion = form.get("client_assertion") ?? "";
        if (form.get("client_assertion_type") !== "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" || !msKey) return oauthError(401, "invalid_client", "AADSTS7000216: 'client_assertion', 'client_secret' or 'request' is required for the 'client_credentials' grant type.");
        try {
          if (decodeProtectedHeader(assertion).x5t !== opts.msThumbprint) throw new Error("no certificate with this x5t");
          await jwtVerify(assertion, msKey, { algorithms: ["RS256"], issuer: microsoft.clientId, subject: microsoft.clientId, audience: `${origin}${path}`, requiredClaims: ["jti", "exp", "nbf"] });
        } catch (error) {
          return oauthError(401, "invalid_client", `AADSTS700027: Client assertion failed signature validation (${(error as Error).message}).`);
        }
        microsoft.requests.push({ auth: "assertion", scope });
      }
      return issue({ kind: "microsoft", scope }, 3599);
    }
    if (req.method === "POST" && path === "/introspect") {
      const token = new URLSearchParams(await req.text()).get("token") ?? "";
      const t = tokens.get(token);
      // An unknown or withdrawn token answers an address no login has: Dovecot refuses the login.
      if (t?.kind === "google" && !google.withdrawn.has(t.sub) && t.scope.includes("https://mail.google.com/")) return Response.json({ active: "true", email: t.sub, scope: t.scope });
      // Microsoft's app token reads any mailbox of the tenant Exchange lets it (Dovecot's username_filter).
      if (t?.kind === "microsoft" && t.scope === MS_IMAP_SCOPE) return Response.json({ active: "true", email: "app@acme.vc", scope: t.scope });
      return Response.json({ active: "false", email: "" });
    }
    if (path.startsWith("/caldav/v2/")) {
      const t = bearer(req);
      const calendarOwner = decodeURIComponent(path.split("/")[3] ?? "").toLowerCase();
      if (!t || t.kind !== "google" || google.withdrawn.has(t.sub)) return new Response("Unauthorized", { status: 401 });
      if (t.sub !== calendarOwner) return new Response("Forbidden", { status: 403 });
      const user = opts.radicaleUsers?.find((u) => u.login === t.sub);
      if (!opts.radicale || !user) return new Response("no such calendar", { status: 404 });
      const headers = new Headers(req.headers);
      headers.set("authorization", `Basic ${Buffer.from(`${user.login}:${user.password}`).toString("base64")}`);
      headers.set("x-script-name", "/caldav/v2");
      headers.delete("host");
      const body = req.method === "GET" || req.method === "HEAD" ? undefined : await req.arrayBuffer();
      const r = await fetch(`${opts.radicale.url}${path.slice("/caldav/v2".length)}${url.search}`, { method: req.method, headers, body });
      // fetch() has decoded the body: its encoding and length headers no longer apply.
      const back = new Headers(r.headers);
      back.delete("content-encoding");
      back.delete("content-length");
      return new Response(await r.arrayBuffer(), { status: r.status, headers: back });
    }
    const g = /^\/graph\/v1\.0\/users\/([^/]+)\/(calendar|calendarView\/delta|events\/[^/]+)$/.exec(path);
    if (req.method === "GET" && g) {
      graphRequests.push(`${path}${url.search}`);
      const t = bearer(req);
      if (!t || t.kind !== "microsoft" || t.scope !== MS_GRAPH_SCOPE) return graphError(401, "InvalidAuthenticationToken", "Access token validation failure. Invalid audience.");
      const address = decodeURIComponent(g[1]).toLowerCase();
      if (microsoft.deniedMailboxes.has(address)) return graphError(403, "ErrorAccessDenied", "Access is denied. Check credentials and try again.");
      if (!mailboxes.has(address)) return graphError(404, "ErrorInvalidUser", `The requested user '${address}' is invalid.`);
      if (g[2] === "calendar") return Response.json({ id: `cal-${address}`, name: "Calendar" });
      if (g[2].startsWith("events/")) {
        const master = decodeURIComponent(g[2].slice("events/".length));
        const starts = [...mailbox(address).events.values()].filter((x) => x.event.seriesMasterId === master).map((x) => x.event.originalStart ?? x.event.start).sort();
        if (!starts.length) return graphError(404, "ErrorItemNotFound", "The specified object was not found in the store.");
        return Response.json({ id: master, type: "seriesMaster", start: { dateTime: starts[0].replace(/Z$/, "").replace(/(\.\d+)?$/, ".0000000"), timeZone: "UTC" } });
      }
      const skip = url.searchParams.get("$skiptoken");
      const delta = url.searchParams.get("$deltatoken");
      if (skip) return deltaPage(JSON.parse(Buffer.from(skip, "base64url").toString()) as Skip);
      if (delta) {
        const d = JSON.parse(Buffer.from(delta, "base64url").toString()) as Omit<Skip, "offset" | "upTo">;
        return deltaPage({ ...d, upTo: version, offset: 0 });
      }
      const start = url.searchParams.get("startDateTime");
      const end = url.searchParams.get("endDateTime");
      if (!start || !end) return graphError(400, "ErrorInvalidParameter", "This request requires a time window specified by the query string parameters StartDateTime and EndDateTime.");
      return deltaPage({ address, start: new Date(start).toISOString(), end: new Date(end).toISOString(), since: 0, upTo: version, offset: 0 });
    }
    return new Response("not found", { status: 404 });
  }

  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: handle });
  origin = `http://127.0.0.1:${server.port}`;
  return {
    origin,
    env: {
      DEALGRAPH_GOOGLE_TOKEN_URL: `${origin}/google/token`,
      DEALGRAPH_GOOGLE_CALDAV_URL: `${origin}/caldav/v2/`,
      DEALGRAPH_MICROSOFT_LOGIN_URL: `${origin}/ms`,
      DEALGRAPH_GRAPH_URL: `${origin}/graph`,
    },
    introspectionUrl: `${origin}/introspect`,
    google,
    microsoft,
    graph: {
      setEvents(address, events) {
        const m = mailbox(address);
        version++;
        for (const e of events) {
          const before = m.events.get(e.id);
          if (!before || JSON.stringify(before.event) !== JSON.stringify(e)) m.events.set(e.id, { event: e, at: version });
          m.removed.delete(e.id);
        }
      },
      remove(address, id) {
        const m = mailbox(address);
        version++;
        m.events.delete(id);
        m.removed.set(id, version);
      },
      requests: graphRequests,
    },
    issued: () => tokens.size,
    revoke: (token) => void tokens.delete(token),
    close: async () => {
      await server.stop(true);
    },
  };
}
