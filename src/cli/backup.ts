// `dealgraph backup`, `backup verify` and `restore` (CONTRACT.md, "Backups and upgrades"). A backup
// opens the database beside a running server without migrating it; progress goes to stderr.
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadConfig } from "../config.ts";
import { BackupError } from "../modules/backups/backups.archive.ts";
import { restoreBackup } from "../modules/backups/backups.restore.ts";
import { createBackup, verifyBackup } from "../modules/backups/backups.service.ts";
import { parse, report, UsageError, type Io } from "./io.ts";


const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export async function backupCommand(args: string[], io: Io) {
  if (args[0] === "verify") return verify(args.slice(1), io);
  const { values, positionals } = parse(args, { out: { type: "string" } });
  if (positionals.length) throw new UsageError(`unexpected ${JSON.stringify(positionals[0])}; usage: dealgraph backup [--out FILE] [--json] | dealgraph backup verify FILE`);
  const config = loadConfig(io.env, values["data-dir"] ? { dataDir: values["data-dir"] as string } : {});
  const written = await createBackup({ config, now: new Date(), out: values.out ? resolve(values.out as string) : undefined, progress: (line) => io.err(line) });
  if (written.manifest.server_key === "env") io.err("note: the server key is DEALGRAPH_SECRET_KEY and is not in the archive: keep it with the backup, a restore needs it");
  report(
    io,
    values.json as boolean | undefined,
    { file: written.file, bytes: written.bytes, sha256: written.sha256, verified_at: written.verified_at },
    `${written.file} (${mb(written.bytes)}, sha256 ${written.sha256}), verified`,
  );
}

async function verify(args: string[], io: Io) {
  const { values, positionals } = parse(args, {});
  const file = positionals[0];
  if (!file || positionals.length > 1) throw new UsageError("usage: dealgraph backup verify FILE [--json]");
  if (!existsSync(file)) throw new BackupError(`no such archive: ${file}`);
  const config = loadConfig(io.env, values["data-dir"] ? { dataDir: values["data-dir"] as string } : {});
  const dataDirExists = existsSync(config.dataDir);
  const check = await verifyBackup(resolve(file), {
    workDir: dataDirExists ? join(config.dataDir, "tmp") : tmpdir(),
    dataDir: dataDirExists ? config.dataDir : undefined,
    now: new Date(),
    progress: (line) => io.err(line),
  });
  const ok = check.problems.length === 0;
  const files = check.manifest?.files.length ?? null;
  report(
    io,
    values.json as boolean | undefined,
    { file, ok, problems: check.problems, created_at: check.manifest?.created_at ?? null, files },
    ok ? `${file}: ok (${files} files, taken ${check.manifest!.created_at})` : `${file}: damaged`,
  );
  if (!ok) throw new BackupError(`${file}: ${check.problems.join("; ")}`);
}

export async function restoreCommand(args: string[], io: Io) {
  const { values, positionals } = parse(args, {});
  const file = positionals[0];
  if (!file || positionals.length > 1 || !values["data-dir"]) throw new UsageError("usage: dealgraph restore FILE --data-dir DIR [--json]");
  const restored = await restoreBackup(resolve(file), resolve(values["data-dir"] as string), (line) => io.err(line));
  if (restored.server_key === "env") io.err("note: the backed-up server kept its key in DEALGRAPH_SECRET_KEY: set the same value to serve this data dir");
  report(
    io,
    values.json as boolean | undefined,
    restored,
    `restored ${restored.files} files (${mb(restored.bytes)}) taken ${restored.created_at} into ${restored.data_dir}`,
  );
}
