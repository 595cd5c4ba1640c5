// Issue 27, finding 5: what syncs against a hostile IMAP server may hold, beside the size limits and
// the command deadline of one session (test/e2e/hostile-calendars.test.ts):
//   - bytes buffered per sync: a mailbox whose every message carries a huge wanted header field
//     (what a hostile server sends up to imapflow's literal limit, 2,000 to a batch) is read in
//     batches that hold at most half of IMAP_LIMITS.bufferedCharsPerSync each, and still counted
//     whole in the ledger;
//   - a deadline per sync: a FETCH that never ends stops the sync at IMAP_LIMITS.syncMs;
//   - concurrent syncs per organization: one org's syncs held by its server take at most
//     IMAP_LIMITS.concurrentSyncsPerOrg of the process's slots, and another org's sync runs meanwhile.
// Against a real loopback IMAP server (enough of RFC 3501 for imapflow's sync path).
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { createServer, type Server, type Socket } from "node:net";
import { connectionsLedger } from "../../src/modules/connections/connections.ledger.ts";
import { IMAP_LIMITS } from "../../src/modules/connections/connections.imap.ts";
import { connectionsService } from "../../src/modules/connections/connections.service.ts";
import { connectionsSync } from "../../src/modules/connections/connections.sync.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { TestClock } from "../helpers/clock.ts";

type Mailbox = {
  port: number;
  /** Each message's header block. */
  messages: string[];
  /** UID sets of the FETCH commands received, in order. */
  fetches: string[];
  /** FETCH answers a byte a second and never ends (never silent long enough for a socket timeout). */
  trickle: boolean;
  /** When set, STATUS is answered only once it resolves (a server that holds a sync). */
  hold: Promise<void> | null;
  /** Sessions waiting on `hold` now, and the most at once. */
  held: number;
  mostHeld: number;
  close(): Promise<void>;
};

/** Expands an IMAP sequence set of UIDs (`1:3,7`) against the highest UID. */
function uidsOf(set: string, highest: number): number[] {
  const out: number[] = [];
  for (const part of set.split(",")) {
    const [a, b = a] = part.split(":").map((x) => (x === "*" ? highest : Number(x)));
    for (let u = Math.min(a, b); u <= Math.max(a, b) && u <= highest; u++) out.push(u);
  }
  return out;
}

/** A loopback IMAP server with one folder (INBOX, UIDVALIDITY 7) holding `messages` as UIDs 1..n. */
async function mailbox(messages: string[]): Promise<Mailbox> {
  const sockets = new Set<Socket>();
  const box: Mailbox = { port: 0, messages, fetches: [], trickle: false, hold: null, held: 0, mostHeld: 0, close: async () => {} };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    socket.write("* OK [CAPABILITY IMAP4rev1] hostile ready\r\n");
    let buffered = "";
    // One command at a time, in order (a held STATUS holds the commands behind it too).
    let queue = Promise.resolve();
    socket.on("data", (chunk) => {
      buffered += chunk.toString("latin1");
      for (let nl = buffered.indexOf("\r\n"); nl >= 0; nl = buffered.indexOf("\r\n")) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 2);
        queue = queue.then(() => answer(socket, line)).catch(() => {});
      }
    });
  });
  const n = () => box.messages.length;
  async function answer(socket: Socket, line: string) {
    const [tag, ...words] = line.split(" ");
    const uid = words[0]?.toUpperCase() === "UID";
    const verb = (uid ? words[1] : words[0])?.toUpperCase();
    const rest = words.slice(uid ? 2 : 1);
    const w = (text: string | Buffer) => !socket.destroyed && socket.write(text);
    if (verb === "CAPABILITY") w(`* CAPABILITY IMAP4rev1\r\n${tag} OK done\r\n`);
    else if (verb === "LOGIN") w(`${tag} OK [CAPABILITY IMAP4rev1] logged in\r\n`);
    else if (verb === "LOGOUT") socket.end(`* BYE\r\n${tag} OK bye\r\n`);
    else if (verb === "LIST") w(`* LIST (\\HasNoChildren) "/" INBOX\r\n${tag} OK done\r\n`);
    else if (verb === "STATUS") {
      if (box.hold) {
        box.held++;
        box.mostHeld = Math.max(box.mostHeld, box.held);
        await box.hold;
        box.held--;
      }
      w(`* STATUS INBOX (MESSAGES ${n()} UIDNEXT ${n() + 1} UIDVALIDITY 7)\r\n${tag} OK done\r\n`);
    } else if (verb === "SELECT" || verb === "EXAMINE") w(`* ${n()} EXISTS\r\n* 0 RECENT\r\n* OK [UIDVALIDITY 7] ok\r\n* OK [UIDNEXT ${n() + 1}] ok\r\n* FLAGS ()\r\n${tag} OK [READ-ONLY] done\r\n`);
    else if (verb === "SEARCH") w(`* SEARCH ${Array.from({ length: n() }, (_, i) => i + 1).join(" ")}\r\n${tag} OK done\r\n`);
    else if (verb === "FETCH" && box.trickle) {
      w("* 1 FETCH (UID 1 BODY[HEADER] {100000}\r\n");
      const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : w("x")), 1_000);
      socket.on("close", () => clearInterval(timer));
    } else if (verb === "FETCH") {
      box.fetches.push(rest[0]);
      for (const u of uidsOf(rest[0], n())) {
        const block = Buffer.from(box.messages[u - 1], "latin1");
        w(`* ${u} FETCH (UID ${u} BODY[HEADER] {${block.length}}\r\n`);
        if (!w(block) && !socket.destroyed) await new Promise((resolve) => socket.once("drain", resolve));
        w(")\r\n");
      }
      w(`${tag} OK done\r\n`);
    } else w(`${tag} OK done\r\n`);
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  box.port = (server.address() as { port: number }).port;
  box.close = async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return box;
}

/** A message from `from` to amy@acme.vc whose Subject is `padChars` longer (a wanted field: kept until written). */
const message = (i: number, from: string, padChars = 0) =>
  [
    `From: Sender ${i} <${from}>`,
    "To: Amy <amy@acme.vc>",
    `Subject: Message ${i}${" word".repeat(Math.ceil(padChars / 5))}`,
    "Date: Mon, 02 Nov 2026 10:00:00 +0000",
    `Message-ID: <m${i}.${from}>`,
    "",
    "",
  ].join("\r\n");

const saved = { ...IMAP_LIMITS };
const apps: TestApp[] = [];
const boxes: Mailbox[] = [];
afterEach(async () => {
  Object.assign(IMAP_LIMITS, saved);
  for (const b of boxes.splice(0)) await b.close();
  for (const a of apps.splice(0)) a.close();
});
afterAll(() => Object.assign(IMAP_LIMITS, saved));

function app() {
  const t = createTestApp({ clock: new TestClock("2026-11-22T12:00:00.000Z") });
  apps.push(t);
  return { t, orgs: orgsService(t.deps), service: connectionsService(t.deps), sync: connectionsSync(t.deps) };
}

async function served(messages: string[]) {
  const box = await mailbox(messages);
  boxes.push(box);
  return box;
}

describe("finding 5: syncs against a hostile IMAP server are bounded", () => {
  test("bytes buffered per sync: a mailbox of messages with 300 KB header fields is read in batches that hold about the cap, and counted whole", async () => {
    // 1 MB for the sync: a batch holds about 512 KB (one message past it at most), so a few
    // messages each, where 2,000 of them (600 MB) went into one batch before.
    IMAP_LIMITS.bufferedCharsPerSync = 1024 * 1024;
    const count = 40;
    const box = await served(Array.from({ length: count }, (_, i) => message(i + 1, `s${i}@hostile.example`, 300 * 1024)));
    const { t, orgs, service, sync } = app();
    const org = orgs.createOrg("Acme Ventures");
    const user = orgs.createUser({ orgId: org.id, email: "amy@acme.vc", name: "Amy" });
    service.setMailServer(org.id, { imap: `127.0.0.1:${box.port}`, security: "plain", caldav: null });
    const { connection_id } = await service.connectMail(user.id, { login: "amy@acme.vc", password: "pw" });
    const entry = (await sync.syncUser(user.id)).connections[0];
    expect(entry).toMatchObject({ connection_id, status: "ok", messages_new: count });
    // Every message counted once in the ledger, over batches that each ended near the cap.
    const ledger = connectionsLedger(t.deps).entries(connection_id);
    expect(ledger.reduce((n, r) => n + r.seen, 0)).toBe(count);
    expect(ledger.reduce((n, r) => n + r.imported, 0)).toBe(count);
    // The FETCHes asked for the UIDs in order, each after the last one committed, none of the
    // later ones (sized to what fits) for more than a handful of these messages.
    const firsts = box.fetches.map((f) => Number(f.split(/[:,]/)[0]));
    expect(box.fetches.length).toBeGreaterThan(5);
    expect(firsts).toEqual([...firsts].sort((a, b) => a - b));
    expect(new Set(firsts).size).toBe(firsts.length);
    for (const f of box.fetches.slice(1)) expect(uidsOf(f, count).length).toBeLessThanOrEqual(4);
  }, 120_000);

  test("a deadline per sync: a FETCH that never ends stops the sync at IMAP_LIMITS.syncMs with the reason", async () => {
    const box = await served([message(1, "s@hostile.example")]);
    const { orgs, service, sync } = app();
    const org = orgs.createOrg("Acme Ventures");
    const user = orgs.createUser({ orgId: org.id, email: "amy@acme.vc", name: "Amy" });
    service.setMailServer(org.id, { imap: `127.0.0.1:${box.port}`, security: "plain", caldav: null });
    const { connection_id } = await service.connectMail(user.id, { login: "amy@acme.vc", password: "pw" });
    box.trickle = true;
    IMAP_LIMITS.probeMs = 2_000;
    IMAP_LIMITS.syncMs = 3_000;
    const entry = (await sync.syncUser(user.id)).connections[0];
    expect(entry).toMatchObject({ connection_id, status: "error", messages_new: 0, error: expect.stringMatching(/did not finish within 3 s \(the most one sync of a mailbox may take\)/) });
  }, 120_000);

  test("concurrent syncs per organization: three of one org held by its server take two slots; another org's sync runs meanwhile", async () => {
    const hostile = await served([message(1, "a@hostile.example")]);
    const fair = await served([message(1, "b@fair.example")]);
    const { orgs, service, sync } = app();
    const a = orgs.createOrg("Held Capital");
    const b = orgs.createOrg("Fair Partners");
    service.setMailServer(a.id, { imap: `127.0.0.1:${hostile.port}`, security: "plain", caldav: null });
    service.setMailServer(b.id, { imap: `127.0.0.1:${fair.port}`, security: "plain", caldav: null });
    const members = await Promise.all(
      [1, 2, 3].map(async (i) => {
        const u = orgs.createUser({ orgId: a.id, email: `m${i}@held.example`, name: `Member ${i}` });
        await service.connectMail(u.id, { login: `m${i}@held.example`, password: "pw" });
        return u;
      }),
    );
    const other = orgs.createUser({ orgId: b.id, email: "amy@acme.vc", name: "Amy" });
    await service.connectMail(other.id, { login: "amy@acme.vc", password: "pw" });

    let release!: () => void;
    hostile.hold = new Promise<void>((resolve) => (release = resolve));
    const held = members.map((u) => sync.syncUser(u.id));
    // The held org's syncs reach its server two at a time at most; the third waits for a slot.
    while (hostile.held < 2) await Bun.sleep(20);
    const otherEntry = (await sync.syncUser(other.id)).connections[0];
    expect(otherEntry).toMatchObject({ status: "ok", messages_new: 1 });
    expect(hostile.held).toBe(2);
    release();
    const entries = (await Promise.all(held)).map((r) => r.connections[0]);
    expect(entries.map((e) => e.status)).toEqual(["ok", "ok", "ok"]);
    expect(hostile.mostHeld).toBe(IMAP_LIMITS.concurrentSyncsPerOrg);
  }, 120_000);
});
