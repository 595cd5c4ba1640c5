// `bun run build`: the single executable dist/dealgraph, then a smoke test of it from a temp dir
// outside the repo (admin commands, `serve`, embedded migrations, embedded docs assets, validation
// alive). test/e2e/binary-anywhere.test.ts goes further with the binary copied alone elsewhere.
//
// Equivalent to `bun build --compile --minify-whitespace --minify-syntax --bytecode --format=esm
// --splitting src/main.ts --outfile dist/dealgraph`. Never the identifier-minifying flags (plain minify included): they rename
// classes Elysia checks by name and validation is silently skipped.
//
// Why `--format=esm`: `--bytecode` defaults to CommonJS output, and `--splitting` (below) needs ESM.
//
// Why pino is replaced: imapflow imports pino for its default logger (used only when a connection is
// given no logger; Dealgraph always passes `logger: false`). pino's transport support resolves its
// worker thread's file (thread-stream's worker, pino's lib/worker.js) to an absolute path at build
// time, so the binary would carry the checkout's path and, copied elsewhere, point at nothing. The
// plugin below resolves `pino` to a small no-op logger module instead; nothing else imports it.
//
// Why `--splitting`: each dynamically imported module (a CLI command, the MCP SDK, the PDF and
// ZIP readers) becomes a chunk embedded in the binary and loaded when first imported, so `serve`
// neither loads nor keeps in memory the demo generators, pdf-lib, zod and the rest it may never use.
// Measured: `dealgraph help` 90 -> 40 ms and 46 -> 35 MB; `serve` idle RSS 77 -> 70 MB.
//
//   bun run scripts/build.ts [--no-smoke] [--outfile PATH]
//
// The freshness check is shared with test/e2e/binary.test.ts and scripts/bench/http.ts.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { runJson, startServe } from "./lib/child-process.ts";

export const ROOT = resolve(import.meta.dir, "..");
/** How long `serve` may take to start listening (a loaded machine). */
const SERVE_START_TIMEOUT_MS = 60_000;
export const BINARY = join(ROOT, "dist", "dealgraph");

// ---------------------------------------------------------------------------------------------
// Freshness: is dist/dealgraph newer than everything that goes into it?

/** Everything whose change can change the binary: sources, embedded files, dependencies, bun itself. */
function buildInputs(): string[] {
  const files: string[] = [];
  for (const dir of ["src", "jobs", "migrations", "scripts"]) {
    const abs = join(ROOT, dir);
    if (!existsSync(abs)) continue;
    for (const entry of readdirSync(abs, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) files.push(join(entry.parentPath, entry.name));
    }
  }
  for (const file of ["package.json", "package-lock.json", "bun.lock", "tsconfig.json", "bunfig.toml", "node_modules/.package-lock.json"]) {
    if (existsSync(join(ROOT, file))) files.push(join(ROOT, file));
  }
  files.push(process.execPath);
  return files;
}

/** Null when dist/dealgraph is up to date, else why it is not. */
export function binaryStaleness(binary = BINARY): string | null {
  if (!existsSync(binary)) return `${relative(ROOT, binary)} does not exist`;
  const built = statSync(binary).mtimeMs;
  for (const file of buildInputs()) {
    if (statSync(file).mtimeMs > built) return `${relative(ROOT, file) || file} is newer than ${relative(ROOT, binary)}`;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// The build

export type BuildResult = { outfile: string; bytes: number; ms: number };

function formatLog(entry: unknown): string {
  const m = entry as { level?: string; message?: string; position?: { file: string; line: number; column: number; lineText: string } | null };
  if (typeof m?.message !== "string") return String(entry);
  const at = m.position ? `\n    at ${m.position.file}:${m.position.line}:${m.position.column}\n    | ${m.position.lineText}` : "";
  return `${m.level ?? "error"}: ${m.message}${at}`;
}

/**
 * The stand-in for `pino` inside the binary: the same call shape (a factory with `child`, the level
 * methods and `level`), writing nothing. imapflow reaches it only for a connection without a logger.
 */
export const PINO_STUB = `
const noop = () => {};
function logger(options) {
  const self = {
    level: (options && options.level) || "info",
    trace: noop, debug: noop, info: noop, warn: noop, error: noop, fatal: noop, silent: noop,
    isLevelEnabled: () => false,
    child: (bindings, childOptions) => logger(childOptions || { level: self.level }),
    flush: noop,
  };
  return self;
}
function pino(options) { return logger(options); }
pino.pino = pino;
pino.default = pino;
pino.destination = () => ({ write: noop, end: noop, flushSync: noop });
pino.transport = () => ({ write: noop, end: noop });
pino.multistream = () => ({ write: noop, add() { return this; } });
pino.stdSerializers = { err: (e) => e, req: (r) => r, res: (r) => r };
pino.stdTimeFunctions = { epochTime: () => "", isoTime: () => "", nullTime: () => "", unixTime: () => "" };
pino.levels = { values: { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 }, labels: { 10: "trace", 20: "debug", 30: "info", 40: "warn", 50: "error", 60: "fatal" } };
pino.symbols = {};
pino.version = "stub";
export default pino;
export { pino };
`;

/** Bundler plugin: `pino` (and its subpaths) resolve to PINO_STUB. */
const replacePino: import("bun").BunPlugin = {
  name: "dealgraph-pino-stub",
  setup(build) {
    build.onResolve({ filter: /^pino(\/.*)?$/ }, (args) => ({ path: args.path, namespace: "dealgraph-pino-stub" }));
    build.onLoad({ filter: /.*/, namespace: "dealgraph-pino-stub" }, () => ({ contents: PINO_STUB, loader: "js" }));
  },
};

export async function buildBinary(outfile = BINARY): Promise<BuildResult> {
  mkdirSync(dirname(outfile), { recursive: true });
  // Built beside the target, then renamed: a running binary or a concurrent reader never sees
  // a half-written file. Same basename: it is the entry's name inside the binary (stack traces).
  const tempDir = mkdtempSync(join(dirname(outfile), ".build-"));
  const temp = join(tempDir, basename(outfile));
  const started = performance.now();
  try {
    let result: Awaited<ReturnType<typeof Bun.build>>;
    try {
      result = await Bun.build({
        entrypoints: [join(ROOT, "src", "main.ts")],
        // Settings come from the environment and flags only: a bunfig.toml or .env in whatever
        // directory the binary is started from must not change its behaviour.
        compile: { outfile: temp, autoloadBunfig: false, autoloadDotenv: false },
        target: "bun",
        format: "esm",
        splitting: true,
        bytecode: true,
        minify: { whitespace: true, syntax: true, identifiers: false },
        plugins: [replacePino],
        throw: false,
      });
    } catch (error) {
      const errors = error instanceof AggregateError ? error.errors : [error];
      throw new Error(`bun build --compile failed:\n${errors.map(formatLog).join("\n")}`);
    }
    const ms = performance.now() - started;
    if (!result.success || !existsSync(temp)) {
      const log = result.logs.map(formatLog).join("\n") || "(no build log; the output file was not written)";
      throw new Error(`bun build --compile failed after ${Math.round(ms)} ms:\n${log}`);
    }
    for (const l of result.logs) console.error(formatLog(l)); // warnings
    renameSync(temp, outfile);
    return { outfile, bytes: statSync(outfile).size, ms };
  } finally {
    rmSync(tempDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// The smoke test: the binary alone, from a directory that is not the repo.

async function expect(what: string, check: () => Promise<string>): Promise<void> {
  const detail = await check();
  console.log(`  ok  ${what}${detail ? `: ${detail}` : ""}`);
}

export async function smokeTest(binary = BINARY): Promise<void> {
  // Nothing may be read from the repo at run time: its path must not even appear in the binary.
  const bytes = Buffer.from(await Bun.file(binary).arrayBuffer());
  if (bytes.includes(ROOT + "/")) throw new Error(`${binary} mentions ${ROOT}/: something is read from the repo instead of embedded`);
  const dir = mkdtempSync(join(tmpdir(), "dealgraph-smoke-"));
  let server: Awaited<ReturnType<typeof startServe>> | null = null;
  try {
    // A firm made by the admin commands, then `serve` (the demo, which analyses three dozen decks
    // before it listens, is test/e2e/binary.test.ts's: minutes on a loaded machine).
    const cli = <T>(...args: string[]) => runJson<T>([binary, ...args, "--data-dir", "data", "--json"], { cwd: dir });
    const { org_id } = await cli<{ org_id: string }>("admin", "org", "create", "--name", "Smoke Test Capital");
    const { user_id } = await cli<{ user_id: string }>("admin", "user", "create", "--org", org_id, "--email", "smoke@smoke.vc", "--name", "Smoke Test");
    const readKey = (await cli<{ secret: string }>("admin", "key", "create", "--user", user_id, "--scope", "read")).secret;
    const writeKey = (await cli<{ secret: string }>("admin", "key", "create", "--user", user_id, "--scope", "write")).secret;
    server = await startServe([binary, "serve", "--port", "0", "--data-dir", "data"], { cwd: dir }, SERVE_START_TIMEOUT_MS);
    const { url } = server;
    const get = (path: string, headers: Record<string, string> = {}) => fetch(url + path, { headers });
    const ensure = (ok: boolean, msg: string) => {
      if (!ok) throw new Error(msg);
    };
    console.log(`smoke test: ${relative(process.cwd(), binary) || binary} serve, cwd ${dir}, ${url}`);
    console.log(`  ok  the binary mentions no path in ${ROOT}`);

    await expect("GET /readyz (migrations embedded)", async () => {
      const r = await get("/readyz");
      const body = (await r.json()) as { status: string; checks: { database: { detail: string } } };
      ensure(r.status === 200 && body.status === "ready", `readyz: ${r.status} ${JSON.stringify(body)}`);
      return body.checks.database.detail;
    });
    await expect("GET /api/v1/openapi.json", async () => {
      const r = await get("/api/v1/openapi.json");
      const body = (await r.json()) as { openapi: string; info: { version: string }; paths: object };
      ensure(r.status === 200 && body.openapi.startsWith("3.1"), `openapi.json: ${r.status} openapi=${body.openapi}`);
      return `OpenAPI ${body.openapi}, API ${body.info.version}, ${Object.keys(body.paths).length} paths`;
    });
    await expect("GET /api/v1/docs", async () => {
      const r = await get("/api/v1/docs");
      const html = await r.text();
      ensure(r.status === 200 && html.includes("swagger-ui-bundle.js"), `docs: ${r.status} ${html.slice(0, 200)}`);
      return r.headers.get("content-type") ?? "";
    });
    for (const [asset, type] of [
      ["swagger-ui-bundle.js", "javascript"],
      ["swagger-ui.css", "text/css"],
    ]) {
      await expect(`GET /api/v1/docs/${asset} (embedded asset)`, async () => {
        const r = await get(`/api/v1/docs/${asset}`);
        const bytes = (await r.arrayBuffer()).byteLength;
        ensure(r.status === 200 && (r.headers.get("content-type") ?? "").includes(type) && bytes > 10_000, `${asset}: ${r.status} ${r.headers.get("content-type")} ${bytes} bytes`);
        return `${(bytes / 1024).toFixed(0)} KiB ${r.headers.get("content-type")}`;
      });
    }
    await expect("GET /api/v1/me with a read key made by `admin key create`", async () => {
      const r = await get("/api/v1/me", { authorization: `Bearer ${readKey}` });
      const body = (await r.json()) as { user?: { name: string } };
      ensure(r.status === 200 && !!body.user, `me: ${r.status} ${JSON.stringify(body)}`);
      return `${body.user!.name}, X-RateLimit-Remaining ${r.headers.get("x-ratelimit-remaining")}`;
    });
    await expect("request validation is active (422 on a bad body)", async () => {
      const r = await fetch(`${url}/api/v1/keys/00000000-0000-0000-0000-000000000000/rotate`, {
        method: "POST",
        headers: { authorization: `Bearer ${writeKey}`, "content-type": "application/json" },
        body: JSON.stringify({ overlap_hours: -1 }),
      });
      const text = await r.text();
      ensure(r.status === 422, `expected 422 from a schema violation, got ${r.status} ${text}`);
      return "";
    });
  } catch (error) {
    throw new Error(`${(error as Error).message}${server ? `\n${server.child.describe()}` : ""}`);
  } finally {
    await server?.child.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------

if (import.meta.main) {
  const { values } = parseArgs({ options: { "no-smoke": { type: "boolean" }, outfile: { type: "string" } } });
  const outfile = values.outfile ? resolve(values.outfile) : BINARY;
  try {
    const built = await buildBinary(outfile);
    console.log(
      `built ${relative(process.cwd(), built.outfile) || built.outfile}: ${(built.bytes / 1024 / 1024).toFixed(1)} MiB in ${(built.ms / 1000).toFixed(1)} s` +
        ` (bun ${Bun.version}, --compile --bytecode --format=esm --minify-whitespace --minify-syntax)`,
    );
    if (!values["no-smoke"]) {
      const t = performance.now();
      await smokeTest(built.outfile);
      console.log(`smoke test passed in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
  } catch (error) {
    console.error(`build failed: ${(error as Error).message}`);
    process.exit(1);
  }
}
