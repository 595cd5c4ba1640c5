// The Connections page's routes (/app/connections): connect a mailbox or a calendar (probed by the
// connections service first; on a Google Workspace or Microsoft 365 org through the provider's
// sign-in, for the member's own address, with no password; a refusal is shown at the form and nothing is stored), sync one now,
// remove one (only the member's own: another's is 404), and the digest opt-in. Every POST carries
// the CSRF token (the guard) and answers with a redirect and a flash, or the page with the error.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { ApiError } from "../../http/errors.ts";
import { ConnectionFailure } from "../connections/connections.failures.ts";
import { connectionsLedger } from "../connections/connections.ledger.ts";
import { providerSetup } from "../connections/connections.provider-setup.ts";
import { connectionsService } from "../connections/connections.service.ts";
import { connectionsSync } from "../connections/connections.sync.ts";
import { connectionsPage, type CalendarForm, type ConnectionsView, type MailForm } from "./pages/connections.ts";
import { guard, refusalText, type WebCtx } from "./web.guard.ts";
import { htmlResponse, redirect } from "./web.http.ts";

const hidden = { detail: { hide: true } };

/** The latest ledger rows shown per mailbox (the CLI and the API page through them all). */
const LEDGER_ROWS_SHOWN = 10;

/** Why connecting failed, for the form: the server's reason or the settings' refusal. */
function refused(error: unknown): string {
  return `Not connected: ${error instanceof ConnectionFailure ? error.message : refusalText(error)}.`;
}

/** The form's status: 429 (with Retry-After) past the limit on connect attempts, else 422. */
function refusedWith(page: (status: number) => Response, error: unknown): Response {
  if (!(error instanceof ApiError && error.status === 429)) return page(422);
  const response = page(429);
  for (const [name, value] of Object.entries(error.headers)) response.headers.set(name, value);
  return response;
}

export function connectionPageRoutes(deps: Deps) {
  const service = connectionsService(deps);
  const sync = connectionsSync(deps);
  const ledger = connectionsLedger(deps);

  function render(c: WebCtx & { org: { id: string } }, forms: { mail?: MailForm; calendar?: CalendarForm } = {}, status = 200): Response {
    const server = service.getMailServer(c.org.id);
    const connections = service.list(c.user.id);
    const view: ConnectionsView = {
      server: server ? { imap: service.serverView(server).imap, caldav: server.caldavUrl, provider: server.provider } : null,
      email: c.user.email,
      connections,
      mail: forms.mail ?? { login: c.user.email, folders: "", since: "", error: null },
      calendar: forms.calendar ?? { source: "caldav", url: server?.caldavUrl ?? "", login: c.user.email, error: null },
      digest: { enabled: service.digestEnabled(c.user.id), outboundConfigured: deps.config.smtp !== null },
      ledgers: Object.fromEntries(
        connections.filter((x) => x.kind === "mail").map((x) => [x.connection_id, { totals: ledger.totals(x.connection_id), recent: ledger.latest(x.connection_id, LEDGER_ROWS_SHOWN).reverse() }]),
      ),
    };
    const response = htmlResponse(connectionsPage(c.shell("Connections", "connections"), view), status);
    // While a sync runs, the page follows it.
    if (connections.some((x) => x.status === "syncing")) response.headers.set("refresh", "5");
    return response;
  }

  /** Starts a sync in the background (the page shows it as syncing); its outcome is recorded on the connection. */
  function kick(connectionId: string): void {
    void sync.syncOne(connectionId).catch((error) => deps.log.warn("web: background sync failed", { connection_id: connectionId, error: (error as Error).message }));
  }

  return new Elysia({ prefix: "/app/connections" })
    .get("", guard(deps, {}, (c) => render(c)), hidden)
    .post(
      "/mail",
      guard(deps, {}, async (c) => {
        const form: MailForm = { login: (c.fields.login ?? "").trim(), folders: (c.fields.folders ?? "").trim(), since: (c.fields.since ?? "").trim(), error: null };
        // On a provider's org the member connects their own address with no password (the form has neither).
        const provider = service.getMailServer(c.org.id)?.provider !== "imap";
        try {
          const { connection_id } = await service.connectMail(c.user.id, {
            login: provider ? undefined : form.login,
            password: provider ? undefined : (c.fields.password ?? ""),
            folders: form.folders ? form.folders.split(",") : undefined,
            since: form.since || undefined,
          });
          kick(connection_id);
        } catch (error) {
          return refusedWith((status) => render(c, { mail: { ...form, error: refused(error) } }, status), error);
        }
        c.flash({ kind: "success", text: `Connected the mailbox ${provider ? c.user.email : form.login}. Its first sync has started.` });
        return redirect("/app/connections");
      }),
      hidden,
    )
    .post(
      "/calendar",
      guard(deps, {}, async (c) => {
        const source = c.fields.source === "ics" || c.fields.source === "provider" ? c.fields.source : "caldav";
        const form: CalendarForm = { source, url: (c.fields.url ?? "").trim(), login: (c.fields.login ?? "").trim(), error: null };
        try {
          let connection_id: string;
          // The member's own calendar at the org's provider (refused with the reason on an org without one).
          if (form.source === "provider") ({ connection_id } = await providerSetup(deps).connectCalendar(c.user.id));
          else ({ connection_id } = await service.connectCalendar(c.user.id, form.source === "ics" ? { icsUrl: form.url } : { caldav: form.url, login: form.login, password: c.fields.password ?? "" }));
          kick(connection_id);
        } catch (error) {
          return refusedWith((status) => render(c, { calendar: { ...form, error: refused(error) } }, status), error);
        }
        c.flash({ kind: "success", text: "Connected the calendar. Its first sync has started." });
        return redirect("/app/connections");
      }),
      hidden,
    )
    .post(
      "/digest",
      guard(deps, {}, (c) => {
        const enabled = c.fields.enabled === "on";
        service.setDigest(c.user.id, enabled);
        c.flash({ kind: "success", text: enabled ? "You will get the going-stale digest every Monday." : "The weekly digest is off." });
        return redirect("/app/connections");
      }),
      hidden,
    )
    .post(
      "/:connection_id/sync",
      guard(deps, {}, (c) => {
        const row = service.get(c.params.connection_id);
        if (!row || row.userId !== c.user.id) throw new ApiError(404, "No such connection.");
        kick(row.id);
        c.flash({ kind: "success", text: `A sync of ${row.account} has started.` });
        return redirect("/app/connections");
      }),
      hidden,
    )
    .post(
      "/:connection_id/remove",
      guard(deps, {}, (c) => {
        const row = service.get(c.params.connection_id);
        if (!row || row.userId !== c.user.id) throw new ApiError(404, "No such connection.");
        service.remove(row.id, c.user.id);
        c.flash({ kind: "success", text: `Removed ${row.account}: it is no longer synced and what it signed in with (a password or a provider token) is forgotten. What it recorded stays.` });
        return redirect("/app/connections");
      }),
      hidden,
    );
}
