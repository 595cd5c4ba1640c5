// Environment and flags, validated once. A bad value stops start-up with a one-line reason
// instead of surfacing later as odd behaviour.
import { Cron } from "croner";
import { formatRange, parseRange } from "./lib/ip-ranges.ts";

export type Config = {
  dataDir: string;
  host: string;
  port: number;
  allowPrivateNetwork: boolean;
  webhookRetryScale: number;
  webhookTimeoutSeconds: number;
  staleRunSeconds: number;
  sseKeepaliveSeconds: number;
  sseMaxStreamsPerKey: number;
  allowedOrigins: string[];
  llm: { baseUrl: string; model: string | null; apiKey: string | null } | null;
  /** GitHub REST API base for founder enrichment (DEALGRAPH_GITHUB_API_URL); reached through safe-fetch only. */
  githubApiUrl: string;
  /** SQLite busy timeout: how long a request waits for a lock before answering 503. */
  busyTimeoutMs: number;
  /** Log a line when the server's thread is held longer than this, with what was under way (DEALGRAPH_LOG_EVENT_LOOP_LAG_MS); null: off. */
  eventLoopLagLogMs: number | null;
  /** The connection's page cache, at most this many MB (DEALGRAPH_SQLITE_CACHE_MB); filled only as pages are read. */
  sqliteCacheMb: number;
  /** How much of the database file SQLite reads through a memory map, in MB (DEALGRAPH_SQLITE_MMAP_MB); 0: none. */
  sqliteMmapMb: number;
  defaultDailyRequests: number;
  defaultDailyActions: number;
  /** Where people reach this server (sign-in links, the web app's own origin behind a proxy); null: unset. */
  publicUrl: string | null;
  /** Base64 of 32 bytes: encrypts webhook secrets at rest. Null: the key file `<data-dir>/secret.key`. */
  secretKey: string | null;
  /**
   * Reverse proxies whose X-Forwarded-For is believed (DEALGRAPH_TRUSTED_PROXIES), as `address/bits`
   * ranges; empty: none, the connection's address is the client's.
   */
  trustedProxies: string[];
  /** When the `backup` job runs (DEALGRAPH_BACKUP_CRON, UTC); null: `off`, no scheduled backups. */
  backupCron: string | null;
  /** How many archives the `backup` job keeps in <data-dir>/backups (DEALGRAPH_BACKUP_KEEP). */
  backupKeep: number;
  /** Seconds between runs of the `mail-sync` job (DEALGRAPH_SYNC_INTERVAL_SECONDS, at least 10). */
  syncIntervalSeconds: number;
  /** Outbound mail (DEALGRAPH_SMTP_URL, DEALGRAPH_MAIL_FROM, DEALGRAPH_SMTP_CA_FILE); null: not configured. */
  smtp: SmtpConfig | null;
  /**
   * MCP sign-in: dynamic client registrations per client address per hour
   * (DEALGRAPH_OAUTH_REGISTRATIONS_PER_HOUR; a firm behind one NAT or proxy registers from one address).
   */
  oauthRegistrationsPerHour: number;
  /**
   * Where Google's and Microsoft's endpoints are (air-gapped proxies, tests): DEALGRAPH_GOOGLE_TOKEN_URL,
   * DEALGRAPH_GOOGLE_CALDAV_URL, DEALGRAPH_MICROSOFT_LOGIN_URL, DEALGRAPH_GRAPH_URL; null: the provider's own.
   */
  providerEndpoints: ProviderEndpoints;
};

export type ProviderEndpoints = { googleTokenUrl: string | null; googleCaldavUrl: string | null; microsoftLoginUrl: string | null; graphUrl: string | null };

export type SmtpConfig = {
  /** `smtp://[user:pass@]host:port` or `smtps://...`, as given (it may hold a password: never logged). */
  url: string;
  /** The envelope and From address of every message sent. */
  from: string;
  /** PEM of a private CA the relay's certificate is signed by; null: the system's. */
  caFile: string | null;
};

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function num(env: Env, name: string, fallback: number, opts: { min: number; max?: number; integer?: boolean }): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < opts.min || (opts.max !== undefined && value > opts.max) || (opts.integer && !Number.isInteger(value))) {
    const kind = opts.integer ? "an integer" : "a number";
    const range = opts.max === undefined ? `>= ${opts.min}` : `from ${opts.min} to ${opts.max}`;
    throw new ConfigError(`${name} must be ${kind} ${range}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

// SQLite's own default page cache is 2 MB; read paths over a firm's history (who-knows at a large
// company, a long contacts export) go back to the file for most pages at that size. Memory is
// taken only as pages are read, so a small database stays small. The map lets reads of pages not
// in the cache come from the OS page cache without a copy (this build of SQLite caps it at 2047 MB).
export const DEFAULT_SQLITE_CACHE_MB = 64;
export const DEFAULT_OAUTH_REGISTRATIONS_PER_HOUR = 60;
export const DEFAULT_SQLITE_MMAP_MB = 256;
export const MAX_SQLITE_MMAP_MB = 2047;

function flag(env: Env, name: string): boolean {
  const raw = (env[name] ?? "").toLowerCase();
  if (raw === "" || raw === "0" || raw === "false" || raw === "off" || raw === "no") return false;
  if (raw === "1" || raw === "true" || raw === "on" || raw === "yes") return true;
  throw new ConfigError(`${name} must be 1 or 0, got ${JSON.stringify(env[name])}`);
}

export type ConfigOverrides = Partial<Pick<Config, "dataDir" | "host" | "port">>;

export function loadConfig(env: Env = process.env, overrides: ConfigOverrides = {}): Config {
  const llmBase = env.DEALGRAPH_LLM_BASE_URL?.trim();
  if (llmBase && !URL.canParse(llmBase)) {
    throw new ConfigError(`DEALGRAPH_LLM_BASE_URL must be a URL, got ${JSON.stringify(llmBase)}`);
  }
  const publicUrl = env.DEALGRAPH_PUBLIC_URL?.trim().replace(/\/+$/, "") || null;
  if (publicUrl && (!URL.canParse(publicUrl) || !/^https?:$/.test(new URL(publicUrl).protocol))) {
    throw new ConfigError(`DEALGRAPH_PUBLIC_URL must be an http(s) URL, got ${JSON.stringify(publicUrl)}`);
  }
  const port = overrides.port ?? num(env, "DEALGRAPH_PORT", 8080, { min: 0, integer: true });
  if (port > 65535) throw new ConfigError(`port must be at most 65535, got ${port}`);
  return {
    dataDir: overrides.dataDir ?? (env.DEALGRAPH_DATA_DIR || "./data"),
    host: overrides.host ?? (env.DEALGRAPH_HOST || "127.0.0.1"),
    port,
    allowPrivateNetwork: flag(env, "DEALGRAPH_ALLOW_PRIVATE_NETWORK"),
    webhookRetryScale: num(env, "DEALGRAPH_WEBHOOK_RETRY_SCALE", 1, { min: 0 }),
    webhookTimeoutSeconds: num(env, "DEALGRAPH_WEBHOOK_TIMEOUT_SECONDS", 10, { min: 0.001 }),
    staleRunSeconds: num(env, "DEALGRAPH_STALE_RUN_SECONDS", 1800, { min: 1 }),
    sseKeepaliveSeconds: num(env, "DEALGRAPH_SSE_KEEPALIVE_SECONDS", 25, { min: 0.01 }),
    sseMaxStreamsPerKey: num(env, "DEALGRAPH_SSE_MAX_STREAMS_PER_KEY", 5, { min: 1, integer: true }),
    allowedOrigins: (env.DEALGRAPH_ALLOWED_ORIGINS ?? "")
      .split(",")
      .map((o) => o.trim())
      .filter(Boolean),
    llm: llmBase
      ? { baseUrl: llmBase, model: env.DEALGRAPH_LLM_MODEL || null, apiKey: env.DEALGRAPH_LLM_API_KEY || null }
      : null,
    githubApiUrl: githubApiUrl(env),
    busyTimeoutMs: num(env, "DEALGRAPH_BUSY_TIMEOUT_MS", 5000, { min: 0, integer: true }),
    eventLoopLagLogMs: env.DEALGRAPH_LOG_EVENT_LOOP_LAG_MS ? num(env, "DEALGRAPH_LOG_EVENT_LOOP_LAG_MS", 0, { min: 1, integer: true }) : null,
    sqliteCacheMb: num(env, "DEALGRAPH_SQLITE_CACHE_MB", DEFAULT_SQLITE_CACHE_MB, { min: 1, max: 65_536, integer: true }),
    sqliteMmapMb: num(env, "DEALGRAPH_SQLITE_MMAP_MB", DEFAULT_SQLITE_MMAP_MB, { min: 0, max: MAX_SQLITE_MMAP_MB, integer: true }),
    defaultDailyRequests: 5000,
    defaultDailyActions: 25,
    publicUrl,
    secretKey: secretKey(env),
    trustedProxies: trustedProxies(env),
    backupCron: backupCron(env),
    backupKeep: num(env, "DEALGRAPH_BACKUP_KEEP", 7, { min: 1, integer: true }),
    syncIntervalSeconds: num(env, "DEALGRAPH_SYNC_INTERVAL_SECONDS", 300, { min: 10 }),
    smtp: smtpConfig(env),
    oauthRegistrationsPerHour: num(env, "DEALGRAPH_OAUTH_REGISTRATIONS_PER_HOUR", DEFAULT_OAUTH_REGISTRATIONS_PER_HOUR, { min: 1, max: 1_000_000, integer: true }),
    providerEndpoints: {
      googleTokenUrl: endpointUrl(env, "DEALGRAPH_GOOGLE_TOKEN_URL"),
      googleCaldavUrl: endpointUrl(env, "DEALGRAPH_GOOGLE_CALDAV_URL"),
      microsoftLoginUrl: endpointUrl(env, "DEALGRAPH_MICROSOFT_LOGIN_URL"),
      graphUrl: endpointUrl(env, "DEALGRAPH_GRAPH_URL"),
    },
  };
}

/** Where people reach this server (links in mail): DEALGRAPH_PUBLIC_URL, else the address it is bound to. */
export function publicOrigin(config: Config): string {
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  return config.publicUrl ?? `http://${host}:${config.port}`;
}

const MAIL_ADDRESS = /^[^\s@<>]+@[^\s@<>]+$/;

function smtpConfig(env: Env): SmtpConfig | null {
  const raw = env.DEALGRAPH_SMTP_URL?.trim();
  const from = env.DEALGRAPH_MAIL_FROM?.trim() || null;
  if (!raw) {
    if (from && !MAIL_ADDRESS.test(from)) throw new ConfigError(`DEALGRAPH_MAIL_FROM must be an email address, got ${JSON.stringify(from)}`);
    return null;
  }
  // The URL is never echoed: it may carry the relay's password.
  if (!URL.canParse(raw) || !/^smtps?:$/.test(new URL(raw).protocol) || !new URL(raw).hostname) {
    throw new ConfigError("DEALGRAPH_SMTP_URL must be smtp://[user:pass@]host:port or smtps://[user:pass@]host:port");
  }
  if (!from) throw new ConfigError("DEALGRAPH_MAIL_FROM (the address mail is sent from) is required when DEALGRAPH_SMTP_URL is set");
  if (!MAIL_ADDRESS.test(from)) throw new ConfigError(`DEALGRAPH_MAIL_FROM must be an email address, got ${JSON.stringify(from)}`);
  const caFile = env.DEALGRAPH_SMTP_CA_FILE?.trim() || null;
  return { url: raw, from, caFile };
}

function trustedProxies(env: Env): string[] {
  const entries = (env.DEALGRAPH_TRUSTED_PROXIES ?? "").split(",").map((e) => e.trim()).filter(Boolean);
  return entries.map((entry) => {
    const range = parseRange(entry);
    if (!range) {
      throw new ConfigError(`DEALGRAPH_TRUSTED_PROXIES must be comma-separated IP addresses or CIDR ranges (e.g. 10.0.0.0/8, ::1), got ${JSON.stringify(entry)}`);
    }
    return formatRange(range);
  });
}

/** An http(s) URL from the environment (no login in it); null when unset. */
function endpointUrl(env: Env, name: string): string | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password) throw new ConfigError(`${name} must be an http(s) URL without a login in it, got ${JSON.stringify(raw.slice(0, 200))}`);
  return url.href;
}

function githubApiUrl(env: Env): string {
  const raw = env.DEALGRAPH_GITHUB_API_URL?.trim().replace(/\/+$/, "") || "https://api.github.com";
  if (!URL.canParse(raw) || !/^https?:$/.test(new URL(raw).protocol)) {
    throw new ConfigError(`DEALGRAPH_GITHUB_API_URL must be an http(s) URL, got ${JSON.stringify(raw)}`);
  }
  return raw;
}

function secretKey(env: Env): string | null {
  const raw = env.DEALGRAPH_SECRET_KEY?.trim();
  if (!raw) return null;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(raw) || Buffer.from(raw, "base64").length !== 32) {
    throw new ConfigError("DEALGRAPH_SECRET_KEY must be the base64 of 32 random bytes (e.g. `openssl rand -base64 32`)");
  }
  return raw;
}

export const DEFAULT_BACKUP_CRON = "0 3 * * *";

function backupCron(env: Env): string | null {
  const raw = env.DEALGRAPH_BACKUP_CRON?.trim() || DEFAULT_BACKUP_CRON;
  if (raw.toLowerCase() === "off") return null;
  try {
    new Cron(raw, { paused: true, utcOffset: 0 }).stop();
  } catch (error) {
    throw new ConfigError(`DEALGRAPH_BACKUP_CRON must be a cron pattern (e.g. "0 3 * * *") or off, got ${JSON.stringify(raw)}: ${(error as Error).message}`);
  }
  return raw;
}
