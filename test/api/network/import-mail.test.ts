// The mail importer on hand-built mailboxes: who gets which touch, the user's aliases, every skip
// reason, dedupe on re-import, a failing file writing nothing, .eml folders, and persons shared
// across the mailboxes of one organization.
import { describe, expect, test } from "bun:test";
import { ApiError } from "../../../src/http/errors.ts";
import { ImportError, importMail } from "../../../src/modules/network/import/network.import.ts";
import { seededApp, type TestApp } from "../../helpers/app.ts";
import type { Fixture } from "../../helpers/fixtures.ts";
import { filesDir, mbox, message, personByEmail, relationshipsOf, snapshot, writeTo, type TestMessage } from "../../helpers/import-files.ts";

let t: TestApp;
let f: Fixture;
function setup() {
  ({ t, f } = seededApp());
}

const writeMbox = (messages: TestMessage[], name = "mail.mbox") => writeTo(filesDir(), name, mbox(messages));
const importFor = (userId: string, path: string, aliases: string[] = []) => importMail(t.deps, { userId, path, aliases });

describe("import mail: direction", () => {
  test("own From gives a sent touch to every To/Cc recipient; own To/Cc gives a received touch to the sender only", () => {
    setup();
    const path = writeMbox([
      { from: "Alice Archer <alice@acme.vc>", to: "Jane Doe <jane@target.com>, raj@target.com", cc: "Kim Lee <kim@other.io>", id: "m1@acme.vc" },
      { from: "Jane Doe <jane@target.com>", to: "alice@acme.vc", cc: "Sam Stone <sam@founder.ai>", id: "m2@target.com", date: "2026-11-02T09:00:00Z" },
      { from: "Jane Doe <jane@target.com>", to: "Someone <someone@else.com>", cc: "ALICE@ACME.VC", id: "m3@target.com", date: "2026-11-03T09:00:00Z" },
    ]);
    const stats = importFor(f.users.alice.id, path);
    expect(stats).toMatchObject({ kind: "mail", files: 1, read: 3, imported: 3, duplicates: 0, skipped: 0 });
    const rels = relationshipsOf(t.deps, f.users.alice.id);
    expect([...rels.keys()]).toEqual(["jane@target.com", "kim@other.io", "raj@target.com"]);
    expect(rels.get("jane@target.com")).toMatchObject({ sent: 1, received: 2, meetings: 0, name: "Jane Doe" });
    expect(rels.get("raj@target.com")).toMatchObject({ sent: 1, received: 0 });
    expect(rels.get("kim@other.io")).toMatchObject({ sent: 1, received: 0, name: "Kim Lee" });
    // Co-recipients of a received message are present on it (proxy paths) without a relationship of Alice's.
    expect(personByEmail(t.deps, "sam@founder.ai")).toMatchObject({ display_name: "Sam Stone" });
    expect(rels.has("sam@founder.ai")).toBe(false);
    const people = t.deps.db.$client.query("SELECT count(*) AS n FROM interaction_people").get() as { n: number };
    expect(people.n).toBe(3 + 2 + 2);
    // The last touch is the latest message, whatever the order in the file.
    const last = t.deps.db.$client.query("SELECT last_touch_at, last_touch_direction FROM relationships r JOIN person_emails e ON e.person_id = r.person_id WHERE e.email = 'jane@target.com'").get();
    expect(last).toEqual({ last_touch_at: "2026-11-03T09:00:00.000Z", last_touch_direction: "received" });
  });

  test("--alias addresses are the user's own: mail from them is sent, mail to them is received, never a person", () => {
    setup();
    const path = writeMbox([
      { from: "Alice <alice.archer@gmail.com>", to: "jane@target.com", id: "a1@x" },
      { from: "jane@target.com", to: "a.archer@acme-old.com", id: "a2@x" },
      { from: "bob@acme.vc", to: "alice.archer@gmail.com, jane@target.com", id: "a3@x" },
    ]);
    const without = importFor(f.users.alice.id, path);
    expect(without.skipped_by_reason).toEqual({ not_addressed_to_user: 3 });
    const stats = importFor(f.users.alice.id, path, ["Alice.Archer@gmail.com", "a.archer@acme-old.com"]);
    expect(stats).toMatchObject({ imported: 3, skipped: 0 });
    const rels = relationshipsOf(t.deps, f.users.alice.id);
    expect(rels.get("jane@target.com")).toMatchObject({ sent: 1, received: 1 });
    expect(rels.get("bob@acme.vc")).toMatchObject({ received: 1 });
    expect(personByEmail(t.deps, "alice.archer@gmail.com")).toBeNull();
    expect(personByEmail(t.deps, "a.archer@acme-old.com")).toBeNull();
  });

  test("RFC 2047 names, quoted names, groups and folded headers are read; escaped >From body lines do not split a message", () => {
    setup();
    const path = writeTo(
      filesDir(),
      "mail.mbox",
      [
        "From jurgen@muller.de Sat Nov  1 10:00:00 2026",
        "From: =?UTF-8?B?SsO8cmdlbiBNw7xsbGVy?= <jurgen@muller.de>",
        'To: "Archer, Alice" <alice@acme.vc>,',
        "\tteam: x@team.io, y@team.io;",
        "Subject: =?iso-8859-1?Q?R=E9union?=",
        "Date: Sat, 1 Nov 2026 10:00:00 +0100 (CET)",
        "Message-ID: <J1@Muller.DE>",
        "",
        "Body line",
        ">From the archive: this is not a new message",
        ">>From an mboxrd double escape",
        "",
        "From lena@x.org Sun Nov  2 10:00:00 2026",
        "From: lena@x.org",
        "To: alice@acme.vc",
        "Date: Sun, 02 Nov 2026 10:00:00 GMT",
        "Message-ID: <L1@x.org>",
        "",
        "bye",
      ].join("\r\n"),
    );
    const stats = importFor(f.users.alice.id, path);
    expect(stats).toMatchObject({ read: 2, imported: 2 });
    expect(personByEmail(t.deps, "jurgen@muller.de")).toMatchObject({ display_name: "Jürgen Müller", domain: "muller.de" });
    expect(personByEmail(t.deps, "x@team.io")).not.toBeNull();
    const keys = t.deps.db.$client.query("SELECT source_key, occurred_at FROM interactions ORDER BY id").all();
    expect(keys).toEqual([
      { source_key: "msg:j1@muller.de", occurred_at: "2026-11-01T09:00:00.000Z" },
      { source_key: "msg:l1@x.org", occurred_at: "2026-11-02T10:00:00.000Z" },
    ]);
  });
});

describe("import mail: what is skipped", () => {
  test("each reason is counted, never an error, and records nothing", () => {
    setup();
    const many = Array.from({ length: 20 }, (_, i) => `p${i}@crowd.com`).join(", ");
    const path = writeMbox([
      { from: "news@letters.com", to: "alice@acme.vc", headers: ["List-Id: Letters <letters.com>"] },
      { from: "promo@shop.com", to: "undisclosed-recipients:;", headers: ["List-Unsubscribe: <mailto:u@shop.com>"] },
      { from: "digest@vc.com", to: "alice@acme.vc", headers: ["Precedence: bulk"] },
      { from: "noreply@docsend.com", to: "alice@acme.vc" },
      { from: "jane@target.com", to: "alice@acme.vc", headers: ["Auto-Submitted: auto-replied"] },
      { from: "jane@target.com", to: `alice@acme.vc, ${many}` },
      { from: "jane@target.com", to: "raj@target.com" },
      { from: "alice@acme.vc", to: "alice@acme.vc" },
      { from: "undisclosed", to: "alice@acme.vc" },
      // List-Unsubscribe on mail not addressed to the user directly (a list, or a Bcc'd bulk send).
      { from: "tool@saas.com", to: "undisclosed-recipients:;", headers: ["List-Unsubscribe: <https://saas.com/u>", "Delivered-To: alice@acme.vc"] },
      { from: "jane@target.com", to: "alice@acme.vc", date: "2026-11-22T12:00:00Z" }, // the test clock is 2026-11-22T12:00Z
      { from: "jane@target.com", to: "alice@acme.vc", date: "Fri, 1 Jun 2035 09:00:00 +0000" },
      // Not skipped: Auto-Submitted: no, and a message dated a few minutes ahead (clock skew).
      { from: "jane@target.com", to: "alice@acme.vc", headers: ["Auto-Submitted: no"], id: "keep2@x" },
      { from: "raj@target.com", to: "alice@acme.vc", date: "2026-11-22T12:10:00Z", id: "keep3@x" },
    ]);
    const before = snapshot(t.deps);
    const stats = importFor(f.users.alice.id, path);
    expect(stats.skipped_by_reason).toEqual({
      mailing_list: 3,
      bulk: 1,
      automated: 1,
      auto_reply: 1,
      too_many_participants: 1,
      not_addressed_to_user: 1,
      no_other_participants: 1,
      no_sender: 1,
      future: 1,
    });
    expect(stats).toMatchObject({ read: 14, skipped: 11, imported: 3 });
    const rels = relationshipsOf(t.deps, f.users.alice.id);
    expect([...rels.keys()]).toEqual(["jane@target.com", "raj@target.com"]);
    expect(snapshot(t.deps).interactions).toBe(before.interactions + 3);
    // Nothing imported sets a last touch in the future, so every relationship can still go stale.
    const latest = t.deps.db.$client.query<{ at: string }, []>("SELECT max(last_touch_at) AS at FROM relationships").get()!.at;
    expect(latest).toBe("2026-11-22T12:10:00.000Z");
  });

  test("automated senders, mail-system role addresses and the headers automated mail carries are skipped, with no other header needed", () => {
    setup();
    const senders = [
      "no_reply@x.com", "calendar-notification@google.com", "invites@linkedin.com", "notifications@github.com",
      "MAILER-DAEMON@mx.example.com", "postmaster@example.org", "bounce@mail.example.com", "bounces+123@x.com",
      "jira-notifications@corp.atlassian.net", "do_not_reply@bank.com", "noreply@docsend.com",
    ];
    const automatedHeaders = [["X-Auto-Response-Suppress: All"], ["Return-Path: <>"], ["Auto-Submitted: auto-generated"], ["Precedence: junk"]];
    const path = writeMbox([
      ...senders.map((from) => ({ from, to: "alice@acme.vc" })),
      ...automatedHeaders.map((headers) => ({ from: "jane@target.com", to: "alice@acme.vc", headers })),
      // People whose address merely contains such a word are people.
      { from: "Invitee Smith <invitee@target.com>", to: "alice@acme.vc", id: "p1@x" },
      { from: "Ben Systemic <ben.systemic@target.com>", to: "alice@acme.vc", id: "p2@x" },
      { from: "jane@target.com", to: "alice@acme.vc", headers: ["Return-Path: <jane@target.com>"], id: "p3@x" },
    ]);
    const stats = importFor(f.users.alice.id, path);
    // Mail-system role addresses (MAILER-DAEMON, postmaster, bounce, bounces+tag) are counted as such.
    expect(stats.skipped_by_reason).toEqual({ automated: senders.length - 4 + 3, role_address: 4, bulk: 1 });
    expect(stats.imported).toBe(3);
    expect([...relationshipsOf(t.deps, f.users.alice.id).keys()]).toEqual(["ben.systemic@target.com", "invitee@target.com", "jane@target.com"]);
  });

  test("Bcc: the user's own sent mail touches its Bcc recipients; mail the user was only Bcc'd on counts as received", () => {
    setup();
    const path = writeMbox([
      // The sender's copy keeps the Bcc line.
      { from: "alice@acme.vc", to: "jane@target.com", id: "b1@x", headers: ["Bcc: Quiet Investor <quiet@lp.com>, alice.archer@gmail.com"] },
      // Alice was Bcc'd: her server says so in Delivered-To (or X-Original-To); nothing in To/Cc names her.
      { from: "Sam Stone <sam@founder.ai>", to: "jane@target.com", id: "b2@x", headers: ["Delivered-To: alice@acme.vc"] },
      { from: "raj@target.com", to: "someone@else.com", id: "b3@x", headers: ["X-Original-To: alice.archer@gmail.com"] },
      { from: "kim@other.io", to: "jane@target.com", id: "b4@x", headers: ["Bcc: alice@acme.vc"] },
      // Delivered to someone else: still not the user's.
      { from: "lee@other.io", to: "jane@target.com", id: "b5@x", headers: ["Delivered-To: jane@target.com"] },
    ]);
    const stats = importFor(f.users.alice.id, path, ["alice.archer@gmail.com"]);
    expect(stats).toMatchObject({ imported: 4, skipped_by_reason: { not_addressed_to_user: 1 } });
    const rels = relationshipsOf(t.deps, f.users.alice.id);
    expect(rels.get("quiet@lp.com")).toMatchObject({ sent: 1, name: "Quiet Investor" });
    expect(rels.get("jane@target.com")).toMatchObject({ sent: 1, received: 0 });
    expect(rels.get("sam@founder.ai")).toMatchObject({ received: 1 });
    expect(rels.get("raj@target.com")).toMatchObject({ received: 1 });
    expect(rels.get("kim@other.io")).toMatchObject({ received: 1 });
    expect(rels.has("lee@other.io")).toBe(false);
    expect(personByEmail(t.deps, "alice.archer@gmail.com")).toBeNull();
    // The Bcc recipient counts among the message's participants.
    const count = t.deps.db.$client.query<{ n: number }, []>("SELECT participant_count AS n FROM interactions WHERE source_key = 'msg:b1@x'").get()!.n;
    expect(count).toBe(4); // Alice (by her alias too), Jane and the Bcc'd investor
  });

  test("exactly MAX_PARTICIPANTS people is still a relationship signal", () => {
    setup();
    const nineteen = Array.from({ length: 18 }, (_, i) => `p${i}@crowd.com`).join(", ");
    const stats = importFor(f.users.alice.id, writeMbox([{ from: "alice@acme.vc", to: `jane@target.com, ${nineteen}` }]));
    expect(stats).toMatchObject({ imported: 1, skipped: 0 });
    expect(relationshipsOf(t.deps, f.users.alice.id).size).toBe(19);
  });
});

describe("import mail: List-Unsubscribe", () => {
  test("one-to-one mail that carries it (a founder's cold outreach through a sales-engagement tool) is imported when addressed to the user in To or Cc", () => {
    setup();
    const unsubscribe = "List-Unsubscribe: <https://outreach.example/unsubscribe/abc>";
    const path = writeMbox([
      { from: "Nia Founder <nia@seedling.io>", to: "alice@acme.vc", headers: [unsubscribe], id: "cold1@seedling.io" },
      { from: "Omar Founder <omar@sprout.ai>", to: "partners@acme.vc", cc: "alice@acme.vc", headers: [unsubscribe], id: "cold2@sprout.ai" },
    ]);
    const stats = importFor(f.users.alice.id, path);
    expect(stats).toMatchObject({ read: 2, imported: 2, skipped: 0 });
    const rels = relationshipsOf(t.deps, f.users.alice.id);
    expect([...rels.keys()].sort()).toEqual(["nia@seedling.io", "omar@sprout.ai"]);
  });

  test("it still skips mail that reached the user only through a list or as Bcc (Delivered-To, X-Original-To); List-Id and Precedence skip even mail addressed to the user", () => {
    setup();
    const unsubscribe = "List-Unsubscribe: <mailto:leave@letters.com>";
    const path = writeMbox([
      { from: "news@letters.com", to: "subscribers@letters.com", headers: [unsubscribe, "Delivered-To: alice@acme.vc"] },
      { from: "promo@shop.com", to: "undisclosed-recipients:;", headers: [unsubscribe, "X-Original-To: alice@acme.vc"] },
      { from: "dana@club.org", to: "alice@acme.vc", headers: ["List-Id: Club <club.org>"] },
      { from: "dana@club.org", to: "alice@acme.vc", headers: ["Precedence: list"] },
      { from: "dana@club.org", to: "alice@acme.vc", headers: ["Precedence: junk", unsubscribe] },
    ]);
    const stats = importFor(f.users.alice.id, path);
    expect(stats.skipped_by_reason).toEqual({ mailing_list: 3, bulk: 2 });
    expect(stats.imported).toBe(0);
  });
});

describe("import mail: dedupe", () => {
  test("a re-import changes no row; a message without Message-ID is keyed by Date, From and Subject", () => {
    setup();
    const path = writeMbox([
      { from: "alice@acme.vc", to: "jane@target.com", id: "Same@Acme.vc" },
      { from: "jane@target.com", to: "alice@acme.vc", id: null, subject: "no id" },
      { from: "jane@target.com", to: "alice@acme.vc", id: "same@acme.vc" },
    ]);
    const first = importFor(f.users.alice.id, path);
    expect(first).toMatchObject({ read: 3, imported: 2, duplicates: 1 });
    const before = snapshot(t.deps);
    t.clock.advanceHours(24);
    const again = importFor(f.users.alice.id, path);
    expect(again).toMatchObject({ read: 3, imported: 0, duplicates: 3, persons_created: 0, relationships_created: 0 });
    expect(snapshot(t.deps)).toEqual(before);
    const keys = t.deps.db.$client.query("SELECT source_key FROM interactions ORDER BY id").all() as { source_key: string }[];
    expect(keys[0].source_key).toBe("msg:same@acme.vc");
    expect(keys[1].source_key).toMatch(/^msg:sha256:[0-9a-f]{64}$/);
  });

  test("the same message in two users' mailboxes is one person, with a relationship for each user", () => {
    setup();
    const msg = { from: "Jane Doe <jane@target.com>", to: "alice@acme.vc, bob@acme.vc", id: "shared@target.com" };
    importFor(f.users.alice.id, writeMbox([msg]));
    const second = importFor(f.users.bob.id, writeMbox([msg]));
    // Jane is known already; the one new person is Alice, a co-recipient in Bob's mailbox.
    expect(second).toMatchObject({ imported: 1, duplicates: 0, persons_created: 1, relationships_created: 1 });
    const ids = t.deps.db.$client.query("SELECT DISTINCT person_id FROM person_emails WHERE email = 'jane@target.com'").all();
    expect(ids.length).toBe(1);
    expect(relationshipsOf(t.deps, f.users.bob.id).get("jane@target.com")).toMatchObject({ received: 1 });
    expect(relationshipsOf(t.deps, f.users.alice.id).get("jane@target.com")).toMatchObject({ received: 1 });
    // Another organization's user gets its own person for the same address.
    importFor(f.users.carol.id, writeMbox([{ ...msg, to: "carol@globex.vc" }]));
    expect((t.deps.db.$client.query("SELECT count(*) AS n FROM persons").get() as { n: number }).n).toBe(4);
  });
});

const expectImportError = (fn: () => unknown, file: string, line: number | null, reason: RegExp) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ImportError);
    const e = error as ImportError;
    expect(e.file).toBe(file);
    expect(e.line).toBe(line);
    expect(e.reason).toMatch(reason);
    expect(e.message).toBe(`${file}${line === null ? "" : `:${line}`}: ${e.reason}`);
    return;
  }
  throw new Error("no ImportError");
};

describe("import mail: bad input", () => {
  test("a file that is not an mbox fails at its first line and writes nothing", () => {
    setup();
    const path = writeTo(filesDir(), "notes.txt", "\n\nDear diary,\nFrom today on...\n");
    const before = snapshot(t.deps);
    expectImportError(() => importFor(f.users.alice.id, path), path, 3, /not an mbox file/);
    expect(snapshot(t.deps)).toEqual(before);
  });

  test("a message without a usable Date or From is skipped and counted where it is, like any unusable message; the file goes on", () => {
    setup();
    const good = { from: "alice@acme.vc", to: "jane@target.com" };
    const messages = [good, good, { from: "jane@target.com", to: "alice@acme.vc", date: "sometime last week" }, good, { from: "jane@target.com", to: "alice@acme.vc", date: null }];
    const path = writeMbox([...messages, { from: "undisclosed", to: "alice@acme.vc" }]);
    // Two messages of 9 lines each (separator, 5 headers, blank, body, blank) come first; then the
    // third one's separator, From, To, Subject and Date.
    const dateLine = 2 * 9 + 5;
    expect(mbox([good, good]).split("\n").length - 1).toBe(18);
    const stats = importFor(f.users.alice.id, path);
    expect(stats).toMatchObject({ read: 6, imported: 3, skipped: 3, skipped_by_reason: { no_date: 2, no_sender: 1 } });
    // The first of each: the bad Date header's line; a message with no From at its separator line.
    expect(stats.first_skipped_at).toEqual({ no_date: `${path}:${dateLine}`, no_sender: `${path}:${mbox(messages).split("\n").length}` });
  });

  test("a missing path, a user in no organization and an unknown user are refused", () => {
    setup();
    expectImportError(() => importFor(f.users.alice.id, "/nonexistent/mail.mbox"), "/nonexistent/mail.mbox", null, /no such file/);
    const path = writeMbox([{ from: "a@b.com", to: "nomad@example.com" }]);
    expect(() => importFor(f.users.nomad.id, path)).toThrow(ApiError);
    expect(() => importFor("no-such-user", path)).toThrow(/No user/);
    expect(snapshot(t.deps).interactions).toBe(0);
  });
});

describe("import mail: a folder of .eml files", () => {
  test("every .eml under the folder, subfolders included; other files are ignored; a bad .eml is reported and the others imported", () => {
    setup();
    const dir = filesDir();
    writeTo(dir, "inbox/1.eml", message({ from: "Jane Doe <jane@target.com>", to: "alice@acme.vc", id: "e1@x" }).replace(/\n/g, "\r\n"));
    writeTo(dir, "sent/2.eml", message({ from: "alice@acme.vc", to: "raj@target.com", id: "e2@x" }));
    writeTo(dir, "sent/3.EML", `From alice@acme.vc Sat Nov  1 10:00:00 2026\n${message({ from: "alice@acme.vc", to: "kim@other.io", id: "e3@x" })}`);
    writeTo(dir, "readme.txt", "not mail");
    const stats = importFor(f.users.alice.id, dir);
    expect(stats).toMatchObject({ files: 3, read: 3, imported: 3 });
    expect([...relationshipsOf(t.deps, f.users.alice.id).keys()]).toEqual(["jane@target.com", "kim@other.io", "raj@target.com"]);
    expect(importFor(f.users.alice.id, dir)).toMatchObject({ imported: 0, duplicates: 3 });

    // Each .eml is its own unit: a file that is not mail is reported by name and writes nothing;
    // the others are imported. A message without a usable date is skipped like in an mbox.
    const before = snapshot(t.deps);
    writeTo(dir, "inbox/0.eml", message({ from: "new@person.com", to: "alice@acme.vc", id: "e0@x" }));
    writeTo(dir, "sent/4.eml", message({ from: "alice@acme.vc", to: "x@y.com", date: "32 Foo 2026" }));
    const bad = writeTo(dir, "sent/5.eml", "\u0000\u0001 binary junk, no headers\n");
    const mixed = importFor(f.users.alice.id, dir);
    expect(mixed).toMatchObject({ files: 6, read: 5, imported: 1, duplicates: 3, failed_files: 1, skipped_by_reason: { no_date: 1 } });
    expect(mixed.errors).toEqual([`${bad}:1: not an email message: no header lines (Name: value) at the top of the file`]);
    expect(snapshot(t.deps).interactions).toBe(before.interactions + 1);
    expect(relationshipsOf(t.deps, f.users.alice.id).has("new@person.com")).toBe(true);
    const empty = filesDir();
    expectImportError(() => importFor(f.users.alice.id, empty), empty, null, /no \.eml files/);
    const single = writeTo(empty, "one.eml", message({ from: "solo@one.com", to: "alice@acme.vc" }));
    expect(importFor(f.users.alice.id, single)).toMatchObject({ files: 1, imported: 1 });
  });
});
