// `dealgraph backup`, `backup verify` and `restore` against a real `dealgraph serve` (a child
// process) that keeps taking writes while the backup is taken: the restored data dir serves the
// same keys, every record acknowledged before the backup started, and the same files, and opens
// the same sealed secrets. Damaged archives fail `verify` naming what is wrong; restore touches
// nothing it should not.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { cleanEnv, startServe, type Child } from "../../scripts/lib/child-process.ts";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { openDataDir } from "../../src/db/open.ts";
import { createDeps } from "../../src/deps.ts";
import { blobPath } from "../../src/lib/blobs.ts";
import { silentLog } from "../../src/lib/log.ts";
import { pdfDeck, uploadForm } from "../helpers/decks.ts";
import { cli, tempDataDir } from "../helpers/cli.ts";
import { tarOf } from "../helpers/tar.ts";

const ROOT = join(import.meta.dir, "../..");
const ENV = { DEALGRAPH_ALLOW_PRIVATE_NETWORK: "1" };

let dir = "";
let child: Child | null = null;
let url = "";
let key = "";
let archive = "";
const cleanup: string[] = [];
/** Webhooks whose 201 arrived before the backup started, with the secret each was created with. */
let ackedBefore: { id: string; secret: string }[] = [];

let deck: { sha256: string; bytes: number; dealId: string } | null = null;

const auth = () => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });
const createWebhook = async (n: number) => {
  const res = await fetch(`${url}/api/v1/webhooks`, { method: "POST", headers: auth(), body: JSON.stringify({ url: `http://127.0.0.1:9/hook-${n}` }) });
  if (res.status !== 201) throw new Error(`webhook ${n}: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { webhook_id: string; secret: string };
  return { id: body.webhook_id, secret: body.secret };
};

beforeAll(async () => {
  dir = tempDataDir();
  cleanup.push(dir);
  const org = (await cli(dir, "admin", "org", "create", "--name", "Backup Ventures", "--json")).json.org_id;
  const user = (await cli(dir, "admin", "user", "create", "--org", org, "--email", "ops@backup.vc", "--name", "Ops", "--json")).json.user_id;
  key = (await cli(dir, "admin", "key", "create", "--user", user, "--scope", "write", "--json")).json.secret;
  const served = await startServe([process.execPath, join(ROOT, "src/main.ts"), "serve", "--port", "0", "--data-dir", dir], { cwd: ROOT, env: cleanEnv(ENV) });
  child = served.child;
  url = served.url;
  // A file in the blob store.
  const bytes = await pdfDeck();
  const up = await fetch(`${url}/api/v1/deals/analyze/upload`, { method: "POST", body: uploadForm(bytes, "deck.pdf", { company_name: "Ledgerly" }), headers: { authorization: `Bearer ${key}` } });
  expect(up.status).toBe(202);
  deck = { sha256: createHash("sha256").update(bytes).digest("hex"), bytes: bytes.length, dealId: ((await up.json()) as { deal_id: string }).deal_id };

  // Writes keep arriving before, during and after the backup.
  let n = 0;
  let writing = true;
  const acked: { id: string; secret: string }[] = [];
  const writer = (async () => {
    while (writing) acked.push(await createWebhook(n++));
  })();
  while (acked.length < 20) await Bun.sleep(5);
  ackedBefore = [...acked];
  const backup = await cli(dir, "backup", "--json");

  writing = false;
  await writer;
  expect(backup.code, backup.stderr).toBe(0);
  archive = backup.json.file;
}, 60_000);

afterAll(async () => {
  await child?.stop();
  for (const d of cleanup) rmSync(d, { recursive: true, force: true });
});

describe("dealgraph backup", () => {
  test("writes <data-dir>/backups/dealgraph-<UTC timestamp>.tar.gz, mode 0600, with its sha256 and a record of it (not yet verified)", () => {
    expect(archive).toMatch(new RegExp(`^${dir}/backups/dealgraph-\\d{8}T\\d{6}Z\\.tar\\.gz$`));
    expect(statSync(archive).mode & 0o777).toBe(0o600);
    const record = JSON.parse(readFileSync(`${archive}.json`, "utf8"));
    expect(record).toMatchObject({ bytes: statSync(archive).size, sha256: createHash("sha256").update(readFileSync(archive)).digest("hex"), problem: null });
    // integrity_check is `backup verify`'s (CONTRACT.md): the record says so until it has run.
    expect(record.verified_at).toBeNull();
    // Nothing half-written is left beside it.
    expect(readdirSync(join(dir, "backups")).filter((n) => n.includes("partial"))).toEqual([]);
  });

  test("a real gzip stream: gzip -t passes it and tar -xzf unpacks it", () => {
    expect(readFileSync(archive).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    const t = Bun.spawnSync(["gzip", "-t", archive]);
    expect(t.exitCode, t.stderr.toString()).toBe(0);
    const out = tempDataDir();
    cleanup.push(out);
    const x = Bun.spawnSync(["tar", "-xzf", archive, "-C", out]);
    expect(x.exitCode, x.stderr.toString()).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["backup.json", "blobs", "dealgraph.db", "manifest.json", "secret.key"]);
    const blob = readFileSync(join(out, "blobs", deck!.sha256.slice(0, 2), deck!.sha256));
    expect(createHash("sha256").update(blob).digest("hex")).toBe(deck!.sha256);
  });

  test("GNU tar reads the archive: the list of contents first, the snapshot, the referenced files, the server key, the manifest last", async () => {
    const listing = Bun.spawnSync(["tar", "-tzf", archive]).stdout.toString().trim().split("\n");
    expect(listing[0]).toBe("backup.json");
    expect(listing[1]).toBe("dealgraph.db");
    expect(listing).toContain(`blobs/${deck!.sha256.slice(0, 2)}/${deck!.sha256}`);
    expect(listing).toContain("secret.key");
    expect(listing.at(-1)).toBe("manifest.json");
    const manifest = JSON.parse(Bun.spawnSync(["tar", "-xzOf", archive, "manifest.json"]).stdout.toString());
    expect(manifest).toMatchObject({ format: "dealgraph-backup", version: 2, server_key: "file", missing_blobs: [], snapshot: { method: "frozen-file" }, compression: { format: "gzip", level: 1 } });
    expect(manifest.migrations).toContain("0000_foundation");
    expect(manifest.files.map((f: { path: string }) => f.path).sort()).toEqual(listing.filter((n) => n !== "manifest.json" && n !== "backup.json").sort());
    // backup.json declares every entry's size before its bytes come.
    const contents = JSON.parse(Bun.spawnSync(["tar", "-xzOf", archive, "backup.json"]).stdout.toString());
    expect(contents).toMatchObject({ format: "dealgraph-backup", version: 2 });
    expect(contents.files).toEqual(manifest.files.map((f: { path: string; bytes: number }) => ({ path: f.path, bytes: f.bytes })));
    // The snapshot is a rollback-journal database (header bytes 18-19 = 1): it opens read-only anywhere.
    const db = Buffer.from(Bun.spawnSync(["tar", "-xzOf", archive, "dealgraph.db"]).stdout);
    expect([db[18], db[19]]).toEqual([1, 1]);
  });

  test("backup verify: ok for a whole archive", async () => {
    const r = await cli(dir, "backup", "verify", archive, "--json");
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ ok: true, problems: [] });
    // Recorded beside the archive.
    expect(JSON.parse(readFileSync(`${archive}.json`, "utf8"))).toMatchObject({ verified_at: expect.any(String), problem: null });
  });

  test("an archive the previous release wrote (.tar.zst: the same entries, zstd) is still verified and restored", async () => {
    const d = tempDataDir();
    cleanup.push(d);
    const old = join(d, "dealgraph-20261128T030000Z.tar.zst");
    writeFileSync(old, Bun.zstdCompressSync(gunzip(readFileSync(archive))));
    const v = await cli(dir, "backup", "verify", old, "--json");
    expect(v.code, v.stderr).toBe(0);
    expect(v.json).toMatchObject({ ok: true, problems: [] });
    const target = join(d, "restored");
    const r = await cli(target, "restore", old, "--json");
    expect(r.code, r.stderr).toBe(0);
    expect(createHash("sha256").update(readFileSync(blobPath(target, deck!.sha256))).digest("hex")).toBe(deck!.sha256);
  });
});

describe("dealgraph restore", () => {
  test("the restored data dir serves the same keys, every record acknowledged before the backup, the same files and sealed secrets", async () => {
    const target = join(tempDataDir(), "restored");
    cleanup.push(target);
    const r = await cli(target, "restore", archive, "--json");
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ data_dir: target, server_key: "file" });
    expect(statSync(join(target, "secret.key")).mode & 0o777).toBe(0o600);

    const config = loadConfig({}, { dataDir: target });
    const { db } = openDataDir(config);
    const deps = createDeps({ db, config, log: silentLog });
    try {
      const app = createApp(deps);
      const get = (path: string) => app.handle(new Request(`http://localhost${path}`, { headers: auth() }));
      expect((await get("/api/v1/me")).status).toBe(200);
      for (const hook of ackedBefore) expect((await get(`/api/v1/webhooks/${hook.id}`)).status, hook.id).toBe(200);
      // The same server key: each secret sealed by the live server opens in the restored one.
      const sealed = db.$client.query<{ id: string; secret_enc: string }, []>("SELECT id, secret_enc FROM webhook_endpoints").all();
      const byId = new Map(sealed.map((s) => [s.id, s.secret_enc]));
      for (const hook of ackedBefore.slice(0, 5)) expect(await deps.secrets.box.decrypt(byId.get(hook.id)!, hook.id)).toBe(hook.secret);
      // The uploaded file, byte for byte.
      const blob = readFileSync(blobPath(target, deck!.sha256));
      expect(createHash("sha256").update(blob).digest("hex")).toBe(deck!.sha256);
      expect((await get(`/api/v1/deals/${deck!.dealId}`)).status).toBe(200);
      expect(db.$client.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    } finally {
      db.$client.close();
    }
  });

  test("into a non-empty data dir: exit 1, and nothing in it changes", async () => {
    const target = tempDataDir();
    cleanup.push(target);
    writeFileSync(join(target, "notes.txt"), "keep me");
    const before = readdirSync(target, { recursive: true });
    const r = await cli(target, "restore", archive);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("is not empty");
    expect(r.stderr).toContain("nothing was changed");
    expect(readdirSync(target, { recursive: true })).toEqual(before);
    expect(readFileSync(join(target, "notes.txt"), "utf8")).toBe("keep me");
  });

  test("a damaged archive restores nothing: a missing target is not even created", async () => {
    const broken = join(tempDataDir(), "broken.tar.gz");
    cleanup.push(broken.replace(/\/broken\.tar\.gz$/, ""));
    writeFileSync(broken, readFileSync(archive).subarray(0, Math.floor(statSync(archive).size / 2)));
    const target = join(tempDataDir(), "never");
    cleanup.push(target.replace(/\/never$/, ""));
    const r = await cli(target, "restore", broken);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("truncated");
    expect(existsSync(target)).toBe(false);
  });

  test("restore needs an explicit --data-dir and an archive", async () => {
    const { runCli } = await import("../../src/cli/index.ts");
    const err: string[] = [];
    const io = { out: () => {}, err: (l: string) => err.push(l), env: {}, readStdin: async () => "" };
    expect(await runCli(["restore", archive], io)).toBe(2);
    expect(err.join("\n")).toContain("usage: dealgraph restore FILE --data-dir DIR");
  });
});

/** The tar stream's entries: name, where its header starts, where its data ends (padded). */
function tarEntries(tar: Buffer) {
  const entries: { name: string; start: number; end: number; size: number }[] = [];
  for (let at = 0; at + 512 <= tar.length; ) {
    const name = tar.toString("utf8", at, at + 100).replace(/\0.*$/s, "");
    if (!name) break;
    const size = parseInt(tar.toString("ascii", at + 124, at + 135), 8);
    const end = at + 512 + Math.ceil(size / 512) * 512;
    entries.push({ name, start: at, end, size });
    at = end;
  }
  return entries;
}


// node:zlib reads every gzip member (Bun.gunzipSync stops after the first).
const gunzip = (b: Uint8Array) => gunzipSync(b);
const gzip = (b: Uint8Array) => gzipSync(b);

describe("backup verify names what is wrong", () => {
  const damaged = (name: string, bytes: Uint8Array) => {
    const d = tempDataDir();
    cleanup.push(d);
    const file = join(d, name);
    writeFileSync(file, bytes);
    return file;
  };
  const verify = (file: string) => cli(dir, "backup", "verify", file, "--json");

  test.each([
    ["cut short", () => readFileSync(archive).subarray(0, Math.floor(statSync(archive).size * 0.6)), /truncated/],
    ["cut inside the last gzip member's trailer (its CRC-32 and length)", () => readFileSync(archive).subarray(0, statSync(archive).size - 3), /truncated/],
    [
      "bytes flipped in the compressed stream",
      () => {
        const b = Buffer.from(readFileSync(archive));
        for (let i = 0; i < 64; i++) b[Math.floor(b.length / 3) + i] ^= 0xff;
        return b;
      },
      /corrupted|damaged|truncated/,
    ],
  ] as const)("%s", async (_what, make, expected) => {
    const r = await verify(damaged("x.tar.gz", make()));
    expect(r.code).toBe(1);
    expect(r.json.ok).toBe(false);
    expect(r.json.problems.join(" ")).toMatch(expected);
    expect(r.stderr).toMatch(expected);
  });

  test("a snapshot whose bytes changed inside an intact compressed stream: the file is named as not matching its sha256", async () => {
    const tar = gunzip(readFileSync(archive));
    const db = tarEntries(tar).find((e) => e.name === "dealgraph.db")!;
    tar[db.start + 512 + 100_000] ^= 0x01;
    const r = await verify(damaged("x.tar.gz", gzip(tar)));
    expect(r.code).toBe(1);
    expect(r.json.problems).toEqual(["dealgraph.db does not match its sha256 in the manifest (corrupted)"]);
  });

  test("an entry whose size is not the one backup.json declared is refused as it is read", async () => {
    const tar = gunzip(readFileSync(archive));
    const entries = tarEntries(tar);
    const contents = JSON.parse(tar.toString("utf8", entries[0].start + 512, entries[0].start + 512 + entries[0].size));
    contents.files.find((f: { path: string }) => f.path === "dealgraph.db").bytes -= 4096;
    const rebuilt = Buffer.concat([await tarOf([["backup.json", Buffer.from(JSON.stringify(contents))]]).then((t) => t.subarray(0, t.length - 1024)), tar.subarray(entries[1].start)]);
    const r = await verify(damaged("x.tar.gz", gzip(rebuilt)));
    expect(r.code).toBe(1);
    expect(r.json.problems[0]).toMatch(/^dealgraph\.db is \d+ bytes in the archive; its backup\.json says \d+$/);
  });

  test("a small archive that inflates past what its backup.json declares (a compression bomb) is cut off, not unpacked", async () => {
    // A valid little archive, then 64 MB of zeros after its end: they compress to almost nothing.
    const small = await tarOf([
      ["backup.json", Buffer.from(JSON.stringify({ format: "dealgraph-backup", version: 2, created_at: "2026-11-28T03:00:00.000Z", files: [{ path: "dealgraph.db", bytes: 1024 }] }))],
      ["dealgraph.db", Buffer.alloc(1024)],
    ]);
    const bomb = gzip(Buffer.concat([small.subarray(0, small.length - 1024), Buffer.alloc(64 * 1024 * 1024)]));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const r = await verify(damaged("bomb.tar.gz", bomb));
    expect(r.code).toBe(1);
    expect(r.json.problems[0]).toMatch(/unpacks to more than the 0\.0 MB its backup\.json declares/);
  });

  test("a blob the snapshot names but the archive lacks is named", async () => {
    // Rebuild the archive without the blob's entry (and its lines in backup.json and the manifest): checksums agree, the reference does not.
    const tar = gunzip(readFileSync(archive));
    const entries = tarEntries(tar);
    const blobEntry = `blobs/${deck!.sha256.slice(0, 2)}/${deck!.sha256}`;
    const json = (name: string) => {
      const e = entries.find((x) => x.name === name)!;
      return JSON.parse(tar.toString("utf8", e.start + 512, e.start + 512 + e.size));
    };
    const contents = json("backup.json");
    contents.files = contents.files.filter((f: { path: string }) => f.path !== blobEntry);
    const manifest = json("manifest.json");
    manifest.files = manifest.files.filter((f: { path: string }) => f.path !== blobEntry);
    const kept = entries.filter((e) => e.name !== blobEntry && e.name !== "manifest.json" && e.name !== "backup.json");
    const head = await tarOf([["backup.json", Buffer.from(JSON.stringify(contents))]]);
    const rebuilt = Buffer.concat([head.subarray(0, head.length - 1024), ...kept.map((e) => tar.subarray(e.start, e.end)), await tarOf([["manifest.json", Buffer.from(JSON.stringify(manifest))]])]);
    const r = await verify(damaged("x.tar.gz", gzip(rebuilt)));
    expect(r.code).toBe(1);
    expect(r.json.problems).toEqual([`the database names 1 file(s) the archive does not hold: ${deck!.sha256}`]);
  });

  test("a file that is not an archive, and one that does not exist", async () => {
    const notArchive = await verify(damaged("x.tar.gz", Buffer.from("hello, not an archive")));
    expect(notArchive.code).toBe(1);
    expect(notArchive.json.problems[0]).toMatch(/corrupted/);
    const missing = await cli(dir, "backup", "verify", join(dir, "nope.tar.gz"));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no such archive");
  });

  test("an archive that is not a Dealgraph backup (another tar.gz) is refused by name", async () => {
    const d = tempDataDir();
    cleanup.push(d);
    mkdirSync(join(d, "src"));
    writeFileSync(join(d, "src", "a.txt"), "a");
    Bun.spawnSync(["tar", "czf", join(d, "other.tar.gz"), "-C", d, "src"]);
    const r = await verify(join(d, "other.tar.gz"));
    expect(r.code).toBe(1);
    expect(r.json.problems[0]).toMatch(/unexpected entry "src\/"|not part of a Dealgraph backup/);
  });

  test("verify unpacks the snapshot into a temp folder outside the data dir, and leaves nothing behind", async () => {
    const scratch = tempDataDir();
    cleanup.push(scratch);
    const before = existsSync(join(dir, "tmp")) ? readdirSync(join(dir, "tmp")) : [];
    const { runCli } = await import("../../src/cli/index.ts");
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = scratch;
    try {
      const code = await runCli(["backup", "verify", archive, "--data-dir", dir], { out: () => {}, err: () => {}, env: {}, readStdin: async () => "" });
      expect(code).toBe(0);
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
    }
    expect(readdirSync(scratch)).toEqual([]);
    expect(existsSync(join(dir, "tmp")) ? readdirSync(join(dir, "tmp")) : []).toEqual(before);
  });
});

describe("an archive an earlier release wrote (format version 1: tar + gzip)", () => {
  const V1 = join(ROOT, "test/fixtures/backup-v1/dealgraph-20261128T030000Z.tar.gz");
  const facts = JSON.parse(readFileSync(join(ROOT, "test/fixtures/datadir-0022_reads_at_scale/facts.json"), "utf8"));

  test("backup verify reads it: checksums and integrity_check", async () => {
    const r = await cli(dir, "backup", "verify", V1, "--json");
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ ok: true, problems: [], created_at: "2026-11-28T03:00:00.000Z" });
  });

  test("restore brings back its data dir: the same keys, records and files", async () => {
    const target = join(tempDataDir(), "restored-v1");
    cleanup.push(target);
    const r = await cli(target, "restore", V1, "--json");
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ data_dir: target, server_key: "file", created_at: "2026-11-28T03:00:00.000Z" });
    const config = loadConfig({}, { dataDir: target });
    const { db } = openDataDir(config);
    const deps = createDeps({ db, config, log: silentLog });
    try {
      const app = createApp(deps);
      const get = (path: string) => app.handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${facts.keys.write}` } }));
      expect((await get("/api/v1/me")).status).toBe(200);
      expect((await get(`/api/v1/deals/${facts.deal_id}`)).status).toBe(200);
      expect((await get(`/api/v1/webhooks/${facts.webhook.id}`)).status).toBe(200);
      expect(createHash("sha256").update(readFileSync(blobPath(target, facts.deck_sha256))).digest("hex")).toBe(facts.deck_sha256);
    } finally {
      db.$client.close();
    }
  });

  test("a damaged one is still refused naming what is wrong", async () => {
    const d = tempDataDir();
    cleanup.push(d);
    const tar = Buffer.from(Bun.gunzipSync(readFileSync(V1)));
    tar[512 + 5000] ^= 0x01; // inside dealgraph.db, its first entry
    writeFileSync(join(d, "old.tar.gz"), Bun.gzipSync(tar));
    const r = await cli(dir, "backup", "verify", join(d, "old.tar.gz"), "--json");
    expect(r.code).toBe(1);
    expect(r.json.problems).toEqual(["dealgraph.db does not match its sha256 in the manifest (corrupted)"]);
  });
});

test("a database whose WAL cannot be checkpointed (a reader holds an older snapshot) is copied with VACUUM INTO instead, as of one moment", async () => {
  const d = tempDataDir();
  cleanup.push(d);
  const org = (await cli(d, "admin", "org", "create", "--name", "Long Reader", "--json")).json.org_id;
  const { Database } = await import("bun:sqlite");
  const reader = new Database(join(d, "dealgraph.db"));
  const writer = new Database(join(d, "dealgraph.db"));
  try {
    reader.exec("BEGIN");
    reader.query("SELECT count(*) FROM orgs").get(); // holds the snapshot before the next commit
    writer.exec("PRAGMA wal_autocheckpoint = 0");
    writer.query("UPDATE orgs SET name = 'Renamed' WHERE id = ?").run(org);
    const r = await cli(d, "backup", "--json");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("VACUUM INTO");
    const manifest = JSON.parse(Bun.spawnSync(["tar", "-xzOf", r.json.file, "manifest.json"]).stdout.toString());
    expect(manifest.snapshot).toEqual({ method: "vacuum-into" });
    const target = join(tempDataDir(), "restored");
    cleanup.push(target);
    expect((await cli(target, "restore", r.json.file)).code).toBe(0);
    const restored = new Database(join(target, "dealgraph.db"), { readonly: true });
    expect(restored.query<{ name: string }, []>("SELECT name FROM orgs").get()!.name).toBe("Renamed");
    restored.close();
  } finally {
    if (reader.inTransaction) reader.exec("COMMIT");
    reader.close();
    writer.close();
  }
}, 30_000);

test("--out FILE writes there (and refuses to overwrite an existing file)", async () => {
  const d = tempDataDir();
  cleanup.push(d);
  const out = join(d, "mine.tar.gz");
  const first = await cli(dir, "backup", "--out", out, "--json");
  expect(first.code, first.stderr).toBe(0);
  expect(first.json).toMatchObject({ file: out, bytes: statSync(out).size });
  expect(existsSync(`${out}.json`)).toBe(false); // records are kept for the data dir's own archives only
  const again = await cli(dir, "backup", "--out", out);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain("already exists");
});

test("a database whose pages are damaged: backup copies it as it is, and backup verify names integrity_check's finding (exit 1)", async () => {
  const d = tempDataDir();
  cleanup.push(d);
  expect((await cli(d, "admin", "org", "create", "--name", "Broken Pages", "--json")).code).toBe(0);
  const { Database } = await import("bun:sqlite");
  const db = new Database(join(d, "dealgraph.db"));
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const { rootpage } = db.query<{ rootpage: number }, []>("SELECT rootpage FROM sqlite_master WHERE name = 'orgs'").get()!;
  const pageSize = db.query<{ page_size: number }, []>("PRAGMA page_size").get()!.page_size;
  db.close();
  const { openSync, writeSync, closeSync } = await import("node:fs");
  const fd = openSync(join(d, "dealgraph.db"), "r+");
  writeSync(fd, Buffer.from([0x42]), 0, 1, (rootpage - 1) * pageSize); // not a b-tree page type
  closeSync(fd);
  const r = await cli(d, "backup", "--json");
  expect(r.code, r.stderr).toBe(0);
  const v = await cli(d, "backup", "verify", r.json.file, "--json");
  expect(v.code).toBe(1);
  expect(v.json.ok).toBe(false);
  expect(v.json.problems.join(" ")).toMatch(/fails integrity_check|malformed|cannot be opened/);
  expect(JSON.parse(readFileSync(`${r.json.file}.json`, "utf8"))).toMatchObject({ verified_at: null, problem: expect.stringMatching(/integrity_check|malformed|cannot be opened/) });
  // Restore refuses it too, touching nothing.
  const target = join(tempDataDir(), "never");
  cleanup.push(target.replace(/\/never$/, ""));
  expect((await cli(target, "restore", r.json.file)).code).toBe(1);
  expect(existsSync(target)).toBe(false);
});
