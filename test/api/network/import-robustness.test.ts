// Bad input never crashes an importer: mutated mailboxes, calendars, cards and CSV files either
// import or fail with a one-line ImportError naming the file (and line), never anything else.
import { expect, test } from "bun:test";
import { ImportError, importCalendar, importContacts, importMail } from "../../../src/modules/network/import/network.import.ts";
import { seededApp } from "../../helpers/app.ts";
import { filesDir, writeTo } from "../../helpers/import-files.ts";

const SEEDS: [ext: string, content: string][] = [
  [".mbox", 'From a@b.com Mon Jul  7 09:05:03 2025\nFrom: "A, B" <a@b.com>\nTo: alice@acme.vc, =?UTF-8?Q?J=C3=BC?= <j@x.com>\nDate: Mon, 7 Jul 2025 09:05:03 +0000\nMessage-ID: <1@b>\n\nbody\n>From x\n'],
  [".ics", 'BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:x\nDTSTART;TZID=Europe/Paris:20250101T100000\nORGANIZER;CN="a:b;c":mailto:alice@acme.vc\nATTENDEE;PARTSTAT=ACCEPTED:mailto:j@x.com\nEND:VEVENT\nEND:VCALENDAR\n'],
  [".vcf", "BEGIN:VCARD\nVERSION:3.0\nFN:x\nEMAIL;TYPE=pref:j@x.com\nADR:;;;a\\;b;c;;d\nORG:o;p\nURL:linkedin.com/in/x\nEND:VCARD\n"],
  [".csv", 'email,name,linkedin_url\n"j@x.com","a""b",https://linkedin.com/in/j\n'],
];
const PIECES = ["\n", ":", ";", '"', "<", ">", "@", " ", "\r", "\\", ",", "=?", "\u0000", "é", "From ", "BEGIN:VEVENT\n", "END:VCARD\n", "\t"];

test("mutated files import or fail with a one-line ImportError", () => {
  const { t, f } = seededApp();
  const alice = f.users.alice;
  const dir = filesDir();
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const outcomes = { imported: 0, refused: 0 };
  for (let i = 0; i < 400; i++) {
    const [ext, base] = SEEDS[i % SEEDS.length];
    let s = base;
    for (let k = 1 + Math.floor(rnd() * 5); k > 0; k--) {
      const pos = Math.floor(rnd() * s.length);
      const r = rnd();
      if (r < 0.4) s = s.slice(0, pos) + PIECES[Math.floor(rnd() * PIECES.length)] + s.slice(pos);
      else if (r < 0.7) s = s.slice(0, pos) + s.slice(pos + 1 + Math.floor(rnd() * 5));
      else s = s.slice(0, pos) + s.slice(pos, pos + 10) + s.slice(pos);
    }
    const path = writeTo(dir, `f${i}${ext}`, s);
    const run = ext === ".mbox" ? importMail : ext === ".ics" ? importCalendar : importContacts;
    try {
      run(t.deps, { userId: alice.id, path });
      outcomes.imported++;
    } catch (error) {
      if (!(error instanceof ImportError)) throw new Error(`${path} (${JSON.stringify(s)}): ${(error as Error).stack}`);
      expect(error.message.startsWith(`${path}`)).toBe(true);
      expect(error.message).not.toContain("\n");
      outcomes.refused++;
    }
  }
  expect(outcomes.imported).toBeGreaterThan(50);
  expect(outcomes.refused).toBeGreaterThan(50);
});
