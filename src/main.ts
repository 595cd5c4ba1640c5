// The binary's entry point (no exports: `bun build --compile --bytecode` wants it that way).
import { runCli } from "./cli/index.ts";
import { processIo } from "./cli/io.ts";

// Everything this program writes (the database, blobs, backups, a restored data dir, the server
// key) is the server's alone: files 0600, directories 0700, whoever else shares the machine.
process.umask(0o077);

runCli(process.argv.slice(2), processIo).then((code) => {
  if (code !== "serving") process.exit(code);
});
