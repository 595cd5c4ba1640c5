// One JSON line per event on stderr: greppable in production, silent in tests.
export type LogFields = Record<string, unknown>;

export interface Log {
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

export function createLog(opts: { silent?: boolean } = {}): Log {
  const write = (level: string, msg: string, fields?: LogFields) => {
    if (opts.silent) return;
    process.stderr.write(JSON.stringify({ t: new Date().toISOString(), level, msg, ...fields }) + "\n");
  };
  return {
    info: (msg, fields) => write("info", msg, fields),
    warn: (msg, fields) => write("warn", msg, fields),
    error: (msg, fields) => write("error", msg, fields),
  };
}

export const silentLog = createLog({ silent: true });
