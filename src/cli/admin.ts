// `dealgraph admin org|user|key|grant|mail-server ...`: the operator's door to identity (and to MCP
// sign-in grants and the mail server), through the same services the HTTP API uses.
import { parseDateOrTimestamp } from "../lib/dates.ts";
import { apiKeysService, MAX_DAILY_BUDGET } from "../modules/identity/keys.service.ts";
import { keyViews } from "../modules/identity/keys.views.ts";
import { orgsService } from "../modules/identity/orgs.service.ts";
import { userLinkCommand, userPasswordCommand } from "./admin-web.ts";
import { openDeps } from "./context.ts";
import { parse, positiveInt, report, required, UsageError, type Io } from "./io.ts";

function parseDate(name: string, raw: string | undefined): Date | undefined {
  if (raw === undefined) return undefined;
  const date = parseDateOrTimestamp(raw);
  if (!date) {
    throw new UsageError(
      `--${name} must be an ISO 8601 date (a real day, YYYY-MM-DD) or timestamp with a zone (e.g. 2027-03-01T09:00:00Z), got ${JSON.stringify(raw)}`,
    );
  }
  return date;
}

async function orgCommand(verb: string | undefined, args: string[], io: Io) {
  if (verb !== "create") throw new UsageError("usage: dealgraph admin org create --name NAME [--json]");
  const { values } = parse(args, { name: { type: "string" } });
  const org = orgsService(openDeps(io, values)).createOrg(required("name", values.name));
  report(io, values.json, { org_id: org.id }, `created organization ${org.name}: ${org.id}`);
}

async function userCommand(verb: string | undefined, args: string[], io: Io) {
  if (verb === "create") {
    const { values } = parse(args, {
      org: { type: "string" },
      "no-org": { type: "boolean" },
      email: { type: "string" },
      name: { type: "string" },
      "share-network": { type: "boolean" },
      admin: { type: "boolean" },
    });
    if (!values.org === !values["no-org"]) throw new UsageError("give exactly one of --org ORG_ID or --no-org");
    const user = orgsService(openDeps(io, values)).createUser({
      orgId: values.org ?? null,
      email: required("email", values.email),
      name: required("name", values.name),
      shareNetwork: values["share-network"] ?? false,
      isAdmin: values.admin ?? false,
    });
    report(io, values.json, { user_id: user.id }, `created user ${user.name} <${user.email}>: ${user.id}`);
    return;
  }
  if (verb === "share") {
    const { values, positionals } = parse(args, { user: { type: "string" } });
    const state = positionals[0];
    if (state !== "on" && state !== "off") throw new UsageError("usage: dealgraph admin user share --user USER_ID on|off");
    const user = orgsService(openDeps(io, values)).setSharing(required("user", values.user), state === "on");
    report(io, values.json, { user_id: user.id, share_network: user.shareNetwork }, `network sharing for ${user.name}: ${state}`);
    return;
  }
  if (verb === "operator") {
    const { values, positionals } = parse(args, { user: { type: "string" } });
    const state = positionals[0];
    if (positionals.length !== 1 || (state !== "on" && state !== "off")) throw new UsageError("usage: dealgraph admin user operator --user USER_ID on|off");
    const user = orgsService(openDeps(io, values)).setOperator(required("user", values.user), state === "on");
    report(io, values.json, { user_id: user.id, operator: user.isOperator }, `server operator (backups in the web app) for ${user.name}: ${state}`);
    return;
  }
  if (verb === "time-zone") {
    const { values, positionals } = parse(args, { user: { type: "string" } });
    if (positionals.length !== 1) throw new UsageError("usage: dealgraph admin user time-zone --user USER_ID ZONE|none   (an IANA zone such as Europe/Paris)");
    const zone = positionals[0] === "none" ? null : positionals[0];
    const user = orgsService(openDeps(io, values)).setTimeZone(required("user", values.user), zone);
    report(io, values.json, { user_id: user.id, time_zone: user.timeZone }, `time zone for ${user.name}: ${user.timeZone ?? "none (UTC)"}`);
    return;
  }
  if (verb === "password") return userPasswordCommand(args, io);
  if (verb === "link") return userLinkCommand(args, io);
  throw new UsageError("usage: dealgraph admin user create|share|operator|time-zone|password|link ...");
}

async function keyCommand(verb: string | undefined, args: string[], io: Io) {
  if (verb === "create") {
    const { values } = parse(args, {
      user: { type: "string" },
      scope: { type: "string" },
      name: { type: "string" },
      "expires-at": { type: "string" },
      "daily-requests": { type: "string" },
      "daily-actions": { type: "string" },
    });
    const scope = required("scope", values.scope);
    if (scope !== "read" && scope !== "write") throw new UsageError(`--scope must be read or write, got ${JSON.stringify(scope)}`);
    const created = apiKeysService(openDeps(io, values)).create({
      userId: required("user", values.user),
      scope,
      name: values.name,
      expiresAt: parseDate("expires-at", values["expires-at"]) ?? null,
      dailyRequests: positiveInt("daily-requests", values["daily-requests"], MAX_DAILY_BUDGET) ?? null,
      dailyActions: positiveInt("daily-actions", values["daily-actions"], MAX_DAILY_BUDGET) ?? null,
    });
    report(
      io,
      values.json,
      { key_id: created.keyId, secret: created.secret },
      `created ${scope} key ${created.keyId}\nsecret (shown once, store it now): ${created.secret}`,
    );
    return;
  }
  if (verb === "revoke") {
    const { values, positionals } = parse(args, {});
    const keyId = positionals[0];
    if (!keyId) throw new UsageError("usage: dealgraph admin key revoke KEY_ID");
    const key = apiKeysService(openDeps(io, values)).revoke(keyId);
    report(io, values.json, { key_id: key.id, revoked_at: key.revokedAt }, `revoked key ${key.id} at ${key.revokedAt}`);
    return;
  }
  if (verb === "rotate") {
    const { values, positionals } = parse(args, { "overlap-hours": { type: "string" } });
    const keyId = positionals[0];
    if (!keyId) throw new UsageError("usage: dealgraph admin key rotate KEY_ID [--overlap-hours H]");
    const hours = values["overlap-hours"] === undefined ? 24 : Number(values["overlap-hours"]);
    if (!Number.isFinite(hours) || hours < 0) throw new UsageError(`--overlap-hours must be a number >= 0, got ${JSON.stringify(values["overlap-hours"])}`);
    const rotated = apiKeysService(openDeps(io, values)).rotate(keyId, hours);
    report(
      io,
      values.json,
      { key_id: rotated.keyId, secret: rotated.secret, previous_key_id: keyId, previous_expires_at: rotated.oldKey.expiresAt },
      `rotated key ${keyId} into ${rotated.keyId}; the old key works until ${rotated.oldKey.expiresAt}\nsecret (shown once, store it now): ${rotated.secret}`,
    );
    return;
  }
  if (verb === "list") {
    const { values } = parse(args, { user: { type: "string" } });
    const deps = openDeps(io, values);
    const views = keyViews(deps, apiKeysService(deps).listForUser(required("user", values.user)));
    if (values.json) io.out(JSON.stringify({ keys: views }));
    else for (const k of views) io.out(`${k.key_id}  ${k.prefix}…  ${k.scope.padEnd(5)}  ${k.status.padEnd(7)}  ${k.name}`);
    return;
  }
  throw new UsageError("usage: dealgraph admin key create|revoke|rotate|list ...");
}

export async function adminCommand(args: string[], io: Io) {
  const [noun, verb, ...rest] = args;
  if (noun === "org") return orgCommand(verb, rest, io);
  if (noun === "user") return userCommand(verb, rest, io);
  if (noun === "key") return keyCommand(verb, rest, io);
  if (noun === "mail-server") return (await import("./connections.ts")).mailServerCommand(verb, rest, io);
  if (noun === "grant") return (await import("./admin-grants.ts")).grantCommand(verb, rest, io);
  throw new UsageError("usage: dealgraph admin org|user|key|grant|mail-server ...");
}
