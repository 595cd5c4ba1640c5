// `dealgraph admin user password|link`: the operator's way into the web app for a user: set a
// password (read from stdin, never from the command line where `ps` and shell history see it),
// or print a one-time sign-in link (valid 15 minutes, single use).
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
  const { values, positionals } = parse(args, { user: { type: "string" } });
  if (positionals.length) throw new UsageError("usage: dealgraph admin user link --user USER_ID");
  const deps = openDeps(io, values);
  const { token, expiresAt } = webAuth(deps).issueLink(required("user", values.user));
  const url = signInUrl(deps.config.publicUrl ?? DEFAULT_PUBLIC_URL, token);
  report(io, values.json, { url, expires_at: expiresAt }, url);
}
