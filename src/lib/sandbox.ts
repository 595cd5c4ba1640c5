// Processes that read untrusted files (LibreOffice, the document child) run where a hostile file
// cannot reach out: their own network namespace, with nothing in it but a loopback that is down
// (`unshare -rn`: a user namespace first, so it works without root), and, for LibreOffice, a mount
// namespace in which the data dir (database, server key, every org's files) is an empty tmpfs,
// except the conversion's own work dir, bound back in. What works is probed once per process:
// Linux with user namespaces gets both; elsewhere the callers fall back to what they can do
// alone (LibreOffice's profile settings) and say so on /readyz.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { watchChild } from "./child-watcher.ts";

export type SandboxSupport = {
  /** `unshare -rn` works: a child can be given no network at all. */
  network: boolean;
  /** `unshare -rnm` with tmpfs and bind mounts works: a child can be kept out of directories. */
  mounts: boolean;
  /** The programs, by absolute path (found once: the server's PATH may change later). */
  bin: { unshare: string; env: string; sh: string };
};

let probed: Promise<SandboxSupport> | null = null;

/** Whether `cmd` exits 0 within 5 s; started from the child watcher's thread, not this one (starting a process holds its thread). */
async function exitsZero(cmd: string[]): Promise<boolean> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("DEALGRAPH_")) env[k] = v;
  const end = await watchChild({ cmd, env, stdin: "", nonce: "\u0000", cpuMs: null, timeoutMs: 5000, memoryBytes: null, maxOutputBytes: 64 * 1024, niceness: 0, sampleMs: 1000 }, () => {});
  return end.spawnError === null && end.stopped === null && end.code === 0;
}

/** What this machine allows, probed on first use and kept (it does not change while running). */
export function sandboxSupport(): Promise<SandboxSupport> {
  probed ??= (async () => {
    const unshare = Bun.which("unshare");
    const env = Bun.which("env");
    const bin = { unshare: unshare ?? "unshare", env: env ?? "env", sh: "/bin/sh" };
    if (!unshare || !env || process.platform !== "linux") return { network: false, mounts: false, bin };
    const network = await exitsZero([unshare, "-rn", "true"]);
    if (!network || !Bun.which("mount")) return { network, mounts: false, bin };
    // The real thing on a scratch dir: hide it, bind its work dir back, run a command there.
    const dir = mkdtempSync(join(tmpdir(), "dealgraph-sandbox-probe-"));
    try {
      return { network, mounts: await exitsZero(sandboxed(["true"], { hide: dir, work: join(dir, "work") }, { network, mounts: true, bin })), bin };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  })();
  return probed;
}

/** `env` as a command prefix, so the variables reach the sandbox script and nothing else changes. */
const withEnv = (env: string, vars: Record<string, string>, cmd: string[]) => [env, ...Object.entries(vars).map(([k, v]) => `${k}=${v}`), ...cmd];

// Run by /bin/sh inside the new namespaces: an empty tmpfs over the hidden dir, the work dir (held
// open as the current directory before the tmpfs covers it) bound back at its own path, then the
// command. `mount -c` keeps mount from resolving /proc/self/cwd to a path the tmpfs now hides.
const HIDE_SCRIPT = [
  "set -e",
  'mkdir -p "$SANDBOX_WORK"',
  'cd "$SANDBOX_WORK"',
  'mount -t tmpfs -o size=64k,mode=700 dealgraph-hidden "$SANDBOX_HIDE"',
  'mkdir -p "$SANDBOX_WORK"',
  'mount -c --bind /proc/self/cwd "$SANDBOX_WORK"',
  'cd "$SANDBOX_WORK"',
  'exec "$@"',
].join("\n");

/** `cmd` with no network, when the machine allows it (else as it is). */
export function withoutNetwork(cmd: string[], support: SandboxSupport): string[] {
  return support.network ? [support.bin.unshare, "-rn", ...cmd] : cmd;
}

/**
 * `cmd` with no network and `hide` replaced by an empty directory except `work` (which must be
 * inside it or elsewhere), as far as the machine allows.
 */
export function sandboxed(cmd: string[], opts: { hide: string | null; work: string }, support: SandboxSupport): string[] {
  if (opts.hide && support.mounts) {
    const { unshare, env, sh } = support.bin;
    return withEnv(env, { SANDBOX_HIDE: opts.hide, SANDBOX_WORK: opts.work }, [unshare, "-rnm", "--propagation", "private", sh, "-c", HIDE_SCRIPT, "sandbox", ...cmd]);
  }
  return withoutNetwork(cmd, support);
}

/** In words, for /readyz and the logs. */
export function describeSandbox(support: SandboxSupport): string {
  if (support.mounts) return "no network, data dir hidden";
  if (support.network) return "no network (the data dir stays visible: mount namespaces unavailable)";
  return "not isolated (unshare unavailable): LibreOffice's profile settings alone keep it from loading links";
}
