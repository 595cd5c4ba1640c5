// `dealgraph deals verify DEAL_ID (--link URL | --email-file FILE.eml)` on the data dir of a server
// whose gated DocSend run waits: the command line completes the verification, the run proceeds.
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cli } from "../../helpers/cli.ts";
import { documentHostApp, type DocumentHostApp } from "../../helpers/document-hosts.ts";

let h: DocumentHostApp;
const dirs: string[] = [];
afterEach(() => {
  h?.close();
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

test("deals verify with --link or --email-file resumes the waiting run; wrong command lines exit 2, refusals exit 1, nothing changed", async () => {
  h = await documentHostApp(["docsend"]);
  const dataDir = h.t.dataDir!;
  const submit = async (company: string) => {
    const res = await h.analyze({ document_url: "https://docsend.com/view/dverifyonly", company_name: company, document_email: "partner@acme.vc" });
    return res.json.deal_id as string;
  };
  const byLink = await submit("By Link");
  const byFile = await submit("By File");
  await h.run();
  expect(h.world.mails).toHaveLength(2);
  const [mailA, mailB] = h.world.mails.map((m) => m.raw);
  const linkA = /https:\/\/docsend\.com\/view\/dverifyonly\/verify\?token=\w+/.exec(mailA)![0];
  const tmp = mkdtempSync(join(tmpdir(), "dealgraph-eml-"));
  dirs.push(tmp);
  const eml = join(tmp, "verify.eml");
  writeFileSync(eml, mailB);

  for (const [argv, code, message] of [
    [["deals", "verify", byLink], 2, /usage: dealgraph deals verify DEAL_ID \(--link URL \| --email-file FILE\.eml\)/],
    [["deals", "verify", byLink, "--link", linkA, "--email-file", eml], 2, /usage: dealgraph deals verify/],
    [["deals", "verify", byLink, "--email-file", join(tmp, "missing.eml")], 2, /--email-file: no such file/],
    [["deals", "verify", byLink, "--link", "https://evil.example/verify?token=x"], 1, /^error: body\.verification_url: The verification link must be on the document's host, DocSend/],
    [["deals", "verify", "0190b6f4-1111-7000-8000-0000000000ff", "--link", linkA], 1, /^error: Deal not found$/],
  ] as const) {
    const res = await cli(dataDir, ...argv);
    expect(res.code, argv.join(" ")).toBe(code);
    expect(res.stderr).toMatch(message);
    expect(res.stderr.split("\n")).toHaveLength(1);
  }
  expect(await h.status(byLink)).toMatchObject({ status: "queued", waiting_for: "email_verification" });

  const json = await cli(dataDir, "deals", "verify", byLink, "--link", linkA, "--json");
  expect(json.code).toBe(0);
  expect(json.json).toMatchObject({ deal_id: byLink, status: "queued", waiting_for: null });
  const human = await cli(dataDir, "deals", "verify", byFile, "--email-file", eml);
  expect(human.code).toBe(0);
  expect(human.stdout).toBe(`deal ${byFile}: verification recorded; the analysis proceeds (poll /api/v1/deals/${byFile}/analysis)`);
  await h.run();
  expect((await h.status(byLink)).status).toBe("succeeded");
  expect((await h.status(byFile)).status).toBe("succeeded");
  // Not waiting any more: refused, exit 1.
  const again = await cli(dataDir, "deals", "verify", byLink, "--link", linkA);
  expect(again.code).toBe(1);
  expect(again.stderr).toMatch(/not waiting for an email verification \(it is succeeded\)/);
});
