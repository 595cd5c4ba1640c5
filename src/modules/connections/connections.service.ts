// Connected mailboxes and calendars (CONTRACT.md "Connected mailboxes and calendars, and outbound
// mail"): the organization's server settings (an administrator's), each user's connections, what
// they look like from outside (never a credential), and removing them. Connecting probes first: a
// wrong password, an unreachable host or an untrusted certificate stores nothing. Credentials are
// sealed under the server key, bound to the connection's id.
import { X509Certificate } from "node:crypto";
import { and, eq, gt, lte, sql } from "drizzle-orm";
import { perDeps, type Deps } from "../../deps.ts";
import { ApiError, invalid, notFound } from "../../http/errors.ts";
import { isUuid, newId } from "../../lib/ids.ts";
import { isLoopbackHost } from "../../lib/safe-fetch.ts";
import { orgsService, type User } from "../identity/orgs.service.ts";
import { probeCalendar } from "./connections.caldav.ts";
import { ConnectionFailure } from "./connections.failures.ts";
import { httpPolicy, policedFetch } from "./connections.http.ts";
import { readSubscription, SUBSCRIPTION_MAX_BYTES, subscriptionAccount, subscriptionUrl } from "./connections.ics.ts";
import { chooseFolders, closeImap, defaultImapPort, imapAddress, openImap, sessionFailure, type ImapSecurity, type ImapServer } from "./connections.imap.ts";
import { providerSettings, providerTokens } from "./connections.providers.ts";
import { connectionAttempts, connections, digestSubscriptions, mailServers } from "./connections.tables.ts";

export type MailServer = typeof mailServers.$inferSelect;
export type ConnectionRow = typeof connections.$inferSelect;

export type MailServerInput = { imap: string; security?: string; caldav?: string | null; caPem?: string | null; insecure?: boolean };

export type ConnectionStatus = "never_synced" | "ok" | "syncing" | "error";

/**
 * One sync's figures (the `sync` command's entries, and each connection's last result). `refused`:
 * calendar occurrences past the caps (per series, per object, per sync), `refusals` why (a line
 * each, the first few): never silent.
 */
export type SyncResult = { messages_new: number; meetings_new: number; duplicates: number; skipped: number; refused: number; refusals: string[] };

/** What a sync reports: `refused` and `refusals` only when something was refused (calendar limits). */
export type SyncFigures = Omit<SyncResult, "refused" | "refusals"> & Partial<Pick<SyncResult, "refused" | "refusals">>;

export function figures(result: SyncResult): SyncFigures {
  const { refused, refusals, ...rest } = result;
  return refused || refusals.length ? { ...rest, refused, refusals } : rest;
}

export type ConnectionView = {
  connection_id: string;
  kind: "mail" | "calendar";
  account: string;
  status: ConnectionStatus;
  last_synced_at: string | null;
  items_synced: number;
  last_error: string | null;
  // Additive: where it reads from, a running sync's progress, the last sync's figures, the next try.
  source: "imap" | "caldav" | "ics" | "graph";
  progress: { folder: string; done: number; total: number } | null;
  last_result: SyncFigures | null;
  next_attempt_at: string | null;
};

/** The sealed part of a connection (a CalDAV login travels with its password). */
export type ConnectionSecret = { password?: string; url?: string; login?: string; provider?: "google" | "microsoft" };

export const DEFAULT_BACKFILL_YEARS = 2;

/**
 * Failed attempts to connect a mailbox or calendar a user may make in a window (each probes the
 * firm's server with a password, or fetches a URL): past it, connecting is refused (429) without
 * reaching any server until the oldest attempt leaves the window. A successful one is not counted.
 */
export const CONNECT_ATTEMPTS = { failures: 5, windowMs: 15 * 60_000 };

const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

/** `HOST[:PORT]` (an IPv6 literal in brackets) into its parts; null when it is not one. */
export function parseHostPort(raw: string): { host: string; port: number | null } | null {
  const m = /^\[([0-9a-f:.]+)\](?::(\d{1,5}))?$/i.exec(raw.trim()) ?? /^([^:[\]]+)(?::(\d{1,5}))?$/.exec(raw.trim());
  if (!m) return null;
  const host = m[1].toLowerCase();
  if (!raw.trim().startsWith("[") && !HOST.test(host)) return null;
  const port = m[2] === undefined ? null : Number(m[2]);
  if (port !== null && (port < 1 || port > 65535)) return null;
  return { host, port };
}

/** A day as YYYY-MM-DD that exists, or null. */
function realDay(raw: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw)) return null;
  const t = Date.parse(`${raw}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === raw ? raw : null;
}

export const providerName = (p: "google" | "microsoft") => (p === "google" ? "Google Workspace" : "Microsoft 365");

export const connectionsService = perDeps((deps: Deps) => {
  const { db, clock } = deps;
  const orgs = orgsService(deps);
  const box = deps.secrets.box;

  const serverOf = db.select().from(mailServers).where(eq(mailServers.orgId, sql.placeholder("org"))).prepare();
  const rowById = db.select().from(connections).where(eq(connections.id, sql.placeholder("id"))).prepare();
  const rowsOfUser = db.select().from(connections).where(eq(connections.userId, sql.placeholder("user"))).orderBy(connections.createdAt, connections.id).prepare();

  function memberOf(userId: string): User & { orgId: string } {
    const user = orgs.getUser(userId);
    if (!user) throw notFound(`No user with id ${userId}`);
    if (!user.orgId) throw invalid(["user"], `User ${userId} belongs to no organization`);
    return user as User & { orgId: string };
  }

  function getMailServer(orgId: string): MailServer | null {
    return serverOf.get({ org: orgId }) ?? null;
  }

  function serverView(s: MailServer) {
    const settings = providerSettings(s);
    // Additive: who signs users in, and the provider's public settings (never its key or secret).
    const account = !settings
      ? null
      : settings.kind === "google"
        ? { client_email: settings.client_email, client_id: settings.client_id }
        : { tenant: settings.tenant, client_id: settings.client_id, credential: settings.credential };
    return { org_id: s.orgId, imap: imapAddress({ host: s.imapHost, port: s.imapPort }), imap_security: s.imapSecurity, caldav: s.caldavUrl, private_ca: s.caPem !== null, provider: s.provider, provider_account: account };
  }

  /** The IMAP host, port and security as given, checked (throws 422 with the reason). */
  function checkImap(input: { imap: string; security?: string; insecure?: boolean }) {
    const hostPort = parseHostPort(input.imap);
    if (!hostPort) throw invalid(["imap"], `--imap must be HOST or HOST:PORT (port 1-65535), got ${JSON.stringify(input.imap.slice(0, 100))}`);
    const security = (input.security ?? "tls") as ImapSecurity;
    if (!["tls", "starttls", "plain"].includes(security)) throw invalid(["imap_security"], `--imap-security must be tls, starttls or plain, got ${JSON.stringify(input.security)}`);
    const insecure = input.insecure ?? false;
    if (security === "plain" && !insecure && !isLoopbackHost(hostPort.host)) {
      throw invalid(["imap_security"], `plain IMAP would send passwords unencrypted to ${hostPort.host}: it is allowed only to a loopback host, or with --insecure`);
    }
    return { host: hostPort.host, port: hostPort.port ?? defaultImapPort(security), security, insecure };
  }

  function checkCa(pem: string | null | undefined): string | null {
    if (!pem) return null;
    if (!/-----BEGIN CERTIFICATE-----/.test(pem)) throw invalid(["ca_file"], "--ca-file must be a PEM file holding the CA's certificate (-----BEGIN CERTIFICATE-----)");
    try {
      new X509Certificate(pem);
    } catch (error) {
      throw invalid(["ca_file"], `--ca-file could not be read as a certificate: ${(error as Error).message}`);
    }
    return pem;
  }

  function writeServer(values: typeof mailServers.$inferInsert) {
    const { orgId: _, ...update } = values;
    const row = db.insert(mailServers).values(values).onConflictDoUpdate({ target: mailServers.orgId, set: update }).returning().get();
    return serverView(row);
  }

  /** Sets the organization's IMAP (and CalDAV) server. Stores settings without probing them. */
  function setMailServer(orgId: string, input: MailServerInput) {
    if (!isUuid(orgId) || !orgs.getOrg(orgId)) throw notFound(`No organization with id ${orgId}`);
    const { host, port, security, insecure } = checkImap(input);
    let caldav: string | null = null;
    if (input.caldav) {
      const url = URL.canParse(input.caldav) ? new URL(input.caldav) : null;
      if (!url || !/^https?:$/.test(url.protocol) || !url.hostname || url.username || url.password) {
        throw invalid(["caldav"], `--caldav must be an http(s) URL without a login in it, got ${JSON.stringify(input.caldav.slice(0, 200))}`);
      }
      if (url.protocol === "http:" && !insecure && !isLoopbackHost(url.hostname)) {
        throw invalid(["caldav"], `http:// would send passwords unencrypted to ${url.hostname}: use https://, a loopback host, or --insecure`);
      }
      caldav = url.href;
    }
    const caPem = checkCa(input.caPem);
    // A password server: a provider set before is forgotten, its sealed key with it.
    return writeServer({ orgId, imapHost: host, imapPort: port, imapSecurity: security, caldavUrl: caldav, caPem, insecure, provider: "imap", providerSettings: null, providerSealed: null, updatedAt: clock.now().toISOString() });
  }

  /** How sessions reach the org's IMAP server; on a provider's, they log in with its tokens (connections.providers.ts). */
  function imapServer(s: MailServer): ImapServer {
    const server: ImapServer = { host: s.imapHost, port: s.imapPort, security: s.imapSecurity, caPem: s.caPem };
    if (s.provider !== "imap") server.oauth = (login, opts) => providerTokens(deps).tokenOf(s, login, "mail", opts);
    return server;
  }

  function noServer(): never {
    throw new ConnectionFailure("config", "no mail server is set for this organization: an administrator runs `dealgraph admin mail-server set --org ORG_ID --imap HOST`");
  }

  function defaultSince(): string {
    const d = clock.now();
    return new Date(Date.UTC(d.getUTCFullYear() - DEFAULT_BACKFILL_YEARS, d.getUTCMonth(), d.getUTCDate())).toISOString().slice(0, 10);
  }

  /**
   * Books an attempt before the server is probed (it counts as failed until the probe succeeds and
   * `settle` deletes it). Check and insert are one IMMEDIATE transaction: concurrent attempts, from
   * the web app and the command line alike, cannot all pass the check. Throws 429 past the limit.
   */
  function reserveAttempt(userId: string): { settle: () => void } {
    const id = db.$client
      .transaction((): number => {
        const now = clock.now().getTime();
        const since = new Date(now - CONNECT_ATTEMPTS.windowMs).toISOString();
        const recent = db
          .select({ at: connectionAttempts.at })
          .from(connectionAttempts)
          .where(and(eq(connectionAttempts.userId, userId), gt(connectionAttempts.at, since)))
          .orderBy(connectionAttempts.at)
          .all();
        if (recent.length >= CONNECT_ATTEMPTS.failures) {
          const free = Date.parse(recent[recent.length - CONNECT_ATTEMPTS.failures].at) + CONNECT_ATTEMPTS.windowMs;
          const seconds = Math.max(1, Math.ceil((free - now) / 1000));
          const minutes = Math.round(CONNECT_ATTEMPTS.windowMs / 60_000);
          throw new ApiError(
            429,
            `Too many attempts to connect a mailbox or calendar: ${CONNECT_ATTEMPTS.failures} failed in ${minutes} minutes; try again in ${seconds} seconds`,
            { "Retry-After": String(seconds) },
          );
        }
        // Older rows are of no use to any window: gone with the next attempt.
        db.delete(connectionAttempts).where(and(eq(connectionAttempts.userId, userId), lte(connectionAttempts.at, since))).run();
        return db.insert(connectionAttempts).values({ userId, at: new Date(now).toISOString() }).returning({ id: connectionAttempts.id }).get().id;
      })
      .immediate();
    return { settle: () => void db.delete(connectionAttempts).where(eq(connectionAttempts.id, id)).run() };
  }

  /** Inserts a connection, or (same user, kind and account) updates it with the new credentials. */
  async function store(user: User & { orgId: string }, values: Omit<typeof connections.$inferInsert, "id" | "orgId" | "userId" | "secretSealed" | "createdAt" | "updatedAt">, secret: ConnectionSecret): Promise<string> {
    const existing = db
      .select({ id: connections.id })
      .from(connections)
      .where(and(eq(connections.userId, user.id), eq(connections.kind, values.kind), eq(connections.accountKey, values.accountKey)))
      .get();
    const id = existing?.id ?? newId();
    const sealed = await box.encrypt(JSON.stringify(secret), `connection:${id}`);
    const now = clock.now().toISOString();
    if (existing) {
      // New credentials: the error is forgotten and the job tries at once; how far it got stays.
      db.update(connections)
        .set({ ...values, secretSealed: sealed, lastError: null, failures: 0, nextAttemptAt: null, updatedAt: now })
        .where(eq(connections.id, id))
        .run();
    } else {
      db.insert(connections).values({ ...values, id, orgId: user.orgId, userId: user.id, secretSealed: sealed, createdAt: now, updatedAt: now }).run();
    }
    return id;
  }

  /** Connects a user's mailbox on the organization's server: logs in and checks the folders first. */
  /**
   * `otherAddress`: on a provider's server, the login may be another address than the user's own
   * (the command line, run by whoever holds the server; a provider's token opens any mailbox of the
   * domain, so a member connecting for themselves gets their own address only).
   */
  async function connectMail(userId: string, input: { login?: string; password?: string; folders?: string[]; since?: string; otherAddress?: boolean }) {
    const user = memberOf(userId);
    const server = getMailServer(user.orgId) ?? noServer();
    const provider = server.provider === "imap" ? null : server.provider;
    // On a provider's server the login defaults to the user's address, and no password is taken.
    const login = (input.login ?? (provider ? user.email : "")).trim();
    if (!login) throw invalid(["login"], "--login must not be empty");
    if (provider && input.password) throw invalid(["password"], `this organization's mail is ${providerName(provider)}: users connect with no password (the administrator authorized Dealgraph for the domain)`);
    if (provider && !input.otherAddress && login.toLowerCase() !== user.email.toLowerCase()) {
      throw invalid(["login"], `this organization's mail is ${providerName(provider)}: you connect your own mailbox (${user.email}); an administrator connects another address with \`dealgraph connect mail --login\``);
    }
    if (!provider && !input.password) throw invalid(["password"], "no password given (the first line of stdin)");
    const since = input.since === undefined ? defaultSince() : realDay(input.since);
    if (!since) throw invalid(["since"], `--since must be a day as YYYY-MM-DD, got ${JSON.stringify(input.since)}`);
    if (since > clock.now().toISOString().slice(0, 10)) throw invalid(["since"], `--since ${since} is in the future`);
    const folders = input.folders?.map((f) => f.trim()).filter(Boolean);
    const attempt = reserveAttempt(user.id);
    // A provider's: the first token is asked for, then the IMAP login made with it.
    const client = await openImap(imapServer(server), login, input.password ?? "");
    let chosen: string[];
    try {
      chosen = await chooseFolders(client, folders?.length ? folders : null);
    } catch (error) {
      throw error instanceof ConnectionFailure ? error : sessionFailure(client, error, imapServer(server));
    } finally {
      await closeImap(client);
    }
    const id = await store(
      user,
      { kind: "mail", source: "imap", account: login, accountKey: login.toLowerCase(), url: null, folders: folders?.length ? JSON.stringify(chosen) : null, since },
      provider ? { provider, login } : { password: input.password },
    );
    attempt.settle();
    return { connection_id: id };
  }

  /** Connects a CalDAV calendar collection (probed with the login) or a subscription URL (fetched once). */
  async function connectCalendar(userId: string, input: { caldav?: string; login?: string; password?: string; icsUrl?: string }) {
    const user = memberOf(userId);
    const server = getMailServer(user.orgId);
    if ((input.caldav === undefined) === (input.icsUrl === undefined)) throw invalid(["caldav"], "give either --caldav URL --login LOGIN, or --ics-url URL");
    if (input.icsUrl !== undefined) {
      const url = subscriptionUrl(input.icsUrl);
      if (!url || url.username || url.password) throw invalid(["ics_url"], "--ics-url must be an http(s) or webcal URL without a login in it");
      const attempt = reserveAttempt(user.id);
      const read = await readSubscription(url, policedFetch(deps, httpPolicy(deps, server, url), { maxBytes: SUBSCRIPTION_MAX_BYTES }), null);
      if (read.status !== "ok") throw new ConnectionFailure("protocol", "the subscription answered without a calendar");
      const id = await store(user, { kind: "calendar", source: "ics", account: subscriptionAccount(url), accountKey: `ics:${new Bun.CryptoHasher("sha256").update(url.href).digest("hex")}`, url: null }, { url: url.href });
      attempt.settle();
      return { connection_id: id };
    }
    const url = URL.canParse(input.caldav!) ? new URL(input.caldav!) : null;
    if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password) throw invalid(["caldav"], "--caldav must be the calendar collection's http(s) URL, without a login in it");
    const login = input.login?.trim() ?? "";
    if (!login) throw invalid(["login"], "--login is required with --caldav");
    if (!input.password) throw invalid(["password"], "no password given (the first line of stdin)");
    const collection = url.href.endsWith("/") ? url.href : `${url.href}/`;
    const attempt = reserveAttempt(user.id);
    await probeCalendar({ url: collection, login, password: input.password, fetch: policedFetch(deps, httpPolicy(deps, server, url)) });
    // Shown with its collection: one login may have several calendars.
    const account = `${login} (${new URL(collection).host}${new URL(collection).pathname})`;
    const id = await store(user, { kind: "calendar", source: "caldav", account, accountKey: `caldav:${collection}\n${login.toLowerCase()}`, url: collection }, { login, password: input.password });
    attempt.settle();
    return { connection_id: id };
  }

  /** Who signs the user's organization in: `imap` (passwords), `google`, `microsoft`; null when no server is set. */
  function providerOf(userId: string): MailServer["provider"] | null {
    return getMailServer(memberOf(userId).orgId)?.provider ?? null;
  }

  /** The connection's sealed part, opened. */
  async function secretOf(row: ConnectionRow): Promise<ConnectionSecret> {
    try {
      return JSON.parse(await box.decrypt(row.secretSealed, `connection:${row.id}`)) as ConnectionSecret;
    } catch {
      throw new ConnectionFailure("config", "the stored credentials cannot be opened with this server's key (was the data dir moved without its secret.key?): connect the account again");
    }
  }

  function statusOf(row: ConnectionRow, now: string): ConnectionStatus {
    if (row.leaseUntil && row.leaseUntil > now) return "syncing";
    if (row.lastError) return "error";
    return row.lastSyncedAt ? "ok" : "never_synced";
  }

  function view(row: ConnectionRow, now = clock.now().toISOString()): ConnectionView {
    const status = statusOf(row, now);
    return {
      connection_id: row.id,
      kind: row.kind,
      account: row.account,
      status,
      last_synced_at: row.lastSyncedAt,
      items_synced: row.itemsSynced,
      last_error: row.lastError,
      source: row.source,
      progress: status === "syncing" && row.progress ? JSON.parse(row.progress) : null,
      last_result: row.lastResult ? JSON.parse(row.lastResult) : null,
      next_attempt_at: row.nextAttemptAt,
    };
  }

  /** A user's connections, oldest first. */
  function list(userId: string): ConnectionView[] {
    const now = clock.now().toISOString();
    return rowsOfUser.all({ user: userId }).map((r) => view(r, now));
  }

  function listForUser(userId: string) {
    memberOf(userId);
    return { connections: list(userId) };
  }

  function rowsFor(userId: string): ConnectionRow[] {
    return rowsOfUser.all({ user: userId });
  }

  function get(connectionId: string): ConnectionRow | null {
    return isUuid(connectionId) ? (rowById.get({ id: connectionId }) ?? null) : null;
  }

  /**
   * Stops syncing it and forgets its credentials (the row goes, with its folder and item state);
   * what it recorded stays. `ownerId`: only that user's connection (else 404).
   */
  function remove(connectionId: string, ownerId?: string) {
    const row = get(connectionId);
    if (!row || (ownerId !== undefined && row.userId !== ownerId)) throw notFound(`No connection with id ${connectionId}`);
    db.delete(connections).where(eq(connections.id, row.id)).run();
    return { connection_id: row.id, removed: true };
  }

  /** Whether mail addressed to the user is read by a working connected mailbox (one not failing). */
  function hasWorkingMailbox(userId: string): boolean {
    return rowsOfUser.all({ user: userId }).some((r) => r.kind === "mail" && !r.lastError);
  }

  function digestEnabled(userId: string): boolean {
    return db.select({ enabled: digestSubscriptions.enabled }).from(digestSubscriptions).where(eq(digestSubscriptions.userId, userId)).get()?.enabled ?? false;
  }

  function setDigest(userId: string, enabled: boolean): void {
    const now = clock.now().toISOString();
    db.insert(digestSubscriptions).values({ userId, enabled, updatedAt: now }).onConflictDoUpdate({ target: digestSubscriptions.userId, set: { enabled, updatedAt: now } }).run();
  }

  return {
    getMailServer,
    serverView,
    setMailServer,
    providerOf,
    // For the provider side of setting up (connections.provider-setup.ts).
    memberOf,
    checkImap,
    checkCa,
    writeServer,
    reserveAttempt,
    store,
    imapServer,
    noServer,
    connectMail,
    connectCalendar,
    secretOf,
    view,
    list,
    listForUser,
    rowsFor,
    get,
    remove,
    hasWorkingMailbox,
    digestEnabled,
    setDigest,
  };
});
