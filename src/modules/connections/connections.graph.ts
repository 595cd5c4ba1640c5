// Microsoft Graph over HTTP: requests with the app's bearer token through safe-fetch (the provider's
// policy: connections.providers.ts), Graph's errors as a connection's failure with Graph's own code
// and message, and the probe made when a Microsoft 365 calendar is connected.
import type { Deps } from "../../deps.ts";
import { ConnectionFailure } from "./connections.failures.ts";
import { policedFetch } from "./connections.http.ts";
import { bearerFetch, graphBase, providerPolicy, providerTokens } from "./connections.providers.ts";
import type { mailServers } from "./connections.tables.ts";

type MailServer = typeof mailServers.$inferSelect;

/** Events per page asked of Graph (odata.maxpagesize), and the most one answer may weigh. */
export const GRAPH_PAGE = { size: 200, maxBytes: 20 * 1024 * 1024 };

/** A failure for what Graph answered (its own error code and message, which never hold the token). */
export async function graphFailure(response: Response, address: string): Promise<ConnectionFailure> {
  let reason = `HTTP ${response.status}`;
  try {
    const body = JSON.parse(await response.text()) as { error?: { code?: string; message?: string } };
    if (body.error?.code) reason += ` ${body.error.code}${body.error.message ? `: ${body.error.message.split(/\r?\n/)[0].slice(0, 300)}` : ""}`;
  } catch {
    // no JSON reason
  }
  if (response.status === 401 || response.status === 403) return new ConnectionFailure("auth", `Microsoft Graph refused the calendar of ${address} (${reason})`);
  if (response.status === 404) return new ConnectionFailure("protocol", `Microsoft Graph has no calendar for ${address} (${reason})`);
  if (response.status === 429 || response.status >= 500) return new ConnectionFailure("unreachable", `Microsoft Graph failed on its side for ${address} (${reason})`);
  return new ConnectionFailure("protocol", `Microsoft Graph answered ${reason} for the calendar of ${address}`);
}

/** A fetch to Graph with the app's token (a fresh one when a cached one is refused). */
export function graphFetch(deps: Deps, server: MailServer, url: string, address: string) {
  return bearerFetch(policedFetch(deps, providerPolicy(deps, server, url), { timeoutMs: 60_000, maxBytes: GRAPH_PAGE.maxBytes }), (opts) => providerTokens(deps).tokenOf(server, address, "calendar", opts));
}

export const graphHeaders = { accept: "application/json", prefer: `outlook.timezone="UTC", odata.maxpagesize=${GRAPH_PAGE.size}` };

/** Asks Graph for the mailbox's calendar: the app may read it (Calendars.Read) and the mailbox exists. */
export async function probeGraphCalendar(deps: Deps, server: MailServer, address: string): Promise<void> {
  const url = `${graphBase(deps)}/users/${encodeURIComponent(address)}/calendar?$select=id,name`;
  const response = await graphFetch(deps, server, url, address)(url, { headers: graphHeaders });
  if (response.status !== 200) throw await graphFailure(response, address);
}
