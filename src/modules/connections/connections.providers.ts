// Google Workspace and Microsoft 365 (CONTRACT.md "Google Workspace and Microsoft 365"): an
// administrator authorizes Dealgraph once for the whole domain, and users connect with no
// password. This file reads and checks what the administrator gives (a service account's JSON key;
// an app registration's tenant, client id and secret or certificate), seals it, and gets OAuth 2.0
// access tokens with it:
//   - Google: a JWT per user (RFC 7523: iss = the service account, sub = the user's address, the
//     mail and calendar scopes, aud = the token URL), RS256-signed with the service account's key,
//     exchanged at the token URL (domain-wide delegation);
//   - Microsoft: client credentials (a client secret, or a client assertion JWT signed with the
//     certificate's key, its SHA-1 thumbprint as x5t) at {login}/{tenant}/oauth2/v2.0/token, one
//     token per scope (IMAP, Graph) for every mailbox of the tenant.
// Tokens live in memory only (per process), reused until shortly before they expire, and are never
// logged or shown. The JWTs are built and signed by `jose`.
import { createPrivateKey, randomUUID, X509Certificate } from "node:crypto";
import { importPKCS8, SignJWT } from "jose";
import { perDeps, type Deps } from "../../deps.ts";
import { invalid } from "../../http/errors.ts";
import { ConnectionFailure } from "./connections.failures.ts";
import { policedFetch, type HttpPolicy } from "./connections.http.ts";
import type { mailServers } from "./connections.tables.ts";

type MailServer = typeof mailServers.$inferSelect;

export type Provider = "google" | "microsoft";

/** Where each provider's IMAP is (`--imap` beside `--provider` points elsewhere). */
export const PROVIDER_IMAP: Record<Provider, string> = { google: "imap.gmail.com", microsoft: "outlook.office365.com" };

export const GOOGLE_SCOPES = ["https://mail.google.com/", "https://www.googleapis.com/auth/calendar.readonly"];
export const MICROSOFT_SCOPES = { mail: "https://outlook.office365.com/.default", calendar: "https://graph.microsoft.com/.default" } as const;

const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";
const GOOGLE_CALDAV_URL = "https://apidata.googleusercontent.com/caldav/v2/";
const MICROSOFT_LOGIN_URL = "https://login.microsoftonline.com";
const GRAPH_URL = "https://graph.microsoft.com";

/** The provider's public settings (kept in clear: nothing here opens anything). */
export type ProviderSettings =
  | { kind: "google"; client_email: string; client_id: string | null; private_key_id: string | null; token_uri: string }
  | { kind: "microsoft"; tenant: string; client_id: string; credential: "secret" | "certificate"; thumbprint: string | null };

/** What is sealed: the service account's key, the client secret, or the certificate and its key. */
type ProviderSecret = { private_key?: string; client_secret?: string; certificate?: string };

export type ProviderInput =
  | { provider: "google"; serviceAccountJson: string }
  | { provider: "microsoft"; tenant?: string; clientId?: string; clientSecret?: string; certificatePem?: string };

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DOMAIN = /^(?=.{4,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;

/** A private key PEM (PKCS#1 or PKCS#8) as PKCS#8 for jose; throws with the reason when it is none. */
function pkcs8(pem: string): string {
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType !== "rsa") throw new Error(`it is a ${key.asymmetricKeyType} key, and RS256 takes an RSA key`);
  return key.export({ type: "pkcs8", format: "pem" }).toString();
}

const sealContext = (orgId: string) => `mail-server:${orgId}`;

/**
 * Checks what the administrator gave and returns the settings and the sealed secret (throws 422
 * with the reason; the reason never quotes the key or the secret).
 */
export async function readProviderInput(deps: Deps, orgId: string, input: ProviderInput): Promise<{ settings: ProviderSettings; sealed: string }> {
  if (input.provider === "google") {
    let key: Record<string, unknown>;
    try {
      key = JSON.parse(input.serviceAccountJson) as Record<string, unknown>;
    } catch (error) {
      throw invalid(["service_account_file"], `--service-account-file is not JSON (${(error as Error).message.split("\n")[0].slice(0, 120)}): give the key file as Google issues it (IAM > Service accounts > Keys > Add key > JSON)`);
    }
    if (!key || typeof key !== "object" || Array.isArray(key)) throw invalid(["service_account_file"], "--service-account-file must be a JSON object (a service account's key file)");
    if (key.type !== "service_account") throw invalid(["service_account_file"], `--service-account-file is not a service account's key (its "type" is ${JSON.stringify(key.type ?? null)}, not "service_account")`);
    const email = typeof key.client_email === "string" ? key.client_email.trim() : "";
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw invalid(["service_account_file"], '--service-account-file has no "client_email" (the service account\'s address)');
    if (typeof key.private_key !== "string" || !key.private_key.includes("PRIVATE KEY")) throw invalid(["service_account_file"], '--service-account-file has no "private_key" (a PEM private key)');
    let privateKey: string;
    try {
      privateKey = pkcs8(key.private_key);
      await importPKCS8(privateKey, "RS256");
    } catch (error) {
      throw invalid(["service_account_file"], `the "private_key" of --service-account-file cannot be used to sign: ${(error as Error).message.slice(0, 160)}`);
    }
    const tokenUri = typeof key.token_uri === "string" && key.token_uri ? key.token_uri : GOOGLE_TOKEN_URL;
    if (!URL.canParse(tokenUri) || new URL(tokenUri).protocol !== "https:") throw invalid(["service_account_file"], `the "token_uri" of --service-account-file must be an https URL, got ${JSON.stringify(tokenUri.slice(0, 200))}`);
    const settings: ProviderSettings = {
      kind: "google",
      client_email: email,
      client_id: typeof key.client_id === "string" ? key.client_id : null,
      private_key_id: typeof key.private_key_id === "string" ? key.private_key_id : null,
      token_uri: tokenUri,
    };
    return { settings, sealed: await deps.secrets.box.encrypt(JSON.stringify({ private_key: privateKey } satisfies ProviderSecret), sealContext(orgId)) };
  }
  const tenant = input.tenant?.trim() ?? "";
  if (!tenant) throw invalid(["tenant"], "--tenant TENANT_ID is required with --provider microsoft (the directory (tenant) ID of the app registration, or the tenant's domain)");
  if (!GUID.test(tenant) && !DOMAIN.test(tenant)) throw invalid(["tenant"], `--tenant must be the tenant's ID (a GUID) or its domain (e.g. contoso.onmicrosoft.com), got ${JSON.stringify(tenant.slice(0, 100))}`);
  const clientId = input.clientId?.trim() ?? "";
  if (!clientId) throw invalid(["client_id"], "--client-id ID is required with --provider microsoft (the application (client) ID of the app registration)");
  if (!GUID.test(clientId)) throw invalid(["client_id"], `--client-id must be the application (client) ID, a GUID, got ${JSON.stringify(clientId.slice(0, 100))}`);
  if ((input.clientSecret === undefined) === (input.certificatePem === undefined)) throw invalid(["client_secret_file"], "give exactly one of --client-secret-file FILE or --certificate-file PEM with --provider microsoft");
  if (input.clientSecret !== undefined) {
    const secret = input.clientSecret.split(/\r?\n/)[0].trim();
    if (!secret) throw invalid(["client_secret_file"], "--client-secret-file is empty (its first line is the client secret's value)");
    const settings: ProviderSettings = { kind: "microsoft", tenant, client_id: clientId, credential: "secret", thumbprint: null };
    return { settings, sealed: await deps.secrets.box.encrypt(JSON.stringify({ client_secret: secret } satisfies ProviderSecret), sealContext(orgId)) };
  }
  const pem = input.certificatePem!;
  const certPem = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(pem)?.[0];
  const keyPem = /-----BEGIN (?:RSA )?PRIVATE KEY-----[\s\S]+?-----END (?:RSA )?PRIVATE KEY-----/.exec(pem)?.[0];
  if (!certPem || !keyPem) throw invalid(["certificate_file"], "--certificate-file must be a PEM file holding the certificate uploaded to the app registration and its private key (-----BEGIN CERTIFICATE----- and -----BEGIN PRIVATE KEY-----)");
  let cert: X509Certificate;
  let privateKey: string;
  try {
    cert = new X509Certificate(certPem);
    privateKey = pkcs8(keyPem);
  } catch (error) {
    throw invalid(["certificate_file"], `--certificate-file cannot be read: ${(error as Error).message.slice(0, 160)}`);
  }
  if (!cert.checkPrivateKey(createPrivateKey(privateKey))) throw invalid(["certificate_file"], "the private key in --certificate-file is not the certificate's");
  // x5t: the base64url SHA-1 thumbprint of the certificate, how Microsoft finds the uploaded certificate.
  const thumbprint = Buffer.from(cert.fingerprint.replace(/:/g, ""), "hex").toString("base64url");
  const settings: ProviderSettings = { kind: "microsoft", tenant, client_id: clientId, credential: "certificate", thumbprint };
  return { settings, sealed: await deps.secrets.box.encrypt(JSON.stringify({ private_key: privateKey, certificate: certPem } satisfies ProviderSecret), sealContext(orgId)) };
}

/** The settings of a provider org; null for a password (imap) org. */
export function providerSettings(server: MailServer): ProviderSettings | null {
  if (server.provider === "imap" || !server.providerSettings) return null;
  return JSON.parse(server.providerSettings) as ProviderSettings;
}

const trimSlash = (u: string) => u.replace(/\/+$/, "");

/** The Google token URL (also the JWT's aud): DEALGRAPH_GOOGLE_TOKEN_URL, else the key file's token_uri. */
function googleTokenUrl(deps: Deps, settings: Extract<ProviderSettings, { kind: "google" }>): string {
  return deps.config.providerEndpoints.googleTokenUrl ?? settings.token_uri;
}

function microsoftTokenUrl(deps: Deps, tenant: string): string {
  return `${trimSlash(deps.config.providerEndpoints.microsoftLoginUrl ?? MICROSOFT_LOGIN_URL)}/${encodeURIComponent(tenant)}/oauth2/v2.0/token`;
}

/** Graph's base with `/v1.0` (DEALGRAPH_GRAPH_URL, `/v1.0` appended when absent). */
export function graphBase(deps: Deps): string {
  const base = trimSlash(deps.config.providerEndpoints.graphUrl ?? GRAPH_URL);
  return /\/v1\.0$/.test(base) ? base : `${base}/v1.0`;
}

/** The user's primary calendar on Google's CalDAV (DEALGRAPH_GOOGLE_CALDAV_URL is the base). */
export function googleCalendarUrl(deps: Deps, address: string): string {
  const base = deps.config.providerEndpoints.googleCaldavUrl ?? GOOGLE_CALDAV_URL;
  return `${base.endsWith("/") ? base : `${base}/`}${encodeURIComponent(address)}/events/`;
}

/**
 * How requests to a provider's endpoint go out: the provider's own public hosts as any outbound
 * fetch (https, public addresses); an endpoint the operator pointed elsewhere (DEALGRAPH_*_URL, an
 * air-gapped proxy) may be on a private address and signed by the firm's CA.
 */
export function providerPolicy(deps: Deps, server: MailServer, url: string): HttpPolicy {
  const e = deps.config.providerEndpoints;
  const origin = new URL(url).origin;
  const overridden = [e.googleTokenUrl, e.googleCaldavUrl, e.microsoftLoginUrl, e.graphUrl].some((o) => o !== null && new URL(o).origin === origin);
  return overridden ? { allowPrivate: true, ca: server.caPem } : { allowPrivate: deps.config.allowPrivateNetwork, ca: null };
}

/** What a token endpoint said when it refused, in one line (Microsoft's descriptions add trace lines). */
function refusal(body: unknown): string {
  const b = (body ?? {}) as { error?: unknown; error_description?: unknown };
  const error = typeof b.error === "string" ? b.error : "refused";
  const description = typeof b.error_description === "string" ? b.error_description.split(/\r?\n/)[0].trim().slice(0, 300) : "";
  return description ? `${error}: ${description}` : error;
}

type Cached = { token: string; expiresAt: number };

/** Reuse a token until this long before it expires (or half its life, when it lives shorter). */
const REFRESH_BEFORE_MS = 5 * 60_000;

export type TokenPurpose = "mail" | "calendar";

export const providerTokens = perDeps((deps: Deps) => {
  const cache = new Map<string, Cached>();
  const pending = new Map<string, Promise<Cached>>();
  let requests = 0;

  async function secretOf(server: MailServer): Promise<ProviderSecret> {
    try {
      return JSON.parse(await deps.secrets.box.decrypt(server.providerSealed ?? "", sealContext(server.orgId))) as ProviderSecret;
    } catch {
      throw new ConnectionFailure("config", "the organization's provider key cannot be opened with this server's key (was the data dir moved without its secret.key?): an administrator runs `dealgraph admin mail-server set` again");
    }
  }

  async function post(server: MailServer, url: string, form: Record<string, string>, who: string): Promise<Cached> {
    const fetch = policedFetch(deps, providerPolicy(deps, server, url), { timeoutMs: 30_000, maxBytes: 256 * 1024 });
    requests++;
    const response = await fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" }, body: new URLSearchParams(form).toString() });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: said below
    }
    if (response.status >= 500) throw new ConnectionFailure("unreachable", `${who} failed on the provider's side (HTTP ${response.status})`);
    if (response.status !== 200) {
      if (body === null) throw new ConnectionFailure("protocol", `${who} answered HTTP ${response.status} without a JSON reason`);
      throw new ConnectionFailure("auth", `${who} refused: ${refusal(body)}`);
    }
    const b = (body ?? {}) as { access_token?: unknown; expires_in?: unknown };
    if (typeof b.access_token !== "string" || !b.access_token) throw new ConnectionFailure("protocol", `${who} answered without an access token`);
    const life = Number(b.expires_in);
    const lifeMs = Number.isFinite(life) && life > 0 ? life * 1000 : 3600_000;
    return { token: b.access_token, expiresAt: deps.clock.now().getTime() + lifeMs - Math.min(REFRESH_BEFORE_MS, lifeMs / 2) };
  }

  async function request(server: MailServer, settings: ProviderSettings, address: string, purpose: TokenPurpose): Promise<Cached> {
    const secret = await secretOf(server);
    if (settings.kind === "google") {
      const url = googleTokenUrl(deps, settings);
      const key = await importPKCS8(secret.private_key ?? "", "RS256");
      // JWT times are the provider's: real time, whatever clock runs the cache.
      const now = Math.floor(Date.now() / 1000);
      const assertion = await new SignJWT({ scope: GOOGLE_SCOPES.join(" ") })
        .setProtectedHeader({ alg: "RS256", typ: "JWT", ...(settings.private_key_id ? { kid: settings.private_key_id } : {}) })
        .setIssuer(settings.client_email)
        .setSubject(address)
        .setAudience(url)
        .setIssuedAt(now)
        .setExpirationTime(now + 3600)
        .sign(key);
      return post(server, url, { grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }, `Google's token endpoint (for ${address})`);
    }
    const url = microsoftTokenUrl(deps, settings.tenant);
    const form: Record<string, string> = { grant_type: "client_credentials", client_id: settings.client_id, scope: MICROSOFT_SCOPES[purpose] };
    if (settings.credential === "secret") form.client_secret = secret.client_secret ?? "";
    else {
      const key = await importPKCS8(secret.private_key ?? "", "RS256");
      const now = Math.floor(Date.now() / 1000);
      form.client_assertion_type = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
      form.client_assertion = await new SignJWT({})
        .setProtectedHeader({ alg: "RS256", typ: "JWT", x5t: settings.thumbprint ?? "" })
        .setIssuer(settings.client_id)
        .setSubject(settings.client_id)
        .setAudience(url)
        .setJti(randomUUID())
        .setNotBefore(now)
        .setIssuedAt(now)
        .setExpirationTime(now + 600)
        .sign(key);
    }
    return post(server, url, form, `Microsoft's token endpoint (tenant ${settings.tenant}, app ${settings.client_id})`);
  }

  /**
   * An access token for `address` (Google: that user's, by delegation; Microsoft: the app's, for
   * every mailbox) and `purpose`. `fresh`: never the cached one (it was refused).
   */
  async function token(server: MailServer, address: string, purpose: TokenPurpose, opts: { fresh?: boolean } = {}): Promise<string> {
    return (await tokenOf(server, address, purpose, opts)).token;
  }

  /** `token`, saying whether it came from the cache. */
  async function tokenOf(server: MailServer, address: string, purpose: TokenPurpose, opts: { fresh?: boolean } = {}): Promise<{ token: string; cached: boolean }> {
    const settings = providerSettings(server);
    if (!settings) throw new ConnectionFailure("config", "the organization's mail server takes passwords, not a provider's tokens");
    // Settings changed (updatedAt): the old tokens are not used again.
    const key = [server.orgId, server.updatedAt, settings.kind, settings.kind === "google" ? address.toLowerCase() : purpose].join("\n");
    const hit = cache.get(key);
    if (hit && !opts.fresh && hit.expiresAt > deps.clock.now().getTime()) return { token: hit.token, cached: true };
    let inFlight = pending.get(key);
    if (!inFlight) {
      inFlight = request(server, settings, address, purpose).finally(() => pending.delete(key));
      pending.set(key, inFlight);
    }
    const got = await inFlight;
    cache.set(key, got);
    return { token: got.token, cached: false };
  }

  return { token, tokenOf, requests: () => requests };
});

/**
 * A fetch that sends the provider's token (whatever authorization the caller set) and, when a
 * cached token is refused (401: revoked before it expired), asks for a fresh one once and sends
 * the request again.
 */
export function bearerFetch(inner: typeof fetch, token: (opts: { fresh: boolean }) => Promise<{ token: string; cached: boolean }>): typeof fetch {
  const call = async (input: string | URL | Request, init: RequestInit = {}) => {
    const send = (value: string) => {
      const headers = new Headers(init.headers);
      headers.set("authorization", `Bearer ${value}`);
      return inner(input, { ...init, headers });
    };
    const first = await token({ fresh: false });
    const response = await send(first.token);
    if (response.status !== 401 || !first.cached) return response;
    return send((await token({ fresh: true })).token);
  };
  return call as typeof fetch;
}
