// Runs the real command line in process against a temp data dir, capturing what it prints.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../../src/cli/index.ts";
import type { Io } from "../../src/cli/io.ts";

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), "dealgraph-cli-"));
}

export function captureIo(env: Record<string, string | undefined> = {}, stdin = "") {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (l) => out.push(l), err: (l) => err.push(l), env, readStdin: async () => stdin };
  return { io, out, err };
}

export async function cli(dataDir: string, ...argv: string[]) {
  return cliIn(dataDir, "", ...argv);
}

/** `cli` with `stdin` as the command's standard input (a password's first line...). */
export async function cliIn(dataDir: string, stdin: string, ...argv: string[]) {
  const { io, out, err } = captureIo({}, stdin);
  const code = await runCli([...argv, "--data-dir", dataDir], io);
  const stdout = out.join("\n");
  let json: any;
  try {
    json = JSON.parse(stdout);
  } catch {
    json = undefined;
  }
  return { code, stdout, stderr: err.join("\n"), json };
}
