// The IMAP side of a mail connection, on imapflow: opening a session with the organization's
// server settings (TLS verified, a private CA when given, STARTTLS required when asked, plaintext
// only where an administrator allowed it), and choosing the folders a sync reads: INBOX and the
// server's \Sent folder by default, never Junk, Trash or Drafts whatever is asked.
import type { ImapFlow, ListResponse } from "imapflow";
import { isIP } from "node:net";
import { ConnectionFailure, imapFailure } from "./connections.failures.ts";

export type ImapSecurity = "tls" | "starttls" | "plain";

export type ImapServer = {
  host: string;
  port: number;
  security: ImapSecurity;
  caPem: string | null;
  /**
   * On a Google Workspace or Microsoft 365 server: the access token for a mailbox (sessions log in
   * over SASL XOAUTH2 with it, never with a password); `fresh`: not the cached one, it was refused.
   */
  oauth?: (login: string, opts: { fresh: boolean }) => Promise<{ token: string; cached: boolean }>;
};

export const defaultImapPort = (security: ImapSecurity) => (security === "tls" ? 993 : 143);

/** `host:port` as shown to people. */
export const imapAddress = (s: Pick<ImapServer, "host" | "port">) => `${s.host.includes(":") ? `[${s.host}]` : s.host}:${s.port}`;

/**
 * What one IMAP session may cost (a hostile or broken server must not hold the server's memory or a
 * request): imapflow's own size limits (its defaults are a 1 GB literal and a 2 GB response), an
 * inactivity timeout, a deadline per command (past it the session is closed) and one for the whole
 * session (a probe when connecting, or one sync of a mailbox), at most `bufferedCharsPerSync` of
 * header fields held by one sync (connections.mail-sync.ts), and at most `concurrentSyncs` syncs at
 * once in this process, `concurrentSyncsPerOrg` of one organization (connections.sync.ts), so
 * their buffers add up to a bounded sum and one org's server cannot take every slot.
 * Mutable for tests only.
 */
export const IMAP_LIMITS = {
  /** A literal (a message's header block is one; whole messages are read only up to 2 MB). */
  maxLiteralBytes: 4 * 1024 * 1024,
  /** A response line without a literal (a SEARCH answer of a big folder's UIDs is one). */
  maxLineBytes: 16 * 1024 * 1024,
  /** A whole response, every line and literal of it. */
  maxResponseBytes: 24 * 1024 * 1024,
  /** Tokens in one response (each costs about 100 bytes of heap while it is parsed). */
  maxResponseTokens: 250_000,
  /** Silence on the socket. */
  socketIdleMs: 60_000,
  /** One command (a FETCH of a batch of 2,000 header blocks included). */
  commandMs: 120_000,
  /** Connecting: the login and the folder list. */
  probeMs: 45_000,
  /** One sync of a mailbox (what it committed stays; the next sync goes on from there). */
  syncMs: 15 * 60_000,
  /** Syncs at once in this process (mail and calendars). */
  concurrentSyncs: 4,
  /** Syncs at once of one organization's connections: its server, hostile or slow, never holds every slot. */
  concurrentSyncsPerOrg: 2,
  /**
   * Header fields (characters) one mail sync holds in memory: two batches are in flight (one read
   * while the other is written), each ends early past half of it and the rest is read next.
   */
  bufferedCharsPerSync: 16 * 1024 * 1024,
};

const seconds = (ms: number) => `${Math.round(ms / 1000).toLocaleString("en-US")} s`;

/** Why a session was closed by a deadline, kept for the command that fails because of it. */
const expired = new WeakMap<ImapFlow, string>();

/** An error of a session as a ConnectionFailure: the deadline that closed it when one did. */
export function sessionFailure(client: ImapFlow, error: unknown, server: Pick<ImapServer, "host" | "port">): ConnectionFailure {
  const deadline = expired.get(client);
  if (deadline) return new ConnectionFailure("unreachable", deadline);
  return imapFailure(error, imapAddress(server), IMAP_LIMITS);
}

const SIZE_CODES = new Set(["LiteralTooLarge", "LineTooLarge", "ResponseTooLarge", "TooManyTokens"]);

/** For a sync: the deadline or size limit that ended the session as a ConnectionFailure, else the error as it is. */
export function syncError(client: ImapFlow, error: unknown, server: Pick<ImapServer, "host" | "port">): unknown {
  if (expired.has(client) || SIZE_CODES.has(String((error as { code?: unknown } | null)?.code ?? ""))) return sessionFailure(client, error, server);
  return error;
}

/**
 * Opens and logs in (throws ConnectionFailure). The caller logs out. `sessionMs`: the session is
 * closed past it (a probe's or a sync's deadline), whatever it is doing. On a provider's server
 * (`server.oauth`) the password is not used: the session logs in with the provider's token, and a
 * cached token the server refuses (revoked early) is replaced by a fresh one, once.
 */
export async function openImap(server: ImapServer, login: string, password: string, opts: { timeoutMs?: number; sessionMs?: number } = {}): Promise<ImapFlow> {
  if (!server.oauth) return connectImap(server, login, password, opts);
  const first = await server.oauth(login, { fresh: false });
  try {
    return await connectImap(server, login, { accessToken: first.token }, opts);
  } catch (error) {
    if (!refusedLogin(error)) throw error;
    if (!first.cached) throw tokenRefused(error, login);
  }
  try {
    return await connectImap(server, login, { accessToken: (await server.oauth(login, { fresh: true })).token }, opts);
  } catch (error) {
    throw refusedLogin(error) ? tokenRefused(error, login) : error;
  }
}

const refusedLogin = (error: unknown): error is ConnectionFailure => error instanceof ConnectionFailure && error.kind === "auth";

/** The server refused the token for this mailbox (Microsoft: the app has no access to it), in those words. */
function tokenRefused(error: ConnectionFailure, login: string): ConnectionFailure {
  return new ConnectionFailure("auth", error.message.replace("refused the login and password", `refused the provider's access token for ${login}`));
}

async function connectImap(server: ImapServer, login: string, password: string | { accessToken: string }, opts: { timeoutMs?: number; sessionMs?: number }): Promise<ImapFlow> {
  const timeout = opts.timeoutMs ?? 20_000;
  const where = imapAddress(server);
  // Loaded with the first session: the server starts without the IMAP client.
  const { ImapFlow } = await import("imapflow");
  const client = new ImapFlow({
    host: server.host,
    port: server.port,
    secure: server.security === "tls",
    // starttls: required (a server that does not offer it fails); plain: never attempted.
    doSTARTTLS: server.security === "starttls" ? true : server.security === "plain" ? false : undefined,
    servername: isIP(server.host) ? undefined : server.host,
    // A provider's OAuth 2.0 token goes over SASL XOAUTH2 (connections.providers.ts).
    auth: typeof password === "string" ? { user: login, pass: password } : { user: login, accessToken: password.accessToken },
    tls: { rejectUnauthorized: true, minVersion: "TLSv1.2", ...(server.caPem ? { ca: server.caPem } : {}) },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: IMAP_LIMITS.socketIdleMs,
    maxLiteralSize: IMAP_LIMITS.maxLiteralBytes,
    maxLineLength: IMAP_LIMITS.maxLineBytes,
    maxResponseSize: IMAP_LIMITS.maxResponseBytes,
    maxResponseTokens: IMAP_LIMITS.maxResponseTokens,
    clientInfo: { name: "Dealgraph" },
  });
  // A dropped connection is reported through the command in flight; the event must not be unhandled.
  client.on("error", () => {});
  const expire = (reason: string) => {
    if (!expired.has(client)) expired.set(client, reason);
    client.close();
  };
  const sessionMs = opts.sessionMs ?? IMAP_LIMITS.probeMs;
  const session = setTimeout(() => expire(`${where} did not finish within ${seconds(sessionMs)} (the most one ${sessionMs > IMAP_LIMITS.probeMs ? "sync of a mailbox" : "login and folder list"} may take)`), sessionMs);
  client.on("close", () => clearTimeout(session));
  // Every command goes through exec (imapflow's internal entry): each gets its deadline.
  const internal = client as unknown as { exec: (command: string, ...rest: unknown[]) => Promise<unknown> };
  const exec = internal.exec.bind(client);
  internal.exec = (command, ...rest) => {
    const limit = IMAP_LIMITS.commandMs;
    const timer = command === "IDLE" ? null : setTimeout(() => expire(`${where} did not finish ${command} within ${seconds(limit)}`), limit);
    const pending = exec(command, ...rest);
    if (timer) pending.then(() => clearTimeout(timer), () => clearTimeout(timer));
    return pending;
  };
  try {
    await client.connect();
  } catch (error) {
    client.close();
    throw sessionFailure(client, error, server);
  }
  return client;
}

/** Closes a session, politely when it still can. */
export async function closeImap(client: ImapFlow): Promise<void> {
  try {
    if (client.usable) await client.logout();
  } catch {
    // already gone
  } finally {
    client.close();
  }
}

const NEVER = new Set(["\\Junk", "\\Trash", "\\Drafts"]);
// Folders some servers do not flag, by their usual names (any language the big servers use).
const NEVER_NAMES = /^(junk|junk e-?mail|spam|bulk mail|trash|deleted items|deleted messages|bin|drafts|brouillons|entw[üu]rfe|papierkorb|corbeille|spam-verdacht)$/i;

/** Why a folder is never read, or null when it may be. */
export function refusedFolder(folder: Pick<ListResponse, "path" | "name" | "specialUse" | "flags">): string | null {
  if (folder.specialUse && NEVER.has(folder.specialUse)) return `${folder.path} is the ${folder.specialUse.slice(1)} folder`;
  const flagged = [...(folder.flags ?? [])].find((f) => NEVER.has(f));
  if (flagged) return `${folder.path} is the ${flagged.slice(1)} folder`;
  if (NEVER_NAMES.test(folder.name) || NEVER_NAMES.test(folder.path.split(/[/.]/).at(-1) ?? "")) return `${folder.path} is a junk, trash or drafts folder`;
  return null;
}

/**
 * The folders a sync reads: those named (each must exist and be readable mail, never Junk, Trash
 * or Drafts), else INBOX and the \Sent folder (SPECIAL-USE, or the server's usual name for it).
 */
export async function chooseFolders(client: ImapFlow, named: string[] | null): Promise<string[]> {
  const list = await client.list();
  if (named && named.length) {
    const byPath = new Map(list.map((f) => [f.path.toLowerCase(), f]));
    return named.map((name) => {
      const folder = byPath.get(name.toLowerCase()) ?? (name.toUpperCase() === "INBOX" ? byPath.get("inbox") : undefined);
      if (!folder) throw new ConnectionFailure("protocol", `the server has no folder ${JSON.stringify(name)} (it has ${list.map((f) => f.path).slice(0, 20).join(", ")})`);
      if (folder.flags?.has("\\Noselect") || folder.flags?.has("\\NonExistent")) throw new ConnectionFailure("protocol", `${folder.path} holds no messages (it is only a parent of other folders)`);
      const refused = refusedFolder(folder);
      if (refused) throw new ConnectionFailure("config", `${refused}: junk, trash and drafts are never read`);
      return folder.path;
    });
  }
  const inbox = list.find((f) => f.path.toUpperCase() === "INBOX" || f.specialUse === "\\Inbox");
  const sent = list.find((f) => f.specialUse === "\\Sent" && !refusedFolder(f));
  return [inbox?.path ?? "INBOX", ...(sent ? [sent.path] : [])];
}
