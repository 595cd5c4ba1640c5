// Dynamic client registration (RFC 7591) of public clients, and the redirect URI rules: a redirect
// URI is https, or http on a loopback address (RFC 8252 section 7.3), with no fragment and no user
// info; at authorization a loopback one matches on any port (native apps take an ephemeral port).
import { eq, sql } from "drizzle-orm";
import { perDeps, type Deps } from "../../deps.ts";
import { isUuid, newId } from "../../lib/ids.ts";
import { OAuthError } from "./oauth.errors.ts";
import { parseScope, scopeString, type GrantScope } from "./oauth.scope.ts";
import { oauthClients } from "./oauth.tables.ts";

export type ClientRecord = typeof oauthClients.$inferSelect;
export type Client = Omit<ClientRecord, "redirectUris"> & { redirectUris: string[] };

export const MAX_REDIRECT_URIS = 10;
const MAX_URI_CHARS = 2000;
const MAX_TEXT_CHARS = 200;
const GRANT_TYPES = ["authorization_code", "refresh_token"];
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Why a redirect URI may not be registered (null: it may). */
export function redirectUriProblem(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0) return "each redirect URI must be a non-empty string";
  if (value.length > MAX_URI_CHARS) return `a redirect URI may be at most ${MAX_URI_CHARS} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${JSON.stringify(value.slice(0, 100))} is not an absolute URL`;
  }
  if (url.hash || value.includes("#")) return `${JSON.stringify(value.slice(0, 100))} has a fragment, which a redirect URI may not have`;
  if (url.username || url.password) return `${JSON.stringify(value.slice(0, 100))} carries user info, which a redirect URI may not`;
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return `${JSON.stringify(value.slice(0, 100))} is neither https nor http on a loopback address (127.0.0.1, [::1] or localhost)`;
}

/** Whether a redirect URI asked for at authorization is one the client registered (RFC 8252: a loopback one on any port). */
export function redirectUriMatches(asked: string, registered: string): boolean {
  if (asked === registered) return true;
  let a: URL, r: URL;
  try {
    a = new URL(asked);
    r = new URL(registered);
  } catch {
    return false;
  }
  if (a.protocol !== "http:" || r.protocol !== "http:" || !LOOPBACK_HOSTS.has(a.hostname)) return false;
  return a.hostname === r.hostname && a.pathname === r.pathname && a.search === r.search && !a.hash && !a.username && !a.password;
}

export type Registration = {
  client: Client;
  /** The registration response (RFC 7591 section 3.2.1). */
  response: Record<string, unknown>;
};

const metadataError = (description: string) => new OAuthError("invalid_client_metadata", description);

function optionalText(body: Record<string, unknown>, name: string): string | null {
  const value = body[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") throw metadataError(`${name} must be a string`);
  const text = value.replace(/[\u0000-\u001f\u007f]/g, " ").trim();
  if (text.length > MAX_TEXT_CHARS) throw metadataError(`${name} may be at most ${MAX_TEXT_CHARS} characters`);
  return text || null;
}

function optionalList(body: Record<string, unknown>, name: string, allowed: string[]): string[] | null {
  const value = body[name];
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) throw metadataError(`${name} must be an array of strings`);
  const unknown = value.filter((v) => !allowed.includes(v));
  if (unknown.length) throw metadataError(`${name} may only name ${allowed.join(" and ")}; not ${unknown.map((v) => JSON.stringify(String(v).slice(0, 50))).join(", ")}`);
  return value as string[];
}

export const oauthClientsService = perDeps((deps: Deps) => {
  const { db, clock } = deps;
  const byId = db.select().from(oauthClients).where(eq(oauthClients.id, sql.placeholder("id"))).prepare();

  const asClient = (row: ClientRecord): Client => ({ ...row, redirectUris: JSON.parse(row.redirectUris) as string[] });

  /**
   * Registers a public client from its metadata (the parsed JSON body); throws `invalid_redirect_uri`
   * or `invalid_client_metadata`. A requested `token_endpoint_auth_method` other than "none" is
   * replaced by "none" (RFC 7591 lets the server substitute values): there are no client secrets.
   */
  function register(body: unknown, registeredFrom: string | null): Registration {
    if (!body || typeof body !== "object" || Array.isArray(body)) throw metadataError("the body must be a JSON object of client metadata");
    const b = body as Record<string, unknown>;
    const uris = b.redirect_uris;
    if (!Array.isArray(uris) || uris.length === 0) throw new OAuthError("invalid_redirect_uri", "redirect_uris is required: a non-empty array of redirect URIs");
    if (uris.length > MAX_REDIRECT_URIS) throw new OAuthError("invalid_redirect_uri", `at most ${MAX_REDIRECT_URIS} redirect URIs may be registered`);
    for (const uri of uris) {
      const problem = redirectUriProblem(uri);
      if (problem) throw new OAuthError("invalid_redirect_uri", problem);
    }
    const grantTypes = optionalList(b, "grant_types", GRANT_TYPES) ?? GRANT_TYPES;
    if (!grantTypes.includes("authorization_code")) throw metadataError("grant_types must include authorization_code: it is the only way to sign in here");
    const responseTypes = optionalList(b, "response_types", ["code"]) ?? ["code"];
    if (responseTypes.length === 0) throw metadataError("response_types must include code");
    let scope: GrantScope | null = null;
    if (b.scope !== undefined && b.scope !== null) {
      if (typeof b.scope !== "string") throw metadataError("scope must be a string of space-separated scopes");
      const parsed = parseScope(b.scope);
      if (!parsed.ok) throw metadataError(parsed.problem);
      scope = b.scope.trim() === "" ? null : parsed.scope;
    }
    const name = optionalText(b, "client_name");
    const clientUri = optionalText(b, "client_uri");
    if (clientUri && !/^https?:\/\//i.test(clientUri)) throw metadataError("client_uri must be an http(s) URL");
    const softwareId = optionalText(b, "software_id");
    const softwareVersion = optionalText(b, "software_version");
    const now = clock.now();
    const row = db
      .insert(oauthClients)
      .values({
        id: newId(),
        name,
        redirectUris: JSON.stringify(uris),
        scope,
        clientUri,
        softwareId,
        softwareVersion,
        registeredFrom,
        createdAt: now.toISOString(),
      })
      .returning()
      .get();
    const client = asClient(row);
    const response: Record<string, unknown> = {
      client_id: client.id,
      client_id_issued_at: Math.floor(now.getTime() / 1000),
      redirect_uris: client.redirectUris,
      token_endpoint_auth_method: "none",
      grant_types: grantTypes,
      response_types: ["code"],
      ...(name !== null ? { client_name: name } : {}),
      ...(scope !== null ? { scope: scopeString(scope) } : {}),
      ...(clientUri !== null ? { client_uri: clientUri } : {}),
      ...(softwareId !== null ? { software_id: softwareId } : {}),
      ...(softwareVersion !== null ? { software_version: softwareVersion } : {}),
    };
    return { client, response };
  }

  function get(clientId: string | null | undefined): Client | null {
    if (!clientId || !isUuid(clientId)) return null;
    const row = byId.get({ id: clientId.toLowerCase() });
    return row ? asClient(row) : null;
  }

  return { register, get };
});

/** The name a person sees for a client: what it registered, said to be its own words. */
export const clientLabel = (c: Pick<Client, "name">) => c.name ?? "An app without a name";
