// `dealgraph admin grant list|revoke`: the operator's view of MCP sign-in grants (the apps members
// allowed to use /mcp as them), through the oauth module's service, and revocation that takes
// effect on the app's next request.
import { notFound } from "../http/errors.ts";
import { oauthService, REVOKED_BECAUSE } from "../modules/oauth/oauth.service.ts";
import { grantViews } from "../modules/oauth/oauth.views.ts";
import { openDeps } from "./context.ts";
import { GRANT_USAGE } from "./grant-usage.ts";
import { parse, report, UsageError, type Io } from "./io.ts";

export async function grantCommand(verb: string | undefined, args: string[], io: Io) {
  if (verb === "list") {
    const { values, positionals } = parse(args, { user: { type: "string" }, org: { type: "string" }, active: { type: "boolean" } });
    if (positionals.length || (values.user && values.org)) throw new UsageError(`usage: ${GRANT_USAGE[0]}`);
    const deps = openDeps(io, values);
    const views = grantViews(deps, oauthService(deps).list({ userId: values.user, orgId: values.org }, null)).filter((g) => !values.active || g.status === "active");
    if (values.json) io.out(JSON.stringify({ grants: views }));
    else if (views.length === 0) io.out("no grants");
    else {
      for (const g of views) {
        const ended = g.status === "revoked" ? `  revoked ${g.revoked_at} (${g.revoked_reason})` : "";
        io.out(`${g.grant_id}  ${g.status.padEnd(7)}  ${g.scope.padEnd(10)}  ${g.client_name}  ${g.user.email}  last used ${g.last_used_at ?? "never"}${ended}`);
      }
    }
    return;
  }
  if (verb === "revoke") {
    const { values, positionals } = parse(args, {});
    if (positionals.length !== 1) throw new UsageError(`usage: ${GRANT_USAGE[1]}`);
    const grant = oauthService(openDeps(io, values)).revokeGrant(positionals[0], REVOKED_BECAUSE.cli);
    if (!grant) throw notFound(`No grant with id ${positionals[0]}`);
    report(io, values.json, { grant_id: grant.id, revoked_at: grant.revokedAt }, `revoked grant ${grant.id} (${grant.clientName ?? "an app without a name"} of ${grant.userEmail}) at ${grant.revokedAt}`);
    return;
  }
  throw new UsageError(`usage: ${GRANT_USAGE.join(" | ")}`);
}
