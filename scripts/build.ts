// `bun run build`: the single executable dist/dealgraph, then a smoke test of it from a temp dir
// outside the repo (embedded migrations, embedded docs assets, validation alive).
//
// Equivalent to `bun build --compile --minify-whitespace --minify-syntax --bytecode --format=esm
// --splitting src/main.ts --outfile dist/dealgraph`. Never the identifier-minifying flags (plain minify included): they rename
// classes Elysia checks by name and validation is silently skipped.
//
// Why `--format=esm`: `--bytecode` defaults to CommonJS output, and `--splitting` (below) needs ESM.
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
import { startDemo } from "./lib/child-process.ts";

export const ROOT = resolve(import.meta.dir, "..");
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
  let demo: Awaited<ReturnType<typeof startDemo>> | null = null;
  try {
    demo = await startDemo([binary, "demo", "--port", "0", "--data-dir", "data"], { cwd: dir });
    const { url, readKey, writeKey } = demo;
    const get = (path: string, headers: Record<string, string> = {}) => fetch(url + path, { headers });
    const ensure = (ok: boolean, msg: string) => {
      if (!ok) throw new Error(msg);
    };
    console.log(`smoke test: ${relative(process.cwd(), binary) || binary} demo, cwd ${dir}, ${url}`);
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
    await expect("GET /api/v1/me with the demo read key", async () => {
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
    throw new Error(`${(error as Error).message}${demo ? `\n${demo.child.describe()}` : ""}`);
  } finally {
    await demo?.child.stop();
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
