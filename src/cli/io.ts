// What a command needs from the outside world, injectable so tests can run commands in process.
import { parseArgs, type ParseArgsConfig } from "node:util";

export type Io = {
  out(line: string): void;
  err(line: string): void;
  env: Record<string, string | undefined>;
  readStdin(): Promise<string>;
};

export const processIo: Io = {
  out: (line) => process.stdout.write(line + "\n"),
  err: (line) => process.stderr.write(line + "\n"),
  env: process.env,
  readStdin: () => Bun.stdin.text(),
};

/** A wrong command line: printed as one line on stderr, exit code 2. */
export class UsageError extends Error {}

export function parse<T extends NonNullable<ParseArgsConfig["options"]>>(args: string[], options: T) {
  try {
    return parseArgs({ args, options: { ...options, "data-dir": { type: "string" }, json: { type: "boolean" } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function positiveInt(name: string, raw: string | undefined, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (raw === undefined) return undefined;
  const n = /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n)) throw new UsageError(`--${name} must be a whole number >= 0, got ${JSON.stringify(raw)}`);
  if (n > max) throw new UsageError(`--${name} must be at most ${max.toLocaleString("en-US")}, got ${JSON.stringify(raw)}`);
  return n;
}

export function required(name: string, value: string | undefined): string {
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

/** `--json`: one JSON object on stdout; otherwise the human line. */
export function report(io: Io, json: boolean | undefined, object: Record<string, unknown>, human: string): void {
  io.out(json ? JSON.stringify(object) : human);
}
