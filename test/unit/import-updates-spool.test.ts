// The spool that keeps the messages a mail import hands to the updates reader: in memory up to its
// bound, past it in a file; drained in the order they came, the file removed after.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MessageSpool } from "../../src/modules/updates/updates.spool.ts";

describe("MessageSpool", () => {
  test("past its memory bound the messages go to a file, and come back whole and in order", () => {
    const dir = join(mkdtempSync(join(tmpdir(), "dealgraph-spool-")), "updates");
    try {
      const spool = new MessageSpool(dir, 100);
      const messages = Array.from({ length: 7 }, (_, i) => Buffer.from(`Message-ID: <m${i}@x>\r\n\r\n${"x".repeat(30 + i * 11)}`));
      messages.forEach((m, i) => spool.add(m, `mail.mbox:${i * 10 + 1}`));
      expect(spool.size).toBe(7);
      // The first ones fit in memory; the rest were written to the spool file.
      expect(readdirSync(dir).length).toBe(1);
      const out = [...spool.drain()];
      expect(out.map((o) => o.where)).toEqual(messages.map((_, i) => `mail.mbox:${i * 10 + 1}`));
      expect(out.map((o) => o.raw.toString())).toEqual(messages.map((m) => m.toString()));
      expect(readdirSync(dir)).toEqual([]);
      expect(spool.size).toBe(0);
      expect([...spool.drain()]).toEqual([]);
    } finally {
      rmSync(join(dir, ".."), { recursive: true, force: true });
    }
  });

  test("within the bound nothing is written", () => {
    const dir = join(tmpdir(), `dealgraph-spool-none-${process.pid}`);
    const spool = new MessageSpool(dir);
    spool.add(Buffer.from("a"), null);
    expect([...spool.drain()].map((o) => [o.raw.toString(), o.where])).toEqual([["a", null]]);
    expect(existsSync(dir)).toBe(false);
  });
});
