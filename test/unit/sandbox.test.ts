// The namespaces LibreOffice and the document child run in, checked with ordinary programs: no
// connection leaves (not even to loopback), the hidden data dir is empty, the work dir inside it is
// there and writable. Skipped where the machine has no user namespaces (the callers then say so).
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeSandbox, sandboxed, sandboxSupport, withoutNetwork } from "../../src/lib/sandbox.ts";
import { linkListener } from "../helpers/hostile-office.ts";

const support = await sandboxSupport();
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function run(cmd: string[]): Promise<{ code: number; stdout: string }> {
  const proc = Bun.spawn(cmd, { stdout: "pipe", stderr: "ignore", env: { PATH: process.env.PATH } });
  const [code, stdout] = await Promise.all([proc.exited, new Response(proc.stdout).text()]);
  return { code, stdout };
}

test("this machine's support is probed once and described", async () => {
  expect(await sandboxSupport()).toBe(support);
  expect(describeSandbox(support)).toBeString();
});

describe.if(support.network)("no network", () => {
  test("a child cannot connect to a loopback listener (its loopback is another, and down)", async () => {
    const listener = linkListener();
    try {
      const script = `fetch(${JSON.stringify(`${listener.base}/from-the-sandbox`)}).then(() => console.log("reached"), () => console.log("refused"))`;
      expect((await run(withoutNetwork([process.execPath, "-e", script], support))).stdout.trim()).toBe("refused");
      expect(listener.hits).toEqual([]);
      // The same program outside reaches it: the listener itself works.
      expect((await run([process.execPath, "-e", script])).stdout.trim()).toBe("reached");
      expect(listener.hits).toEqual(["GET /from-the-sandbox"]);
    } finally {
      listener.stop();
    }
  });
});

describe.if(support.mounts)("the data dir hidden", () => {
  test("its files are gone, its work dir is there and what is written there stays", async () => {
    const data = mkdtempSync(join(tmpdir(), "dealgraph-sandbox-data-"));
    dirs.push(data);
    writeFileSync(join(data, "secret.key"), "SERVER-KEY");
    const work = join(data, "tmp", "convert", "abc");
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, "input.docx"), "INPUT");
    const sh = (script: string) => run(sandboxed(["/bin/sh", "-c", script], { hide: data, work }, support));
    const seen = await sh(`ls -A "${data}"; cat "${data}/secret.key" 2>/dev/null || echo no-key; cat "${work}/input.docx"; echo OUTPUT > "${work}/out.pdf"`);
    expect(seen.code).toBe(0);
    expect(seen.stdout.trim().split("\n")).toEqual(["tmp", "no-key", "INPUT"]);
    expect(readFileSync(join(work, "out.pdf"), "utf8")).toBe("OUTPUT\n");
    // Outside, nothing changed.
    expect(readFileSync(join(data, "secret.key"), "utf8")).toBe("SERVER-KEY");
  });
});
