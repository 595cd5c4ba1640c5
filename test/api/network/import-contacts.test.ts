// The contacts importer: vCard 3/4 and CSV cards become persons and touch-less relationships;
// LinkedIn URLs normalised; a later mail import lands on the same person; bad files name their
// line (or the missing column) and write nothing.
import { describe, expect, test } from "bun:test";
import { contactsFormat, importContacts, importMail } from "../../../src/modules/network/import/network.import.ts";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import type { Fixture } from "../../helpers/fixtures.ts";
import { filesDir, mbox, personByEmail, relationshipsOf, snapshot, writeTo } from "../../helpers/import-files.ts";

let t: TestApp;
let f: Fixture;
function setup() {
  ({ t, f } = seededApp());
}

const importFor = (userId: string, path: string) => importContacts(t.deps, { userId, path });
const emailsOf = (personId: string) =>
  (t.deps.db.$client.query("SELECT email FROM person_emails WHERE person_id = ? ORDER BY email").all(personId) as { email: string }[]).map((r) => r.email);

const VCARDS = [
  "BEGIN:VCARD",
  "VERSION:3.0",
  "FN:Jane Doe",
  "N:Doe;Jane;;;",
  "EMAIL;TYPE=INTERNET,HOME:jane.doe@gmail.com",
  "EMAIL;TYPE=INTERNET,WORK,pref:Jane@Target.com",
  "TITLE:Co-founder & CEO (fintech infrastructure)",
  "ORG:Target Inc.;Executive",
  "item1.URL:https://uk.linkedin.com/in/Jane-Doe-42/",
  "item1.X-ABLabel:LinkedIn",
  "ADR;TYPE=work:;;1 Main St;San Francisco;CA;94105;USA",
  "NOTE:Met at the summit\\, great founder",
  "END:VCARD",
  "BEGIN:VCARD",
  "VERSION:4.0",
  "N:Patel;Raj;;Dr.;",
  "EMAIL;PREF=1:raj@target.com",
  "TITLE:VP Engineering at a very long company name that needs folding across seve",
  " ral lines",
  "URL;TYPE=home:https://raj.example.com",
  "X-SOCIALPROFILE;TYPE=linkedin:http://www.linkedin.com/in/rajpatel",
  "ADR:;;;London;;;United Kingdom",
  "END:VCARD",
  "",
  "BEGIN:VCARD",
  "VERSION:3.0",
  "FN:No Address",
  "TEL:+1 555 0100",
  "END:VCARD",
  "BEGIN:VCARD",
  "VERSION:3.0",
  "FN:Alice Herself",
  "EMAIL:alice@acme.vc",
  "END:VCARD",
].join("\r\n");

describe("import contacts: vCard", () => {
  test("cards become persons with their facts, and relationships without touches", () => {
    setup();
    const path = writeTo(filesDir(), "contacts.vcf", VCARDS);
    const stats = importFor(f.users.alice.id, path);
    expect(stats).toMatchObject({ kind: "contacts", read: 4, imported: 2, skipped: 2, skipped_by_reason: { no_email: 1, own_address: 1 }, persons_created: 2, relationships_created: 2 });
    const jane = personByEmail(t.deps, "jane@target.com")!;
    expect(jane).toMatchObject({
      display_name: "Jane Doe",
      title: "Co-founder & CEO (fintech infrastructure)",
      company: "Target Inc.",
      domain: "target.com",
      linkedin_url: "linkedin.com/in/jane-doe-42",
      location: "San Francisco, CA, USA",
    });
    // The preferred address made the person; the other one is the same person's.
    expect(emailsOf(jane.id!)).toEqual(["jane.doe@gmail.com", "jane@target.com"]);
    expect(personByEmail(t.deps, "raj@target.com")).toMatchObject({
      display_name: "Dr. Raj Patel",
      title: "VP Engineering at a very long company name that needs folding across several lines",
      linkedin_url: "linkedin.com/in/rajpatel",
      location: "London, United Kingdom",
      company: null,
    });
    const rels = relationshipsOf(t.deps, f.users.alice.id);
    expect(rels.get("jane@target.com")).toMatchObject({ sent: 0, received: 0, meetings: 0 });
    const before = snapshot(t.deps);
    expect(importFor(f.users.alice.id, path)).toMatchObject({ imported: 2, persons_created: 0, relationships_created: 0 });
    expect(snapshot(t.deps)).toEqual(before);
  });

  test("a later mail import merges into the same person (either address), and the card's facts stay", () => {
    setup();
    importFor(f.users.alice.id, writeTo(filesDir(), "contacts.vcf", VCARDS));
    const persons = snapshot(t.deps).persons;
    const path = writeTo(filesDir(), "mail.mbox", mbox([
      { from: "J. Doe <jane@target.com>", to: "alice@acme.vc", id: "1@x" },
      { from: "alice@acme.vc", to: "jane.doe@gmail.com", id: "2@x" },
    ]));
    expect(importMail(t.deps, { userId: f.users.alice.id, path })).toMatchObject({ imported: 2, persons_created: 0, relationships_created: 0 });
    expect(snapshot(t.deps).persons).toBe(persons);
    expect(relationshipsOf(t.deps, f.users.alice.id).get("jane@target.com")).toMatchObject({ sent: 1, received: 1, name: "Jane Doe" });
  });

  test("a card that is never closed is reported at its BEGIN line; the others import; a file that is no vCard fails", () => {
    setup();
    const open = writeTo(filesDir(), "open.vcf", VCARDS.replace(/END:VCARD\r\n\r\nBEGIN:VCARD/, "\r\nBEGIN:VCARD"));
    const stats = importFor(f.users.alice.id, open);
    expect(stats).toMatchObject({ read: 3, imported: 1, failed_items: 1, errors: [`${open}:14: the card has no END:VCARD before the next BEGIN:VCARD (line 24)`] });
    expect(personByEmail(t.deps, "raj@target.com")).toBeNull();
    expect(personByEmail(t.deps, "jane@target.com")).not.toBeNull();
    const truncated = writeTo(filesDir(), "truncated.vcf", VCARDS.slice(0, VCARDS.lastIndexOf("END:VCARD")));
    expect(importFor(f.users.alice.id, truncated)).toMatchObject({ failed_items: 1, errors: [`${truncated}:30: the card (BEGIN:VCARD) has no END:VCARD (the file may be cut short)`] });
    const before = snapshot(t.deps);
    const notVcard = writeTo(filesDir(), "x.vcf", "hello\n");
    expect(() => importFor(f.users.alice.id, notVcard)).toThrow(`${notVcard}:1: not a vCard file`);
    expect(snapshot(t.deps)).toEqual(before);
  });

  test("an EMAIL that is not an address and a LinkedIn URL with a broken percent-encoding are errors of their card, at their line", () => {
    setup();
    const card = (...lines: string[]) => ["BEGIN:VCARD", "VERSION:3.0", "FN:Someone", ...lines, "END:VCARD"].join("\n");
    const badEmail = writeTo(filesDir(), "a.vcf", [card("EMAIL:ok@target.com"), card("EMAIL:not-an-email")].join("\n") + "\n");
    expect(importFor(f.users.alice.id, badEmail)).toMatchObject({ imported: 1, failed_items: 1, errors: [`${badEmail}:9: EMAIL "not-an-email" is not an email address`] });
    const badUrl = writeTo(filesDir(), "b.vcf", card("EMAIL:jane@target.com", "URL:https://www.linkedin.com/in/%E0%A4%A", "EMAIL:also bad") + "\n");
    // Its other EMAIL is a valid address, so "also bad" is left out; the broken URL fails the card.
    expect(importFor(f.users.alice.id, badUrl)).toMatchObject({ imported: 0, failed_items: 1, errors: [expect.stringMatching(new RegExp(`^${badUrl.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:5: URL: `))] });
    expect(personByEmail(t.deps, "jane@target.com")).toBeNull();
    // An empty EMAIL is no address (the card is skipped as having none); a mobile LinkedIn URL is one.
    const ok = writeTo(filesDir(), "c.vcf", [card("EMAIL:"), card("EMAIL:m@target.com", "URL:https://m.linkedin.com/in/Mobile-Person/")].join("\n") + "\n");
    expect(importFor(f.users.alice.id, ok)).toMatchObject({ read: 2, imported: 1, skipped_by_reason: { no_email: 1 } });
    expect(personByEmail(t.deps, "m@target.com")).toMatchObject({ linkedin_url: "linkedin.com/in/mobile-person" });
  });
});

describe("import contacts: CSV", () => {
  test("RFC 4180 quoting, BOM, CRLF and extra columns; LinkedIn normalised; empty cells are null", () => {
    setup();
    const csv =
      "\uFEFFName,Email,Title,Company,LinkedIn_URL,Location,Notes\r\n" +
      '"Doe, Jane",jane@target.com,"CEO, ""Chief"" Everything",Target,https://www.linkedin.com/in/JaneDoe?trk=x,"Berlin, Germany","multi\r\nline note"\r\n' +
      "Raj Patel,RAJ@target.com,,,,,\r\n";
    const stats = importFor(f.users.alice.id, writeTo(filesDir(), "contacts.csv", csv));
    expect(stats).toMatchObject({ read: 2, imported: 2, persons_created: 2, relationships_created: 2 });
    expect(personByEmail(t.deps, "jane@target.com")).toMatchObject({ display_name: "Doe, Jane", title: 'CEO, "Chief" Everything', company: "Target", linkedin_url: "linkedin.com/in/janedoe", location: "Berlin, Germany" });
    expect(personByEmail(t.deps, "raj@target.com")).toMatchObject({ display_name: "Raj Patel", title: null, company: null, linkedin_url: null, location: null });
  });

  test("a header no dialect knows fails naming what it has; each bad row is reported by line and the others import", () => {
    setup();
    const before = snapshot(t.deps);
    const noEmail = writeTo(filesDir(), "a.csv", "name,title\nJane,CEO\n");
    expect(() => importFor(f.users.alice.id, noEmail)).toThrow(new RegExp(`^${noEmail}:1: missing required column email \\(the header has: name, title\\)`));
    expect(snapshot(t.deps)).toEqual(before);
    const bad = writeTo(filesDir(), "b.csv", 'email,name\nok@target.com,Ok\n"multi\nline",Bad\nalso-bad,Bad\n,Empty\n');
    const stats = importFor(f.users.alice.id, bad);
    expect(stats).toMatchObject({ read: 1, imported: 1, failed_items: 3 });
    expect(stats.errors).toEqual([`${bad}:3: email "multi\\nline" is not an email address`, `${bad}:5: email "also-bad" is not an email address`, `${bad}:6: email is empty`]);
    const linkedin = writeTo(filesDir(), "l.csv", "email,linkedin_url\nok2@target.com,https://m.linkedin.com/in/ok\nbad@target.com,https://www.linkedin.com/in/%E0%A4%A\n");
    expect(importFor(f.users.alice.id, linkedin).errors).toEqual([`${linkedin}:3: linkedin_url "https://www.linkedin.com/in/%E0%A4%A": the LinkedIn profile name "%E0%A4%A" has a broken percent-encoding`]);
    const ragged = writeTo(filesDir(), "c.csv", "email,name\nok3@target.com,Ok,extra\n");
    expect(importFor(f.users.alice.id, ragged).errors).toEqual([`${ragged}:2: 3 fields, the header has 2`]);
    expect(personByEmail(t.deps, "bad@target.com")).toBeNull();
    expect(personByEmail(t.deps, "ok2@target.com")).not.toBeNull();
  });

  test("the format is read from the extension, else from the first line", () => {
    expect(contactsFormat("a.VCF", "email,name")).toBe("vcard");
    expect(contactsFormat("a.csv", "BEGIN:VCARD")).toBe("csv");
    expect(contactsFormat("export.txt", "\uFEFFBEGIN:VCARD")).toBe("vcard");
    expect(contactsFormat("export", "email,name")).toBe("csv");
  });
});
