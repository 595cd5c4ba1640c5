// Setting up Google Workspace or Microsoft 365 (CONTRACT.md "Google Workspace and Microsoft 365"):
// an administrator sets the organization's provider (its key checked and sealed, IMAP at the
// provider's host unless another is given; nothing is asked of the provider yet), and a member
// connects their calendar with no password: Google's CalDAV (the primary calendar) or Microsoft
// Graph (the mailbox's calendar), probed with the provider's token before anything is stored.
// Mailboxes connect through the service's connectMail (its IMAP login takes the token).
import { perDeps, type Deps } from "../../deps.ts";
import { invalid, notFound } from "../../http/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { orgsService } from "../identity/orgs.service.ts";
import { probeCalendar } from "./connections.caldav.ts";
import { probeGraphCalendar } from "./connections.graph.ts";
import { policedFetch } from "./connections.http.ts";
import { googleCalendarUrl, PROVIDER_IMAP, providerPolicy, providerTokens, readProviderInput, type ProviderInput } from "./connections.providers.ts";
import { connectionsService, providerName } from "./connections.service.ts";

/** A Google Workspace or Microsoft 365 server: the provider's key, and optionally another IMAP host (tests, proxies). */
export type ProviderServerInput = ProviderInput & { imap?: string; security?: string; caPem?: string | null; insecure?: boolean };

export const providerSetup = perDeps((deps: Deps) => {
  const service = connectionsService(deps);

  /** Sets the organization's provider. Stores settings without asking the provider. */
  async function setServer(orgId: string, input: ProviderServerInput) {
    if (!isUuid(orgId) || !orgsService(deps).getOrg(orgId)) throw notFound(`No organization with id ${orgId}`);
    const imap = service.checkImap({ imap: input.imap ?? PROVIDER_IMAP[input.provider], security: input.security, insecure: input.insecure });
    const caPem = service.checkCa(input.caPem);
    const { settings, sealed } = await readProviderInput(deps, orgId, input);
    return service.writeServer({
      orgId,
      imapHost: imap.host,
      imapPort: imap.port,
      imapSecurity: imap.security,
      caldavUrl: null,
      caPem,
      insecure: imap.insecure,
      provider: input.provider,
      providerSettings: JSON.stringify(settings),
      providerSealed: sealed,
      updatedAt: deps.clock.now().toISOString(),
    });
  }

  /** The member's calendar on the organization's provider (`login`: another address of theirs). */
  async function connectCalendar(userId: string, input: { login?: string } = {}) {
    const user = service.memberOf(userId);
    const server = service.getMailServer(user.orgId);
    if (!server || server.provider === "imap") throw invalid(["provider"], "this organization's mail server is not Google Workspace or Microsoft 365: connect a calendar with --caldav URL --login LOGIN, or --ics-url URL");
    const provider = server.provider;
    const address = (input.login ?? user.email).trim();
    if (!address) throw invalid(["login"], "--login must not be empty");
    const attempt = service.reserveAttempt(user.id);
    // The first token is asked for before the calendar (a refusal is the provider's reason).
    const token = await providerTokens(deps).token(server, address, "calendar");
    let id: string;
    if (provider === "google") {
      const url = googleCalendarUrl(deps, address);
      await probeCalendar({ url, login: address, password: "", bearer: token, fetch: policedFetch(deps, providerPolicy(deps, server, url)) });
      id = await service.store(user, { kind: "calendar", source: "caldav", account: `${address} (Google Calendar)`, accountKey: `google:${address.toLowerCase()}`, url }, { provider, login: address });
    } else {
      await probeGraphCalendar(deps, server, address);
      id = await service.store(user, { kind: "calendar", source: "graph", account: `${address} (${providerName(provider)} calendar)`, accountKey: `graph:${address.toLowerCase()}`, url: null }, { provider, login: address });
    }
    attempt.settle();
    return { connection_id: id };
  }

  return { setServer, connectCalendar };
});
