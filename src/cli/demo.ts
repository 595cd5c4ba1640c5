// `dealgraph demo`: on an empty data dir, generate a realistic demo firm and load it through the
// real import paths (src/demo/); print a read key, a write key and a one-click sign-in link for the
// web app; then serve. On a data dir it built before, it serves the same firm and prints the same
// keys and link again.
import { buildDemo, existingDemoKeys, type DemoKeys } from "../demo/build.ts";
import { signInUrl } from "../modules/web/web.auth.ts";
import { orgsService } from "../modules/identity/orgs.service.ts";
import type { Io } from "./io.ts";
import { openForServing, serverOptions, startServer } from "./serve.ts";

export async function demoCommand(args: string[], io: Io) {
  const { overrides } = serverOptions(args);
  const { deps, lock } = await openForServing(io, overrides, "demo");
  const empty = orgsService(deps).isEmpty();
  let keys: DemoKeys | null;
  if (empty) keys = await buildDemo(deps, io);
  else {
    keys = await existingDemoKeys(deps);
    if (!keys) {
      io.err(`${deps.config.dataDir} holds data that the demo did not build (or its demo keys were revoked); serving it without demo keys.`);
    }
  }
  const running = startServer(deps, { lock });
  io.out(`Dealgraph demo listening on ${running.url}  (API docs: ${running.url}/api/v1/docs)`);
  if (keys) {
    // The link names the address the server listens on, unless a public URL is configured.
    io.out(`web app:   ${signInUrl(deps.config.publicUrl ?? running.url, keys.sign_in_token!)}  (one click signs you in)`);
    io.out(`read key:  ${keys.read.secret}`);
    io.out(`write key: ${keys.write.secret}`);
    io.out(`try:       curl -H "Authorization: Bearer ${keys.read.secret}" ${running.url}/api/v1/me`);
  }
  return running;
}
