import type { Deps } from "../src/deps.ts";
import { connectionsIdle } from "../src/modules/connections/connections.idle.ts";

/**
 * Live mail: an IMAP IDLE session per connected mailbox's INBOX (where the server offers IDLE),
 * syncing the mailbox as soon as mail arrives; the `mail-sync` job stays the fallback.
 */
export function startMailIdle(deps: Deps): { stop(): Promise<void> } {
  const idle = connectionsIdle(deps);
  idle.start();
  return { stop: () => idle.stop() };
}
