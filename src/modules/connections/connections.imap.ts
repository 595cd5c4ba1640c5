// The IMAP side of a mail connection, on imapflow: opening a session with the organization's
// server settings (TLS verified, a private CA when given, STARTTLS required when asked, plaintext
// only where an administrator allowed it), and choosing the folders a sync reads: INBOX and the
// server's \Sent folder by default, never Junk, Trash or Drafts whatever is asked.
import type { ImapFlow, ListResponse } from "imapflow";
import { isIP } from "node:net";
import { ConnectionFailure, imapFailure } from "./connections.failures.ts";

export type ImapSecurity = "tls" | "starttls" | "plain";

export type ImapServer = { host: string; port: number; security: ImapSecurity; caPem: string | null };

export const defaultImapPort = (security: ImapSecurity) => (security === "tls" ? 993 : 143);

/** `host:port` as shown to people. */
export const imapAddress = (s: Pick<ImapServer, "host" | "port">) => `${s.host.includes(":") ? `[${s.host}]` : s.host}:${s.port}`;

/** Opens and logs in (throws ConnectionFailure). The caller logs out. */
export async function openImap(server: ImapServer, login: string, password: string, opts: { timeoutMs?: number } = {}): Promise<ImapFlow> {
  const timeout = opts.timeoutMs ?? 20_000;
  // Loaded with the first session: the server starts without the IMAP client.
  const { ImapFlow } = await import("imapflow");
  const client = new ImapFlow({
    host: server.host,
    port: server.port,
    secure: server.security === "tls",
    // starttls: required (a server that does not offer it fails); plain: never attempted.
    doSTARTTLS: server.security === "starttls" ? true : server.security === "plain" ? false : undefined,
    servername: isIP(server.host) ? undefined : server.host,
    auth: { user: login, pass: password },
    tls: { rejectUnauthorized: true, minVersion: "TLSv1.2", ...(server.caPem ? { ca: server.caPem } : {}) },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: 5 * 60_000,
    clientInfo: { name: "Dealgraph" },
  });
  // A dropped connection is reported through the command in flight; the event must not be unhandled.
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    client.close();
    throw imapFailure(error, imapAddress(server));
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
