// `dealgraph admin user password|link`: the operator's way into the web app for a user: set a
// password (read from stdin, never from the command line where `ps` and shell history see it),
// or print a one-time sign-in link (valid 15 minutes, single use).
import { orgsService } from "../modules/identity/orgs.service.ts";
import { signInUrl, webAuth } from "../modules/web/web.auth.ts";
import { openDeps } from "./context.ts";
import { parse, report, required, UsageError, type Io } from "./io.ts";

const DEFAULT_PUBLIC_URL = "http://127.0.0.1:8080";

export async function userPasswordCommand(args: string[], io: Io) {
  const { values, positionals } = parse(args, { user: { type: "string" } });
  if (positionals.length) throw new UsageError("usage: dealgraph admin user password --user USER_ID (the new password is read from stdin)");
  const userId = required("user", values.user);
  // One line: the first line of stdin, without its line ending.
  const password = (await io.readStdin()).split(/\r?\n/)[0] ?? "";
  if (!password) throw new UsageError("no password on stdin: pipe it in, e.g. `printf '%s\\n' \"$PASSWORD\" | dealgraph admin user password --user USER_ID`");
  const user = await webAuth(openDeps(io, values)).setPassword(userId, password);
  report(io, values.json, { user_id: user.id, password_set: true }, `password set for ${user.name} <${user.email}>`);
}

export async function userLinkCommand(args: string[], io: Io) {
  const { values, positionals } = parse(args, { user: { type: "string" }, send: { type: "boolean" } });
  if (positionals.length) throw new UsageError("usage: dealgraph admin user link --user USER_ID [--send]");
  const userId = required("user", values.user);
  const deps = openDeps(io, values);
  // Checked before a link exists: without outbound mail, --send issues nothing.
  const mail = values.send ? (await import("../modules/connections/connections.outbound.ts")) : null;
  if (mail && !mail.outboundMail(deps).configured) throw new Error(`cannot send the sign-in link: ${mail.NOT_CONFIGURED}`);
  const { token, expiresAt } = webAuth(deps).issueLink(userId);
  const url = signInUrl(deps.config.publicUrl ?? DEFAULT_PUBLIC_URL, token);
  if (!mail) {
    report(io, values.json, { url, expires_at: expiresAt }, url);
    return;
  }
  const user = orgsService(deps).mustGetUser(userId);
  await mail.outboundMail(deps).send(signInLinkMail(user.email, user.name, url, expiresAt));
  report(io, values.json, { user_id: user.id, sent_to: user.email, expires_at: expiresAt }, `emailed a one-time sign-in link to ${user.email} (valid until ${expiresAt})`);
}

/** The sign-in link as a plain mail: what it is, until when, and that it works once. */
function signInLinkMail(to: string, name: string, url: string, expiresAt: string) {
  return {
    to,
    subject: "Your Dealgraph sign-in link",
    text: [
      `Hello ${name},`,
      "",
      "Open this link to sign in to Dealgraph:",
      "",
      url,
      "",
      `It works once, until ${expiresAt} (15 minutes after it was made). If you did not expect it, ignore this mail: nobody can use the link without this mailbox.`,
      "",
      "After signing in, set a password on your account page to sign in without a link.",
    ].join("\n"),
  };
}
