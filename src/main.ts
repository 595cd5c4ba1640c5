// The binary's entry point (no exports: `bun build --compile --bytecode` wants it that way).
import { runCli } from "./cli/index.ts";
import { processIo } from "./cli/io.ts";

runCli(process.argv.slice(2), processIo).then((code) => {
  if (code !== "serving") process.exit(code);
});
