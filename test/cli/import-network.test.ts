// `dealgraph import mail|calendar|contacts` in process on a real data dir: exit codes, one-line
// errors, progress on stderr, `--json` stats on stdout.
import { afterEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { cli, tempDataDir } from "../helpers/cli.ts";
import { filesDir, mbox, writeTo, type TestMessage } from "../helpers/import-files.ts";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

async function firm() {
  const d = tempDataDir();
  dirs.push(d);
  const org = (await cli(d, "admin", "org", "create", "--name", "Acme", "--json")).json.org_id;
  const alice = (await cli(d, "admin", "user", "create", "--org", org, "--email", "alice@acme.vc", "--name", "Alice", "--json")).json.user_id;
  const nomad = (await cli(d, "admin", "user", "create", "--no-org", "--email", "nomad@x.com", "--name", "Nomad", "--json")).json.user_id;
  return { d, alice, nomad };
}

const MAIL: TestMessage[] = [
  { from: "alice@acme.vc", to: "Jane Doe <jane@target.com>", id: "1@x" },
  { from: "jane@target.com", to: "alice@old-job.com", id: "2@x" },
  { from: "news@letters.com", to: "alice@acme.vc", headers: ["List-Id: <letters.com>"], id: "3@x" },
];

describe("dealgraph import mail|calendar|contacts", () => {
  test("--json prints one stats object; progress goes to stderr; --alias may be repeated", async () => {
    const { d, alice } = await firm();
    const path = writeTo(filesDir(), "mail.mbox", mbox(MAIL));
    const res = await cli(d, "import", "mail", "--user", alice, "--alias", "alice@old-job.com", "--alias", "a@b.io", path, "--json");
    expect(res.code).toBe(0);
    expect(res.json).toMatchObject({ kind: "mail", user_id: alice, files: 1, read: 3, imported: 2, duplicates: 0, skipped: 1, skipped_by_reason: { mailing_list: 1 }, persons_created: 1, relationships_created: 1 });
    expect(typeof res.json.ms).toBe("number");
    expect(res.stderr).toMatch(/^imported 2 messages \([\d,]+\/s\), 0 duplicates, 1 skipped$/);
    const again = await cli(d, "import", "mail", "--user", alice, "--alias", "alice@old-job.com", path);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`^${path}: 3 messages read, 0 imported, 2 duplicates, 1 skipped \\(1 mailing_list\\); 0 persons and 0 relationships created in [\\d.]+ s$`));
  });

  test("long files report progress every 10,000 messages", async () => {
    const { d, alice } = await firm();
    const many = Array.from({ length: 10_050 }, (_, i) => ({ from: "alice@acme.vc", to: `p${i % 300}@target.com`, id: `m${i}@x` }));
    const res = await cli(d, "import", "mail", "--user", alice, writeTo(filesDir(), "big.mbox", mbox(many)));
    expect(res.code).toBe(0);
    const lines = res.stderr.split("\n");
    expect(lines.length).toBe(2);
    expect(lines[0]).toMatch(/^imported 10,000 messages \([\d,]+\/s\), 0 duplicates, 0 skipped$/);
    expect(lines[1]).toMatch(/^imported 10,050 messages/);
  });

  test("calendar and contacts (vCard by extension, CSV by content)", async () => {
    const { d, alice } = await firm();
    const dir = filesDir();
    const ics = writeTo(dir, "cal.ics", "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:e1\nDTSTART:20250101T100000Z\nORGANIZER:mailto:alice@acme.vc\nATTENDEE:mailto:jane@target.com\nEND:VEVENT\nEND:VCALENDAR\n");
    const cal = await cli(d, "import", "calendar", "--user", alice, ics, "--json");
    expect(cal.code).toBe(0);
    expect(cal.json).toMatchObject({ kind: "calendar", read: 1, imported: 1 });
    const vcf = writeTo(dir, "cards.vcf", "BEGIN:VCARD\nVERSION:3.0\nFN:Raj\nEMAIL:raj@target.com\nEND:VCARD\n");
    expect((await cli(d, "import", "contacts", "--user", alice, vcf, "--json")).json).toMatchObject({ kind: "contacts", imported: 1 });
    const csv = writeTo(dir, "export.txt", "email,name\nkim@other.io,Kim\n");
    const human = await cli(d, "import", "contacts", "--user", alice, csv);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/: 1 contacts read, 1 imported, 0 duplicates, 0 skipped; 1 persons and 1 relationships created in/);
  });

  test("bad input: a file that cannot be imported fails with one line and writes nothing; bad rows, cards and events are listed, the rest imported, exit 1", async () => {
    const { d, alice } = await firm();
    const cards = writeTo(filesDir(), "cards.csv", "email,linkedin_url\nok@target.com,\nbad@target.com,https://www.linkedin.com/in/%E0%A4%A\n");
    const res = await cli(d, "import", "contacts", "--user", alice, cards, "--json");
    expect(res.code).toBe(1);
    expect(res.json).toMatchObject({ read: 1, imported: 1, failed_items: 1 });
    expect(res.stderr.split("\n").filter((l) => l.startsWith("error:"))).toEqual([
      `error: ${cards}:3: linkedin_url "https://www.linkedin.com/in/%E0%A4%A": the LinkedIn profile name "%E0%A4%A" has a broken percent-encoding`,
      "error: 1 contacts could not be imported; the others were",
    ]);
    const vcf = writeTo(filesDir(), "cards.vcf", "BEGIN:VCARD\nFN:X\nEMAIL:not-an-email\nEND:VCARD\n");
    const card = await cli(d, "import", "contacts", "--user", alice, vcf);
    expect([card.code, card.stderr.split("\n").find((l) => l.startsWith("error:"))]).toEqual([1, `error: ${vcf}:3: EMAIL "not-an-email" is not an email address`]);
    const ics = writeTo(filesDir(), "cal.ics", "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nDTSTART:20260230T100000Z\nEND:VEVENT\nEND:VCALENDAR\n");
    const cal = await cli(d, "import", "calendar", "--user", alice, ics);
    expect(cal.code).toBe(1);
    expect(cal.stdout).toMatch(/: 1 events read \(0 occurrences\), 0 imported, .*; 1 events could not be read \(listed below\)$/);
    expect(cal.stderr.split("\n").find((l) => l.startsWith("error:"))).toBe(`error: ${ics}:4: DTSTART "20260230T100000Z": February 2026 has no day 30`);
    const zone = await cli(d, "import", "calendar", "--user", alice, "--time-zone", "Paris", ics);
    expect([zone.code, zone.stderr]).toEqual([2, 'error: --time-zone "Paris" is not an IANA time zone name (e.g. Europe/Paris, America/New_York, UTC)']);
    const before = (await cli(d, "import", "contacts", "--user", alice, "--json", writeTo(filesDir(), "ok0.csv", "email\nok@target.com\n"))).json;
    const csv = writeTo(filesDir(), "c.csv", "name\nJane\n");
    const col = await cli(d, "import", "contacts", "--user", alice, csv);
    expect(col.code).toBe(1);
    expect(col.stderr).toMatch(new RegExp(`^error: ${csv}:1: missing required column email`));
    expect(col.stderr.split("\n").length).toBe(1);
    const missing = await cli(d, "import", "calendar", "--user", alice, "/no/such.ics");
    expect([missing.code, missing.stderr]).toEqual([1, "error: /no/such.ics: no such file or folder"]);
    const contacts = await cli(d, "import", "contacts", "--user", alice, "--json", writeTo(filesDir(), "ok.csv", "email\nok@x.com\n"));
    expect(before).toMatchObject({ persons_created: 0 });
    expect(contacts.json).toMatchObject({ persons_created: 1 }); // the failed imports left nothing behind
  });

  test("admin user time-zone: floating calendar times are read in the user's zone; --time-zone wins; bad zones refused", async () => {
    const { d, alice } = await firm();
    const set = await cli(d, "admin", "user", "time-zone", "--user", alice, "Europe/Paris", "--json");
    expect([set.code, set.json]).toEqual([0, { user_id: alice, time_zone: "Europe/Paris" }]);
    const bad = await cli(d, "admin", "user", "time-zone", "--user", alice, "Paris");
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/"Paris" is not an IANA time zone name/);
    const ics = writeTo(filesDir(), "f.ics", "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:f@x\nDTSTART:20260301T120000\nORGANIZER:mailto:alice@acme.vc\nATTENDEE:mailto:kim@target.com\nEND:VEVENT\nEND:VCALENDAR\n");
    const paris = await cli(d, "import", "calendar", "--user", alice, ics, "--json");
    expect(paris.json).toMatchObject({ imported: 1, floating_time_zone: "Europe/Paris", time_zones: { floating: 1 } });
    const human = await cli(d, "import", "calendar", "--user", alice, "--time-zone", "Asia/Tokyo", ics);
    expect(human.stdout).toMatch(/; 1 floating times read in Asia\/Tokyo$/);
    expect((await cli(d, "admin", "user", "time-zone", "--user", alice, "none", "--json")).json).toEqual({ user_id: alice, time_zone: null });
  });

  test("unusable messages are skipped and the summary says where the first is; in an .eml folder a bad file fails alone (exit 1)", async () => {
    const { d, alice } = await firm();
    const undated = writeTo(filesDir(), "undated.mbox", mbox([MAIL[0], { from: "jane@target.com", to: "alice@acme.vc", date: "yesterday" }]));
    const res = await cli(d, "import", "mail", "--user", alice, undated);
    expect(res.code).toBe(0);
    expect(res.stderr).not.toMatch(/error/);
    expect(res.stdout).toMatch(new RegExp(`^${undated}: 2 messages read, 1 imported, 0 duplicates, 1 skipped \\(1 no_date \\(first at ${undated}:14\\)\\);`));

    const dir = filesDir();
    writeTo(dir, "a.eml", "From: jane@target.com\nTo: alice@acme.vc\nDate: Sat, 1 Nov 2025 10:00:00 +0000\nMessage-ID: <a@x>\n\nhi\n");
    const bad = writeTo(dir, "b.eml", "just some notes, not mail\n");
    writeTo(dir, "c.eml", "From: alice@acme.vc\nTo: raj@target.com\nDate: Sun, 2 Nov 2025 10:00:00 +0000\nMessage-ID: <c@x>\n\nhi\n");
    const folder = await cli(d, "import", "mail", "--user", alice, dir);
    expect(folder.code).toBe(1);
    expect(folder.stdout).toMatch(/: 2 messages read, 2 imported, .*; 1 of 3 files failed and wrote nothing$/);
    expect(folder.stderr.split("\n").filter((l) => l.startsWith("error:"))).toEqual([
      `error: ${bad}:1: not an email message: no header lines (Name: value) at the top of the file`,
      "error: 1 of 3 files could not be imported; the others were",
    ]);
    const again = await cli(d, "import", "mail", "--user", alice, dir, "--json");
    expect(again.json).toMatchObject({ files: 3, failed_files: 1, imported: 0, duplicates: 2 });
  });

  test("refused users and wrong command lines", async () => {
    const { d, alice, nomad } = await firm();
    const path = writeTo(filesDir(), "mail.mbox", mbox(MAIL));
    const noOrg = await cli(d, "import", "mail", "--user", nomad, path);
    expect(noOrg.code).toBe(1);
    expect(noOrg.stderr).toMatch(/^error: user: User .* belongs to no organization$/);
    const unknown = await cli(d, "import", "mail", "--user", "00000000-0000-0000-0000-000000000000", path);
    expect([unknown.code, unknown.stderr]).toEqual([1, "error: No user with id 00000000-0000-0000-0000-000000000000"]);
    for (const argv of [
      ["import", "mail", path],
      ["import", "mail", "--user", alice],
      ["import", "mail", "--user", alice, path, path],
      ["import", "mail", "--user", alice, "--bogus", path],
      ["import", "letters", "--user", alice, path],
      ["import"],
    ]) {
      const r = await cli(d, ...argv);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^error: [^\n]+$/);
    }
  });
});
