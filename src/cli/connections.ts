// `dealgraph admin mail-server set`, `connect mail|calendar`, `connections list|remove` and `sync`
// (CONTRACT.md "Connected mailboxes and calendars"): the organization's server, each user's
// accounts, and one sync now. Passwords come from the first line of stdin, never the command line
// (where `ps` and shell history see them), and are never printed.
import { readFileSync } from "node:fs";
import { connectionsLedger, LEDGER_PAGE, reasonsTotal, type Reasons } from "../modules/connections/connections.ledger.ts";
import { providerSetup, type ProviderServerInput } from "../modules/connections/connections.provider-setup.ts";
import { connectionsService } from "../modules/connections/connections.service.ts";
import { connectionsSync, type SyncEntry } from "../modules/connections/connections.sync.ts";
import { openDeps } from "./context.ts";
import { USAGE } from "./connections-usage.ts";
import { parse, positiveInt, report, required, UsageError, type Io } from "./io.ts";

const n = (x: number) => x.toLocaleString("en-US");

/** The first line of stdin: a password. */
async function passwordFromStdin(io: Io): Promise<string> {
  const password = (await io.readStdin()).split(/\r?\n/)[0] ?? "";
  if (!password) throw new UsageError("no password on stdin: pipe it in, e.g. `printf '%s\\n' \"$PASSWORD\" | dealgraph connect ...`");
  return password;
}

/** A file an option names, read (a clear error when it cannot be). */
function readOptionFile(option: string, path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`--${option} ${path} cannot be read (${(error as { code?: string }).code ?? (error as Error).message})`);
  }
}

const PROVIDER_OPTIONS = ["service-account-file", "tenant", "client-id", "client-secret-file", "certificate-file"] as const;

export async function mailServerCommand(verb: string | undefined, args: string[], io: Io) {
  if (verb !== "set") throw new UsageError(USAGE.mailServer);
  const { values, positionals } = parse(args, {
    org: { type: "string" },
    imap: { type: "string" },
    "imap-security": { type: "string" },
    caldav: { type: "string" },
    "ca-file": { type: "string" },
    insecure: { type: "boolean" },
    provider: { type: "string" },
    "service-account-file": { type: "string" },
    tenant: { type: "string" },
    "client-id": { type: "string" },
    "client-secret-file": { type: "string" },
    "certificate-file": { type: "string" },
  });
  if (positionals.length) throw new UsageError(USAGE.mailServer);
  const caPem = values["ca-file"] ? readOptionFile("ca-file", values["ca-file"]) : null;
  if (values.provider !== undefined) return providerServer(values, caPem, io);
  const stray = PROVIDER_OPTIONS.find((o) => values[o] !== undefined);
  if (stray) throw new UsageError(`--${stray} is for --provider google or microsoft`);
  const deps = openDeps(io, values);
  const set = connectionsService(deps).setMailServer(required("org", values.org), {
    imap: required("imap", values.imap),
    security: values["imap-security"],
    caldav: values.caldav ?? null,
    caPem,
    insecure: values.insecure ?? false,
  });
  report(io, values.json, set, `mail server of ${set.org_id}: IMAP ${set.imap} (${set.imap_security})${set.caldav ? `, CalDAV ${set.caldav}` : ""}${set.private_ca ? ", private CA trusted" : ""}`);
}

type ServerValues = { org?: string; imap?: string; "imap-security"?: string; caldav?: string; insecure?: boolean; provider?: string; json?: boolean; "data-dir"?: string } & Partial<Record<(typeof PROVIDER_OPTIONS)[number], string>>;

/** `mail-server set --provider google|microsoft`: the key, secret or certificate read here, checked and sealed by the service. */
async function providerServer(values: ServerValues, caPem: string | null, io: Io) {
  const provider = values.provider;
  if (provider !== "google" && provider !== "microsoft") throw new UsageError(`--provider must be google or microsoft, got ${JSON.stringify(provider)}`);
  if (values.caldav !== undefined) throw new UsageError(`--caldav is not used with --provider ${provider} (calendars are read from the provider)`);
  const mine = provider === "google" ? ["service-account-file"] : ["tenant", "client-id", "client-secret-file", "certificate-file"];
  const stray = PROVIDER_OPTIONS.find((o) => values[o] !== undefined && !mine.includes(o));
  if (stray) throw new UsageError(`--${stray} is not used with --provider ${provider}`);
  const org = required("org", values.org);
  const common = { imap: values.imap, security: values["imap-security"], caPem, insecure: values.insecure ?? false };
  let input: ProviderServerInput;
  if (provider === "google") {
    const file = values["service-account-file"];
    if (!file) throw new UsageError("--service-account-file KEY.json is required with --provider google (the service account's JSON key)");
    input = { provider, serviceAccountJson: readOptionFile("service-account-file", file), ...common };
  } else {
    if (values["client-secret-file"] !== undefined && values["certificate-file"] !== undefined) throw new UsageError("give one of --client-secret-file or --certificate-file, not both");
    input = {
      provider,
      tenant: values.tenant,
      clientId: values["client-id"],
      clientSecret: values["client-secret-file"] !== undefined ? readOptionFile("client-secret-file", values["client-secret-file"]) : undefined,
      certificatePem: values["certificate-file"] !== undefined ? readOptionFile("certificate-file", values["certificate-file"]) : undefined,
      ...common,
    };
  }
  const set = await providerSetup(openDeps(io, values)).setServer(org, input);
  const who = set.provider_account && "client_email" in set.provider_account ? `service account ${set.provider_account.client_email}` : `tenant ${set.provider_account?.tenant}, app ${set.provider_account?.client_id}`;
  report(io, values.json, set, `mail server of ${set.org_id}: ${provider === "google" ? "Google Workspace" : "Microsoft 365"} (${who}; its key sealed), IMAP ${set.imap} (${set.imap_security})`);
}

export async function connectCommand(args: string[], io: Io) {
  const [kind, ...rest] = args;
  if (kind === "mail") {
    const { values, positionals } = parse(rest, { user: { type: "string" }, login: { type: "string" }, folders: { type: "string" }, since: { type: "string" } });
    if (positionals.length) throw new UsageError(USAGE.connect);
    const userId = required("user", values.user);
    const deps = openDeps(io, values);
    const service = connectionsService(deps);
    // Google Workspace or Microsoft 365: no password, the login defaults to the user's address.
    const provider = service.providerOf(userId);
    const oauth = provider === "google" || provider === "microsoft";
    const login = oauth ? values.login : required("login", values.login);
    const password = oauth ? undefined : await passwordFromStdin(io);
    const folders = values.folders === undefined ? undefined : values.folders.split(",");
    // The command line is the server's operator: on a provider's server it may name another address of the user's.
    const { connection_id } = await service.connectMail(userId, { login, password, folders, since: values.since, otherAddress: true });
    const shown = login ?? service.get(connection_id)?.account ?? "";
    report(io, values.json, { connection_id }, `connected the mailbox ${shown}: ${connection_id} (it is synced by the server's mail-sync job, or now with \`dealgraph sync --user ${userId}\`)`);
    return;
  }
  if (kind === "calendar") {
    const { values, positionals } = parse(rest, { user: { type: "string" }, caldav: { type: "string" }, login: { type: "string" }, "ics-url": { type: "string" } });
    if (positionals.length || (values.caldav !== undefined && values["ics-url"] !== undefined)) throw new UsageError(USAGE.connect);
    const userId = required("user", values.user);
    if (values.caldav === undefined && values["ics-url"] === undefined) {
      // Google Workspace or Microsoft 365: the user's own calendar, no password.
      const deps = openDeps(io, values);
      const service = connectionsService(deps);
      const provider = service.providerOf(userId);
      if (provider !== "google" && provider !== "microsoft") throw new UsageError(USAGE.connect);
      const { connection_id } = await providerSetup(deps).connectCalendar(userId, { login: values.login });
      report(io, values.json, { connection_id }, `connected the calendar ${service.get(connection_id)?.account ?? ""}: ${connection_id}`);
      return;
    }
    const caldav = values.caldav !== undefined ? { caldav: values.caldav, login: required("login", values.login), password: await passwordFromStdin(io) } : null;
    const deps = openDeps(io, values);
    const { connection_id } = await connectionsService(deps).connectCalendar(userId, caldav ?? { icsUrl: values["ics-url"] });
    report(io, values.json, { connection_id }, `connected the calendar: ${connection_id}`);
    return;
  }
  throw new UsageError(USAGE.connect);
}

export async function connectionsCommand(args: string[], io: Io) {
  const [verb, ...rest] = args;
  if (verb === "list") {
    const { values, positionals } = parse(rest, { user: { type: "string" } });
    if (positionals.length) throw new UsageError(USAGE.connections);
    const listed = connectionsService(openDeps(io, values)).listForUser(required("user", values.user));
    if (values.json) io.out(JSON.stringify(listed));
    else if (listed.connections.length === 0) io.out("no connections");
    else {
      for (const c of listed.connections) {
        const progress = c.progress ? ` (${c.progress.folder}: ${n(c.progress.done)} of ${n(c.progress.total)})` : "";
        const last = c.last_synced_at ? `last synced ${c.last_synced_at}` : "never synced";
        io.out(`${c.connection_id}  ${c.kind.padEnd(8)} ${c.account}  ${c.status}${progress}  ${last}, ${n(c.items_synced)} items${c.last_error ? `  error: ${c.last_error}` : ""}`);
        // The last sync refused occurrences past the calendar limits: how many, and why.
        if (c.last_result?.refused) io.out(`  ${n(c.last_result.refused)} occurrences refused by the limits at the last sync`);
        for (const line of c.last_result?.refusals ?? []) io.out(`  refused: ${line}`);
      }
    }
    return;
  }
  if (verb === "ledger") {
    const { values, positionals } = parse(rest, { limit: { type: "string" }, offset: { type: "string" } });
    if (positionals.length !== 1) throw new UsageError(USAGE.connections);
    const limit = positiveInt("limit", values.limit, LEDGER_PAGE.max) ?? LEDGER_PAGE.default;
    if (limit < 1) throw new UsageError(`--limit must be at least 1, got ${JSON.stringify(values.limit)}`);
    const offset = positiveInt("offset", values.offset);
    const ledgers = connectionsLedger(openDeps(io, values));
    // Without --offset, the latest rows (a mailbox synced every 5 minutes has thousands): still oldest first.
    const first = ledgers.ledgerOf(positionals[0], undefined, { limit, offset: offset ?? 0 });
    const ledger = offset === undefined && first.total > limit ? ledgers.ledgerOf(positionals[0], undefined, { limit, offset: first.total - limit }) : first;
    if (values.json) io.out(JSON.stringify(ledger));
    else if (ledger.total === 0) io.out(`connection ${ledger.connection_id}: no sync has read anything yet`);
    else if (ledger.ledger.length === 0) io.out(`connection ${ledger.connection_id}: --offset ${n(ledger.offset)} is past the ledger's ${n(ledger.total)} rows`);
    else {
      const reasons = (r: Reasons) => Object.entries(r).map(([k, v]) => `${k} ${n(v)}`).join(", ");
      for (const e of ledger.ledger) {
        const skipped = reasonsTotal(e.skipped) ? `, ${n(reasonsTotal(e.skipped))} skipped (${reasons(e.skipped)})` : "";
        const failed = reasonsTotal(e.failed) ? `, ${n(reasonsTotal(e.failed))} failed (${reasons(e.failed)})` : "";
        const uids = e.seen === 0 && e.uid_from > e.uid_to ? `nothing new past UID ${e.uid_to}` : `UIDs ${e.uid_from}-${e.uid_to}`;
        io.out(`${e.synced_at}  ${e.folder}  UIDVALIDITY ${e.uidvalidity}  ${uids}: ${n(e.seen)} seen, ${n(e.imported)} imported, ${n(e.duplicates)} duplicates${skipped}${failed}`);
      }
      if (ledger.total > ledger.ledger.length)
        io.out(`rows ${n(ledger.offset + 1)}-${n(ledger.offset + ledger.ledger.length)} of ${n(ledger.total)}, oldest first (--offset N --limit N for others)`);
    }
    return;
  }
  if (verb === "remove") {
    const { values, positionals } = parse(rest, {});
    if (positionals.length !== 1) throw new UsageError(USAGE.connections);
    const removed = connectionsService(openDeps(io, values)).remove(positionals[0]);
    report(io, values.json, removed, `removed connection ${removed.connection_id}: it is no longer synced and its credentials are forgotten (what it recorded stays)`);
    return;
  }
  throw new UsageError(USAGE.connections);
}

function entryLine(e: SyncEntry): string {
  const figures = `${n(e.messages_new)} new messages, ${n(e.meetings_new)} new meetings, ${n(e.duplicates)} duplicates, ${n(e.skipped)} skipped${e.refused ? `, ${n(e.refused)} refused by the limits` : ""}`;
  const refusals = (e.refusals ?? []).map((line) => `\n  refused: ${line}`).join("");
  return `${e.connection_id}: ${e.status}, ${figures}${e.error ? `; error: ${e.error}` : ""}${refusals}`;
}

export async function syncCommand(args: string[], io: Io) {
  const { values, positionals } = parse(args, { user: { type: "string" } });
  if (positionals.length) throw new UsageError(USAGE.sync);
  const userId = required("user", values.user);
  const deps = openDeps(io, values);
  const service = connectionsService(deps);
  service.listForUser(userId);
  // A first backfill takes a while: where each connection is, on stderr.
  const shown = new Map<string, string>();
  const ticker = setInterval(() => {
    for (const c of service.list(userId)) {
      if (!c.progress) continue;
      const line = `${c.account}: ${c.progress.folder} ${n(c.progress.done)} of ${n(c.progress.total)}`;
      if (shown.get(c.connection_id) !== line) io.err(line);
      shown.set(c.connection_id, line);
    }
  }, 2_000);
  let result: { connections: SyncEntry[] };
  try {
    result = await connectionsSync(deps).syncUser(userId);
  } finally {
    clearInterval(ticker);
  }
  if (values.json) io.out(JSON.stringify(result));
  else if (result.connections.length === 0) io.out("no connections to sync");
  else for (const e of result.connections) io.out(entryLine(e));
  const failed = result.connections.filter((e) => e.status === "error");
  if (failed.length) {
    for (const e of failed) io.err(`${e.connection_id}: ${e.error}`);
    throw new Error(`${failed.length} of ${result.connections.length} connections failed to sync`);
  }
}
