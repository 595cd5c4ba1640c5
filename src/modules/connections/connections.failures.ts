// Why a connection could not be probed or synced, in words a user can act on, and how soon the
// job tries again. Messages never carry a credential: they are shown on the web page, printed by
// the command line and logged.

export type FailureKind =
  /** The server refused the login and password (or app password). */
  | "auth"
  /** Nothing answered, or the connection dropped: the server may be down. */
  | "unreachable"
  /** The server's certificate is not trusted (or TLS could not be agreed). */
  | "tls"
  /** The server answered something this client cannot use (a folder gone, a calendar that is none). */
  | "protocol"
  /** The organization's settings do not allow it (no server set, plaintext refused). */
  | "config";

export class ConnectionFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
  ) {
    super(message);
    this.name = "ConnectionFailure";
  }
}

const TLS_CODES = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|HOSTNAME|ALTNAME|DEPTH_ZERO|WRONG_VERSION/i;
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EHOSTUNREACH", "ENETUNREACH", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "NoConnection", "EConnectionClosed", "CONNECT_TIMEOUT", "GREETING_TIMEOUT", "UPGRADE_TIMEOUT", "ETIMEOUT", "ClosedAfterConnectText"]);

/** What a TLS error code means for the person who has to fix it. */
function tlsReason(code: string, server: string): string {
  if (/SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|DEPTH_ZERO/i.test(code)) {
    return `the certificate of ${server} is not signed by a trusted authority (${code}); if the firm uses a private CA, an administrator gives it with --ca-file`;
  }
  if (/EXPIRED/i.test(code)) return `the certificate of ${server} has expired (${code})`;
  if (/HOSTNAME|ALTNAME/i.test(code)) return `the certificate of ${server} is for another name (${code})`;
  if (/WRONG_VERSION/i.test(code)) return `${server} does not speak TLS on this port (check the port and --imap-security)`;
  return `TLS with ${server} failed (${code})`;
}

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024).toLocaleString("en-US")} MB`;

/** The size limits a session was opened with (connections.imap.ts IMAP_LIMITS). */
type SizeLimits = { maxLiteralBytes: number; maxLineBytes: number; maxResponseBytes: number; maxResponseTokens: number };

/** An error of imapflow (or of a socket under it) as a ConnectionFailure. */
export function imapFailure(error: unknown, server: string, limits?: SizeLimits): ConnectionFailure {
  if (error instanceof ConnectionFailure) return error;
  const e = error as { code?: string; message?: string; authenticationFailed?: boolean; responseText?: string; serverResponseCode?: string; literalSize?: number };
  const code = String(e.code ?? "");
  // A response past the size limits (a hostile or broken server): refused before it is read.
  if (code === "LiteralTooLarge") {
    const size = Number.isFinite(e.literalSize) ? `${Number(e.literalSize).toLocaleString("en-US")} bytes` : "an unbounded size";
    return new ConnectionFailure("protocol", `${server} announced a literal of ${size}, more than ${limits ? mb(limits.maxLiteralBytes) : "the limit"} (the most read from an IMAP server at once)`);
  }
  if (code === "LineTooLarge") return new ConnectionFailure("protocol", `${server} sent a response line longer than ${limits ? mb(limits.maxLineBytes) : "the limit"}`);
  if (code === "ResponseTooLarge") return new ConnectionFailure("protocol", `${server} sent a response larger than ${limits ? mb(limits.maxResponseBytes) : "the limit"}`);
  if (code === "TooManyTokens") return new ConnectionFailure("protocol", `${server} sent a response of more than ${limits ? limits.maxResponseTokens.toLocaleString("en-US") : "the most"} tokens`);
  if (e.authenticationFailed || e.serverResponseCode === "AUTHENTICATIONFAILED") {
    return new ConnectionFailure("auth", `${server} refused the login and password${e.responseText ? ` ("${e.responseText.slice(0, 120)}")` : ""}`);
  }
  if (TLS_CODES.test(code) || (code === "" && TLS_CODES.test(e.message ?? "") && /certificate/i.test(e.message ?? ""))) return new ConnectionFailure("tls", tlsReason(code || "TLS", server));
  if (code === "ClosedAfterConnectTLS") return new ConnectionFailure("tls", `${server} closed the connection during the TLS handshake`);
  if (/does not support STARTTLS/i.test(e.message ?? "")) return new ConnectionFailure("tls", `${server} does not offer STARTTLS (check the port and --imap-security)`);
  if (NETWORK_CODES.has(code)) return new ConnectionFailure("unreachable", `cannot reach ${server} (${code})`);
  const text = e.responseText ?? e.message ?? String(error);
  return new ConnectionFailure("protocol", `${server}: ${text.slice(0, 200)}`);
}

/** How long the job waits before trying a failing connection again (never a tight loop). */
export function backoffSeconds(kind: FailureKind, failures: number, intervalSeconds: number): number {
  // A refused password does not fix itself: start at 15 minutes and reach a day.
  if (kind === "auth" || kind === "config") return Math.min(15 * 60 * 2 ** Math.max(0, failures - 1), 24 * 3600);
  // A server that is down comes back: start at one interval and reach an hour.
  return Math.min(Math.max(intervalSeconds, 60) * 2 ** Math.max(0, failures - 1), 3600);
}
