// The importers on files real clients and servers wrote (test/fixtures/real/SOURCES.md): a Google
// series counted at each past occurrence with its group calendars and list address left out; the
// bounces, feedback reports and auto-replies of some hundred mail servers making no person; an
// Android address book decoded; LinkedIn, Google and Outlook contact exports imported, LinkedIn's
// email-less connections joined to their mail identity once an address appears.
import { describe, expect, test } from "bun:test";
import { cpSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { importCalendar, importContacts, importMail } from "../../../src/modules/network/import/network.import.ts";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import type { Fixture } from "../../helpers/fixtures.ts";
import { filesDir, mbox, personByEmail, relationshipsOf, snapshot, writeTo } from "../../helpers/import-files.ts";
import { mailboxes } from "../../../src/modules/network/import/headers.ts";
import { readEmlHeaders } from "../../../src/modules/network/import/eml.ts";

const REAL = join(import.meta.dir, "../../fixtures/real");

let t: TestApp;
let f: Fixture;

function setup() {
  ({ t, f } = seededApp()); // the clock reads 2026-11-22T12:00Z
}

const persons = () => (t.deps.db.$client.query("SELECT count(*) AS n FROM persons").get() as { n: number }).n;
const byProfile = (url: string) => t.deps.db.$client.query<Record<string, string | null>, [string]>("SELECT * FROM persons WHERE linkedin_url = ?").get(url);

describe("real calendars", () => {
  test("a Google monthly series: six past meetings with each person; the group calendars and the list are no persons", () => {
    setup();
    const path = join(REAL, "calendar/google-invite/apparmor-monthly.ics");
    const stats = importCalendar(t.deps, { userId: f.users.alice.id, path, aliases: ["maxime.belair@canonical.com"] });
    expect(stats).toMatchObject({ read: 1, occurrences: 6, imported: 6, failed_items: 0, not_persons: { group_calendar: 12, mailing_list: 6 } });
    const rels = relationshipsOf(t.deps, f.users.alice.id);
    expect([...rels.keys()]).toEqual([
      "beattie@gmail.com",
      "georgia.garcia@canonical.com",
      "john.johansen@canonical.com",
      "ryan.lee@canonical.com",
      "serge@hallyn.com",
      "zygmunt.krynicki@canonical.com",
    ]);
    for (const rel of rels.values()) expect(rel.meetings).toBe(6);
    expect(personByEmail(t.deps, "apparmor@lists.ubuntu.com")).toBeNull();
    expect(personByEmail(t.deps, "c_r4a1egiuht86kvbg1gv475j8gg@group.calendar.google.com")).toBeNull();
    expect(t.deps.db.$client.query("SELECT max(occurred_at) AS at FROM interactions").get()).toEqual({ at: "2026-11-10T18:00:00.000Z" });
    // A re-import (or the same series from a calendar sync) counts nothing twice.
    expect(importCalendar(t.deps, { userId: f.users.alice.id, path, aliases: ["maxime.belair@canonical.com"] })).toMatchObject({ imported: 0, duplicates: 6 });
  });

  test("a bad event in a calendar of 400 is reported with its line while the others import", () => {
    setup();
    // The file's events have no attendees: the user organises them all in this copy.
    const original = join(REAL, "calendar/node-ical/large-file-with-late-error.ics");
    const text = readFileSync(original, "utf8").replace(/^(UID:.*)$/gm, "$1\nORGANIZER:mailto:alice@acme.vc\nATTENDEE:mailto:jane@target.com");
    const path = writeTo(filesDir(), "large.ics", text);
    const stats = importCalendar(t.deps, { userId: f.users.alice.id, path });
    expect(stats).toMatchObject({ read: 401, imported: 394, failed_items: 7 });
    expect(stats.errors[0]).toMatch(new RegExp(`^${path}:\\d+: DTSTART "20240230T100000Z": February 2024 has no day 30$`));
    expect(relationshipsOf(t.deps, f.users.alice.id).get("jane@target.com")).toMatchObject({ meetings: 394 });
  });
});

describe("real machine mail", () => {
  test("the bounces, feedback reports and auto-replies of some hundred mail servers make no person", () => {
    setup();
    const dir = join(REAL, "mail/sisimai-bounces");
    // Every recipient of the corpus is the user, so each message is the user's mail.
    const aliases = new Set<string>();
    for (const name of readdirSync(dir)) {
      const block = readEmlHeaders(join(dir, name));
      for (const m of mailboxes(block, "to", "cc", "delivered-to", "x-original-to")) aliases.add(m.email);
    }
    const stats = importMail(t.deps, { userId: f.users.alice.id, path: dir, aliases: [...aliases] });
    expect(stats).toMatchObject({ files: 629, read: 629, failed_files: 0, imported: 0 });
    expect(stats.skipped_by_reason).toEqual({
      delivery_report: 402,
      automated: 81,
      role_address: 74,
      no_sender: 31,
      spam_report: 15,
      auto_reply: 12,
      no_date: 6,
      // Own mail: the corpus' recipients are all the user here, and a person forwarding a bounce wrote to one of them.
      no_other_participants: 5,
      bulk: 3,
    });
    expect(persons()).toBe(0);
  });

  test("auto-replies without Auto-Submitted (iCloud's 'Auto reply:', Outlook's 'Automatic reply:') do not make a cold outreach two-way", () => {
    setup();
    const dir = filesDir();
    // The user's cold outreach, then the auto-replies of the corpus as the answers.
    for (const name of ["rfc3834-02.eml", "rfc3834-03.eml", "rfc3834-04.eml"]) cpSync(join(REAL, "mail/sisimai-bounces", name), join(dir, name));
    const replies = importMail(t.deps, { userId: f.users.alice.id, path: dir, aliases: ["neko@libsisimai.org", "kijitora@example.com", "nekonyaan@example.com"] });
    expect(replies).toMatchObject({ read: 3, imported: 0, skipped_by_reason: { auto_reply: 3 } });
    const sent = writeTo(filesDir(), "sent.mbox", mbox([{ from: "alice@acme.vc", to: "kijitora@apple.example.com", id: "cold@x" }]));
    importMail(t.deps, { userId: f.users.alice.id, path: sent });
    expect(relationshipsOf(t.deps, f.users.alice.id).get("kijitora@apple.example.com")).toMatchObject({ sent: 1, received: 0 });
  });
});

describe("real address books", () => {
  test("Android's vCard 2.1: quoted-printable UTF-8 names decoded; a card whose second EMAIL decodes to no address keeps its valid one", () => {
    setup();
    const path = join(REAL, "vcard/cardme/John_Doe_ANDROID.vcf");
    const stats = importContacts(t.deps, { userId: f.users.alice.id, path });
    expect(stats).toMatchObject({ read: 6, imported: 4, skipped_by_reason: { no_email: 2 }, failed_items: 0 });
    expect(stats.errors).toEqual([]);
    expect(personByEmail(t.deps, "henry@company.com")).toMatchObject({ display_name: "ÑÑÑÑ", company: "Ñ".repeat(44) });
    expect(personByEmail(t.deps, "bob@company.com")).toMatchObject({ display_name: "Ñ Ñ Ñ Ñ" });
  });

  test("a card whose other EMAIL is a name, not an address (either order), keeps its valid address; one with no valid address is reported at its line", () => {
    setup();
    const path = join(REAL, "vcard/ours/android-email-not-address.vcf");
    const stats = importContacts(t.deps, { userId: f.users.alice.id, path });
    expect(stats).toMatchObject({ read: 2, imported: 2, failed_items: 1 });
    expect(stats.errors).toEqual([`${path}:23: EMAIL "only a name here" is not an email address`]);
    expect(personByEmail(t.deps, "juergen@mueller-capital.example")).toMatchObject({ display_name: "Jürgen Müller", company: "Müller Capital", title: "Partner" });
    expect(personByEmail(t.deps, "chidi@lagos-fintech.example")).toMatchObject({ display_name: "Chidi Okafor", company: "Lagos Fintech" });
  });

  test("Outlook, Gmail, iPhone, Mac, Evolution, Lotus Notes and Thunderbird cards", () => {
    setup();
    const dir = join(REAL, "vcard/cardme");
    for (const name of ["John_Doe_MS_OUTLOOK.vcf", "John_Doe_LOTUS_NOTES.vcf"]) {
      expect(importContacts(t.deps, { userId: f.users.alice.id, path: join(dir, name) })).toMatchObject({ imported: 1, failed_items: 0 });
    }
    expect(personByEmail(t.deps, "john.doe@ibm.cm")).toMatchObject({ display_name: "Mr. John Richter James Doe Sr.", title: "Money Counter", company: "IBM", location: "Albaney, New York, United States of America" });
    // Lotus Notes: two addresses, one person.
    expect(personByEmail(t.deps, "billy_bob@gmail.com")!.id).toBe(personByEmail(t.deps, "john.doe@ibm.com")!.id);
    const thunderbird = importContacts(t.deps, { userId: f.users.alice.id, path: join(REAL, "vcard/ez-vcard/thunderbird-MoreFunctionsForAddressBook-extension.vcf") });
    expect(thunderbird).toMatchObject({ imported: 1, failed_items: 0 });
    for (const name of readdirSync(join(REAL, "vcard/ez-vcard")).filter((n) => n.endsWith(".vcf"))) {
      expect(importContacts(t.deps, { userId: f.users.alice.id, path: join(REAL, "vcard/ez-vcard", name) }).failed_items, name).toBe(0);
    }
  });

  test("LinkedIn's connections export: people without email are persons by profile; a later card with their address joins the mail identity", () => {
    setup();
    const path = join(REAL, "contacts-csv/linkedin-connections.csv");
    const stats = importContacts(t.deps, { userId: f.users.alice.id, path });
    expect(stats).toMatchObject({ read: 4, imported: 4, failed_items: 0, persons_created: 4, relationships_created: 4 });
    expect(byProfile("linkedin.com/in/priya-sharma-1a2b3c")).toMatchObject({ display_name: "Priya Sharma", company: "Stripe, Inc.", title: "Technical Recruiter", domain: null });
    expect(byProfile("linkedin.com/in/elodie-durand-5b6a7")).toMatchObject({ display_name: "Élodie Durand", company: "Qonto" });
    expect(personByEmail(t.deps, "arjun@example.com")).toMatchObject({ linkedin_url: "linkedin.com/in/arjunmehta", title: "Engineering Manager, Payments" });
    // Re-importing changes nothing.
    const before = snapshot(t.deps);
    expect(importContacts(t.deps, { userId: f.users.alice.id, path })).toMatchObject({ persons_created: 0 });
    expect(snapshot(t.deps).persons).toBe(before.persons);

    // Mail from Priya's address came first for Bob; then a card gives the address and the profile: one person.
    importMail(t.deps, { userId: f.users.bob.id, path: writeTo(filesDir(), "m.mbox", mbox([{ from: "Priya Sharma <priya@stripe.com>", to: "bob@acme.vc", id: "p@x" }])) });
    const card = writeTo(filesDir(), "priya.vcf", "BEGIN:VCARD\nVERSION:3.0\nFN:Priya Sharma\nEMAIL:priya@stripe.com\nURL:https://www.linkedin.com/in/priya-sharma-1a2b3c/\nEND:VCARD\n");
    importContacts(t.deps, { userId: f.users.alice.id, path: card });
    const priya = personByEmail(t.deps, "priya@stripe.com")!;
    expect(priya).toMatchObject({ linkedin_url: "linkedin.com/in/priya-sharma-1a2b3c", company: "Stripe, Inc." });
    expect(t.deps.db.$client.query("SELECT count(*) AS n FROM persons WHERE linkedin_url = 'linkedin.com/in/priya-sharma-1a2b3c'").get()).toEqual({ n: 1 });
    expect(relationshipsOf(t.deps, f.users.alice.id).has("priya@stripe.com")).toBe(true);
    expect(relationshipsOf(t.deps, f.users.bob.id).get("priya@stripe.com")).toMatchObject({ received: 1 });

    // Neha's address appears first on a card with her profile: the LinkedIn person gets it.
    const neha = byProfile("linkedin.com/in/neha-k")!;
    importContacts(t.deps, { userId: f.users.alice.id, path: writeTo(filesDir(), "neha.csv", "email,name,linkedin_url\nneha@k.io,Neha K,https://linkedin.com/in/neha-k\n") });
    expect(personByEmail(t.deps, "neha@k.io")!.id).toBe(neha.id);
  });

  test("Google Contacts and Outlook exports", () => {
    setup();
    const google = importContacts(t.deps, { userId: f.users.alice.id, path: join(REAL, "contacts-csv/google-contacts.csv") });
    expect(google).toMatchObject({ read: 2, imported: 2, failed_items: 0 });
    const maria = personByEmail(t.deps, "maria.garcia@lumen.io")!;
    expect(maria).toMatchObject({ display_name: "Maria Garcia", title: "Founder & CEO", company: "Lumen Labs", linkedin_url: "linkedin.com/in/maria-garcia-lumen", location: "Madrid, Spain" });
    expect(personByEmail(t.deps, "mg@hotmail.com")!.id).toBe(maria.id);
    expect(personByEmail(t.deps, "tom@beckerventures.de")).toMatchObject({ display_name: "Tom Becker", location: "Berlin, Germany" });
    const outlook = importContacts(t.deps, { userId: f.users.alice.id, path: join(REAL, "contacts-csv/outlook-contacts.csv") });
    expect(outlook).toMatchObject({ read: 2, imported: 1, skipped_by_reason: { no_email: 1 } });
    expect(personByEmail(t.deps, "kenji.watanabe@sakura-robotics.jp")).toMatchObject({ display_name: "Kenji Watanabe", title: "CTO", company: "Sakura Robotics", linkedin_url: "linkedin.com/in/kenjiwatanabe", location: "Tokyo, Tokyo, Japan" });
  });
});
