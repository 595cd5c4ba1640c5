// PPT/PPTX/DOC/DOCX/XLS to PDF with LibreOffice: its own profile per conversion (parallel
// conversions never share one), a limit on the CPU time soffice and its helpers use (wall-clock
// time only as a ceiling several times that: at its low priority a conversion may wait for a core
// on a busy machine far longer than it works) that kills the whole process group, and "exited 0
// but wrote no PDF" counted as the failure it is.
//
// A document can ask LibreOffice to load what it links: an external image relationship, a linked
// image or section, a WEBSERVICE formula, an OLE/DDE link, a macro. None of it may happen: the
// profile turns off loading from untrusted referers (the document), link updates and macros, and
// points its proxy at a name that never resolves; and where the machine allows (sandbox.ts) it runs
// with no network at all and with the data dir hidden, its work dir alone bound back in. The
// environment it gets carries none of the server's DEALGRAPH_* settings.
//
// soffice is started and watched from the child watcher's worker thread (lib/child-watcher.ts), as
// the document children are: starting a process holds the thread that starts it until exec, which
// on a loaded machine held the server's thread for a few hundred milliseconds per conversion.
//
// Each conversion works in `<data-dir>/tmp/convert/<uuid>/` and leaves a marker there
// (conversion.json: which server process owns it, and soffice's process group), so the
// document-conversion job can tell a crashed server's leftovers (the dir, an soffice still running
// in its own session) from a conversion in progress, and clean them up.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { copyFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { CHILD_NICENESS, idlePrefix } from "../lib/child-priority.ts";
import { watchChild } from "../lib/child-watcher.ts";
import { wallCeilingMs } from "../lib/cpu-time.ts";
import { sandboxed, sandboxSupport } from "../lib/sandbox.ts";

export class ConversionError extends Error {}

/** CPU time (ms) a conversion may use, LibreOffice's helpers included. */
export const DEFAULT_CONVERSION_TIMEOUT_MS = 120_000;
export const CONVERSION_MARKER = "conversion.json";

/** LibreOffice's binary on the PATH as it is now (a server may gain or lose it while running). */
export function findLibreOffice(): string | null {
  const PATH = process.env.PATH ?? "";
  return Bun.which("soffice", { PATH }) ?? Bun.which("libreoffice", { PATH });
}

/** Where a data dir's conversions work: one folder per conversion (absolute: soffice is given file:// URLs into it). */
export const conversionRoot = (dataDir: string) => resolve(dataDir, "tmp", "convert");

/** What a conversion's marker says: enough for the job to judge it after a crash. */
export type ConversionMarker = {
  /** The server process that runs the conversion, and its start time (to see through pid reuse). */
  owner_pid: number;
  owner_start: string | null;
  /** soffice's pid, which is also its process group and session (it was started with setsid). */
  pgid: number | null;
  started_at: string;
  timeout_ms: number;
};

/** Work dirs of conversions running in this process: never the job's to touch. */
const active = new Set<string>();
export const isActiveConversion = (dir: string) => active.has(dir);

/** A process's start time since boot (/proc/<pid>/stat field 22), or null where there is no /proc. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

/** SIGKILL to a whole process group; false when there is none left. */
export function killGroup(pgid: number): boolean {
  try {
    process.kill(-pgid, "SIGKILL");
    return true;
  } catch {
    return false;
  }
}

export type ConvertOptions = {
  /** The folder conversions work in (conversionRoot of the data dir); the system temp dir when not given. */
  workRoot?: string;
  /** CPU time (ms) the conversion may use; the wall-clock ceiling is wallCeilingMs of it. */
  timeoutMs?: number;
  /** A directory LibreOffice must not see (the data dir), where mount namespaces allow. */
  hide?: string | null;
  /**
   * "profile-only" runs it without namespaces, as on a machine without unshare: the tests use it
   * to show that the profile settings alone keep a document's links from being loaded.
   */
  isolation?: "sandbox" | "profile-only";
};

/** How a data dir's conversions run: in its conversion root, with the data dir itself hidden. */
export const conversionOptions = (dataDir: string, timeoutMs?: number): ConvertOptions & { workRoot: string } => ({
  workRoot: conversionRoot(dataDir),
  hide: resolve(dataDir),
  timeoutMs,
});

/**
 * The profile every conversion starts from. `fuse` merges into LibreOffice's defaults.
 * - Security/Scripting: no loading from untrusted referers (a document's links: images,
 *   relationships marked External), macros never run.
 * - Writer and Calc link updates: never (Writer counts 2 as never, Calc 1).
 * - Calc formulas are not recalculated on load (WEBSERVICE and friends keep their stored values).
 * - Any request that still tried would go to a proxy whose name cannot resolve.
 */
const PROFILE_SETTINGS = [
  ["/org.openoffice.Office.Common/Security/Scripting", "BlockUntrustedRefererLinks", "true"],
  ["/org.openoffice.Office.Common/Security/Scripting", "MacroSecurityLevel", "3"],
  ["/org.openoffice.Office.Common/Security/Scripting", "DisableMacrosExecution", "true"],
  ["/org.openoffice.Office.Writer/Content/Update", "Link", "2"],
  ["/org.openoffice.Office.Calc/Content/Update", "Link", "1"],
  ["/org.openoffice.Office.Calc/Formula/Load", "OOXMLRecalcMode", "1"],
  ["/org.openoffice.Office.Calc/Formula/Load", "ODFRecalcMode", "1"],
  ["/org.openoffice.Inet/Settings", "ooInetProxyType", "2"],
  ["/org.openoffice.Inet/Settings", "ooInetHTTPProxyName", "no-network.invalid"],
  ["/org.openoffice.Inet/Settings", "ooInetHTTPProxyPort", "9"],
  ["/org.openoffice.Inet/Settings", "ooInetHTTPSProxyName", "no-network.invalid"],
  ["/org.openoffice.Inet/Settings", "ooInetHTTPSProxyPort", "9"],
  ["/org.openoffice.Inet/Settings", "ooInetNoProxy", ""],
] as const;

export function writeProfile(profileDir: string): void {
  mkdirSync(join(profileDir, "user"), { recursive: true });
  const items = PROFILE_SETTINGS.map(([path, name, value]) => `<item oor:path="${path}"><prop oor:name="${name}" oor:op="fuse"><value>${value}</value></prop></item>`);
  writeFileSync(
    join(profileDir, "user", "registrymodifications.xcu"),
    `<?xml version="1.0" encoding="UTF-8"?>\n<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n${items.join("\n")}\n</oor:items>\n`,
  );
}

const NO_PROXY = "http://no-network.invalid:9";

/** The environment soffice runs in: the server's, without its own settings (secrets among them). */
function conversionEnv(work: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("DEALGRAPH_") && !/_proxy$/i.test(k)) env[k] = v;
  return { ...env, HOME: work, http_proxy: NO_PROXY, https_proxy: NO_PROXY, ftp_proxy: NO_PROXY, all_proxy: NO_PROXY, no_proxy: "" };
}

export async function convertToPdf(inputPath: string, extension: string, opts: ConvertOptions = {}): Promise<Uint8Array> {
  return convertToPdfFile(inputPath, extension, opts, async (pdf) => new Uint8Array(await Bun.file(pdf).arrayBuffer()));
}

/** The conversion, handing the PDF's path to `use` before the work dir is removed. */
export async function convertToPdfFile<T>(inputPath: string, extension: string, opts: ConvertOptions, use: (pdfPath: string) => Promise<T>): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_CONVERSION_TIMEOUT_MS;
  const wallMs = wallCeilingMs(timeoutMs);
  const soffice = findLibreOffice();
  if (!soffice) throw new ConversionError("LibreOffice is not installed on this server, so PPT/DOC files cannot be converted");
  const root = opts.workRoot ?? join(tmpdir(), "dealgraph-convert");
  mkdirSync(root, { recursive: true });
  const work = join(root, crypto.randomUUID());
  mkdirSync(work);
  active.add(work);
  const marker: ConversionMarker = { owner_pid: process.pid, owner_start: processStartTime(process.pid), pgid: null, started_at: new Date().toISOString(), timeout_ms: wallMs };
  const writeMarker = () => writeFileSync(join(work, CONVERSION_MARKER), JSON.stringify(marker));
  let pgid: number | null = null;
  try {
    writeMarker();
    const input = join(work, `input.${extension}`);
    await copyFile(inputPath, input); // off this thread: an upload may be 50 MB
    const profile = join(work, "profile");
    const out = join(work, "out");
    mkdirSync(out);
    writeProfile(profile);
    const command = [soffice, `-env:UserInstallation=file://${profile}`, "--headless", "--norestore", "--nolockcheck", "--convert-to", "pdf", "--outdir", out, input];
    // Its own session and process group (the watcher starts it with setsid), so one kill of the
    // group stops soffice and the helpers it forks (after a timeout here, or from the job after a
    // crash). The sandbox's unshare and sh exec in place: the group's leader is soffice itself.
    const support = await sandboxSupport();
    const isolation = opts.isolation === "profile-only" ? { ...support, network: false, mounts: false } : support;
    const end = await watchChild(
      {
        cmd: [...(await idlePrefix()), ...sandboxed(command, { hide: opts.hide ?? null, work }, isolation)],
        env: conversionEnv(work),
        workDir: work,
        stdin: "",
        nonce: "\u0000", // soffice says nothing the watcher should read
        cpuMs: timeoutMs,
        timeoutMs: wallMs,
        memoryBytes: null, // LibreOffice's own; the page cap and the ZIP check come before it
        maxOutputBytes: 1024 * 1024,
        stderrTailBytes: 4096,
        niceness: CHILD_NICENESS, // soffice and the helpers it forks: the server's requests come first (child-priority.ts)
        sampleMs: 1000,
      },
      () => {},
      (pid) => {
        pgid = pid;
        marker.pgid = pid;
        writeMarker();
      },
    );
    if (end.spawnError !== null) throw new ConversionError(`LibreOffice could not be started (${end.spawnError})`);
    const code = end.code;
    if (end.stopped === "cpu") throw new ConversionError(`The conversion to PDF took more than ${formatSeconds(timeoutMs)} of processor time and was stopped (LibreOffice and its helper processes were killed)`);
    if (end.stopped === "time") {
      throw new ConversionError(`The conversion to PDF did not finish within ${formatSeconds(wallMs)} although it used little processor time (LibreOffice hung, or the server is overloaded), so it was stopped (LibreOffice and its helper processes were killed)`);
    }
    if (end.stopped === "output") throw new ConversionError("LibreOffice wrote more output than a conversion does and was stopped");
    const pdf = readdirSync(out).find((f) => f.toLowerCase().endsWith(".pdf"));
    if (code === 0 && !pdf) throw new ConversionError("LibreOffice exited without an error but wrote no PDF (the file may be damaged, password-protected or not really an Office document)");
    if (code !== 0 || !pdf || !existsSync(join(out, pdf))) {
      const lastLine = end.stderrTail.trim().split("\n").slice(-1)[0] ?? "";
      throw new ConversionError(`LibreOffice could not convert the file to PDF (exit ${code}${lastLine ? `: ${lastLine.slice(0, 200)}` : ""})`);
    }
    return await use(join(out, pdf));
  } finally {
    // Helpers soffice forked may outlive it: nothing of the group survives the conversion.
    if (pgid !== null) killGroup(pgid);
    // Off this thread too: LibreOffice's profile alone is some hundreds of files.
    await rm(work, { recursive: true, force: true }).catch(() => {});
    active.delete(work);
  }
}

const formatSeconds = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`);
