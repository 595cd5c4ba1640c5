// PPT/PPTX/DOC/DOCX to PDF with LibreOffice: its own profile per conversion (parallel conversions
// never share one), a timeout that kills the whole process group, and "exited 0 but wrote no PDF"
// counted as the failure it is.
import { existsSync, mkdirSync, mkdtempSync, rmSync, copyFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export class ConversionError extends Error {}

/** LibreOffice's binary on the PATH as it is now (a server may gain or lose it while running). */
export function findLibreOffice(): string | null {
  const PATH = process.env.PATH ?? "";
  return Bun.which("soffice", { PATH }) ?? Bun.which("libreoffice", { PATH });
}

export async function convertToPdf(inputPath: string, extension: string, timeoutMs = 120_000): Promise<Uint8Array> {
  const soffice = findLibreOffice();
  if (!soffice) throw new ConversionError("LibreOffice is not installed on this server, so PPT/DOC files cannot be converted");
  const work = mkdtempSync(join(tmpdir(), "dealgraph-convert-"));
  try {
    const input = join(work, `input.${extension}`);
    copyFileSync(inputPath, input);
    const profile = join(work, "profile");
    const out = join(work, "out");
    mkdirSync(out);
    // setsid: LibreOffice forks helpers; killing the group leaves none behind after a timeout.
    const proc = Bun.spawn(
      ["setsid", soffice, `-env:UserInstallation=file://${profile}`, "--headless", "--norestore", "--nolockcheck", "--convert-to", "pdf", "--outdir", out, input],
      { stdout: "pipe", stderr: "pipe", env: { ...process.env, HOME: work } },
    );
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-proc.pid, "SIGKILL");
      } catch {
        proc.kill("SIGKILL");
      }
    }, timeoutMs);
    const code = await proc.exited;
    clearTimeout(timer);
    if (timedOut) throw new ConversionError(`The conversion to PDF took longer than ${Math.round(timeoutMs / 1000)} s and was stopped`);
    const pdf = readdirSync(out).find((f) => f.endsWith(".pdf"));
    if (code !== 0 || !pdf || !existsSync(join(out, pdf))) {
      const stderr = (await new Response(proc.stderr).text()).trim().split("\n").slice(-1)[0] ?? "";
      throw new ConversionError(`LibreOffice could not convert the file to PDF (exit ${code}${stderr ? `: ${stderr.slice(0, 200)}` : ""})`);
    }
    return new Uint8Array(await Bun.file(join(out, pdf)).arrayBuffer());
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
