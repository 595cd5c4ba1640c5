// Real mail and calendar servers for tests and benchmarks, each on a free loopback port with its
// own configuration in a temp dir (no system service is touched):
//   - Debian's Dovecot (`/usr/sbin/dovecot`, dovecot-imapd): a passwd-file user database, Maildir
//     storage in the temp dir (written directly by `deliver` for speed), INBOX plus Sent, Junk,
//     Trash and Drafts with their SPECIAL-USE flags, plaintext IMAP and (with `tls`) IMAPS and
//     STARTTLS under a throwaway CA made with openssl.
//   - Radicale (`radicale`): htpasswd users, filesystem storage in the temp dir.
//   (The SMTP receiver the outbound mail tests send to is in mail-smtp-receiver.ts.)
// When a binary is missing the start functions return null and the caller skips with a message;
// under CI=1 (where .ci/run installs them) a missing binary is an error.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";

export const DOVECOT_BIN = "/usr/sbin/dovecot";
const DOVEADM_BIN = "/usr/bin/doveadm";

/** A free TCP port on loopback (bound and released: the caller binds it next). */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function which(bin: string): string | null {
  if (bin.startsWith("/")) return existsSync(bin) ? bin : null;
  const r = spawnSync("sh", ["-c", `command -v ${bin}`], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** Null with a reason printed when `bin` is missing (a skip), or throws under CI=1. */
function binaryOrSkip(bin: string, what: string): string | null {
  const found = which(bin);
  if (found) return found;
  const message = `${what} (${bin}) is not installed: its tests are skipped (Debian: apt-get install ${what})`;
  if (process.env.CI === "1") throw new Error(`${message}; under CI=1 it must be installed (.ci/run)`);
  console.warn(message);
  return null;
}

export const hasDovecot = () => which(DOVECOT_BIN) !== null;
export const hasRadicale = () => which("radicale") !== null;

async function waitForPort(port: number, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await portOpen(port))) {
    if (Date.now() > until) throw new Error(`nothing listens on 127.0.0.1:${port} after ${ms} ms`);
    await Bun.sleep(50);
  }
}

/** A throwaway CA and a server certificate for 127.0.0.1 and localhost (PEM), made once per process. */
export type TestPki = { caPem: string; certPem: string; keyPem: string };
let pki: TestPki | null = null;

export function testPki(): TestPki {
  if (pki) return pki;
  // Made in a temp dir that is gone once the PEMs are read: nothing is left behind.
  const dir = mkdtempSync(join(tmpdir(), "dealgraph-pki-"));
  try {
    const run = (...args: string[]) => {
      const r = spawnSync("openssl", args, { cwd: dir, encoding: "utf8" });
      if (r.status !== 0) throw new Error(`openssl ${args[0]} failed: ${r.stderr}`);
    };
    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "30", "-subj", "/CN=Dealgraph Test CA");
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost");
    writeFileSync(join(dir, "san.ext"), "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n");
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.pem", "-days", "30", "-extfile", "san.ext");
    const read = (f: string) => readFileSync(join(dir, f), "utf8");
    pki = { caPem: read("ca.pem"), certPem: read("server.pem"), keyPem: read("server.key") };
    return pki;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The test CA as a PEM file in `dir` (for --ca-file); its path. */
export function writeCaFile(dir: string): string {
  const path = join(dir, "test-ca.pem");
  writeFileSync(path, testPki().caPem);
  return path;
}

export type MailUser = { login: string; password: string };

export type Dovecot = {
  host: "127.0.0.1";
  /** Plaintext IMAP (STARTTLS offered when started with tls). */
  port: number;
  /** IMAPS (implicit TLS); null without tls. */
  tlsPort: number | null;
  dir: string;
  /** Writes messages straight into a user's Maildir folder (INBOX, Sent, Junk...); Dovecot gives them UIDs when next asked. */
  deliver(login: string, folder: string, messages: string[]): void;
  /** Changes a user's password on the server (Dovecot re-reads its passwd-file at most once a second: this waits that out). */
  setPassword(login: string, password: string): Promise<void>;
  /** Sets a folder's UIDVALIDITY (as a server does when it rebuilds its index). */
  setUidValidity(login: string, folder: string, value: number): void;
  stop(): Promise<void>;
  /** Starts it again on the same ports after stop(). */
  start(): Promise<void>;
  /** Stops it and removes its temp dir. */
  close(): Promise<void>;
};

let deliveries = 0;

/**
 * Logins with OAuth 2.0 tokens (SASL XOAUTH2 and OAUTHBEARER) through Dovecot's `oauth2` passdb,
 * which asks `introspectionUrl` about each token (POST token=...); `usernameFormat` is how the
 * login and the introspected address are compared (default %Lu, the whole address); only the
 * logins in `usernameFilter`, when given, may use it (test/helpers/mail-oauth.ts).
 */
export type DovecotOauth2 = {
  introspectionUrl: string;
  usernameFormat?: string;
  usernameFilter?: string[];
  /** The OAuth mechanisms offered (default both). */
  mechanisms?: ("xoauth2" | "oauthbearer")[];
  /** Offer only those: no PLAIN or LOGIN (passwords refused), as a provider that takes tokens only. */
  only?: boolean;
};

/** Starts Dovecot on free loopback ports; null when it is not installed (skip). */
export async function startDovecot(opts: { users: MailUser[]; tls?: boolean; oauth2?: DovecotOauth2 }): Promise<Dovecot | null> {
  if (!binaryOrSkip(DOVECOT_BIN, "dovecot-imapd")) return null;
  // As root, Dovecot's master switches to its own users (dovenull for logins, dovecot for the mail
  // here: it refuses uid 0 for mail); as anyone else, every process runs as that user.
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), "dealgraph-dovecot-"));
  // Dovecot's login processes run as dovenull and must reach the sockets under base_dir.
  chmodSync(dir, 0o755);
  for (const sub of ["run", "state", "mail"]) mkdirSync(join(dir, sub), { mode: 0o755 });
  const passwords = new Map(opts.users.map((u) => [u.login, u.password]));
  const writePasswd = () => writeFileSync(join(dir, "passwd"), [...passwords].map(([login, password]) => `${login}:{PLAIN}${password}::::::\n`).join(""));
  writePasswd();
  const port = await freePort();
  const tlsPort = opts.tls ? await freePort() : null;
  const tls = opts.tls ? testPki() : null;
  const owner = asRoot ? systemUser("dovecot") : { uid: process.getuid!(), gid: process.getgid!() };
  chownSync(join(dir, "mail"), owner.uid, owner.gid);
  const me = userInfo().username;
  const myGroup = groupName(owner.gid);
  const unprivileged = asRoot ? "" : `default_internal_user = ${me}\ndefault_internal_group = ${myGroup}\ndefault_login_user = ${me}\n`;
  if (tls) {
    writeFileSync(join(dir, "server.pem"), tls.certPem);
    writeFileSync(join(dir, "server.key"), tls.keyPem, { mode: 0o600 });
  }
  const conf = `
base_dir = ${dir}/run
state_dir = ${dir}/state
instance_name = dealgraph-test-${port}
protocols = imap
listen = 127.0.0.1
log_path = ${dir}/dovecot.log
${tls ? `ssl = yes\nssl_cert = <${dir}/server.pem\nssl_key = <${dir}/server.key\nssl_min_protocol = TLSv1.2` : "ssl = no"}
${unprivileged}disable_plaintext_auth = no
auth_mechanisms = ${authMechanisms(opts.oauth2)}
# A refused password answers at once (the default waits 2 s): tests refuse many.
auth_failure_delay = 0
# Dovecot refuses uid 0 for mail: the Maildir belongs to its own system user (deliver() chowns).
mail_uid = ${owner.uid}
mail_gid = ${owner.gid}
first_valid_uid = 1
first_valid_gid = 1
mail_location = maildir:${dir}/mail/%u
${opts.oauth2 ? oauth2Passdb(dir, opts.oauth2) : ""}passdb {
  driver = passwd-file
  args = scheme=PLAIN ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${owner.uid} gid=${owner.gid} home=${dir}/mail/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = ${tlsPort ?? 0}
    ssl = yes
  }
  chroot =
}
service anvil {
  chroot =
  # No auth penalty (logins slowed for seconds after a refused one): tests refuse many.
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
namespace inbox {
  inbox = yes
  separator = /
  mailbox Sent {
    special_use = \\Sent
    auto = subscribe
  }
  mailbox Junk {
    special_use = \\Junk
    auto = subscribe
  }
  mailbox Trash {
    special_use = \\Trash
    auto = subscribe
  }
  mailbox Drafts {
    special_use = \\Drafts
    auto = subscribe
  }
  mailbox Archive {
    auto = subscribe
  }
}
`;
  const confFile = join(dir, "dovecot.conf");
  writeFileSync(confFile, conf);
  const check = spawnSync(DOVECOT_BIN, ["-c", confFile, "-n"], { encoding: "utf8" });
  if (check.status !== 0) throw new Error(`dovecot -n refused the test configuration: ${check.stderr}`);

  const start = async () => {
    // The master forks into the background: its exit status says whether it started (no pipes
    // kept: the daemon would hold them open).
    const code = await new Promise<number | null>((resolve) => spawn(DOVECOT_BIN, ["-c", confFile], { stdio: "ignore" }).once("exit", resolve));
    if (code !== 0) throw new Error(`dovecot did not start (exit ${code}): ${readLog(dir)}`);
    await waitForPort(port);
    if (tlsPort) await waitForPort(tlsPort);
  };
  const stop = async () => {
    await new Promise((resolve) => spawn(DOVEADM_BIN, ["-c", confFile, "stop"], { stdio: "ignore" }).once("exit", resolve));
    // The master exits once its children have; wait until the port is free again.
    const until = Date.now() + 10_000;
    while (Date.now() < until && (await portOpen(port))) await Bun.sleep(50);
  };
  await start();

  const maildir = (login: string, folder: string) => join(dir, "mail", login, folder === "INBOX" ? "" : `.${folder}`);
  return {
    host: "127.0.0.1",
    port,
    tlsPort,
    dir,
    deliver(login, folder, messages) {
      const base = maildir(login, folder);
      for (const d of [join(dir, "mail", login), base, ...["cur", "new", "tmp"].map((sub) => join(base, sub))]) {
        mkdirSync(d, { recursive: true });
        chownSync(d, owner.uid, owner.gid);
      }
      const stamp = Math.floor(Date.now() / 1000);
      for (const m of messages) {
        deliveries++;
        const file = join(base, "new", `${stamp}.M${deliveries}P${process.pid}.dealgraph-test`);
        writeFileSync(file, m.replace(/\r?\n/g, "\r\n"));
        chownSync(file, owner.uid, owner.gid);
        // A Maildir message arrived when its file was written (IMAP's INTERNALDATE, what SEARCH SINCE reads): as its Date says.
        const date = Date.parse(/^Date: (.+)$/im.exec(m)?.[1] ?? "");
        if (!Number.isNaN(date) && date < Date.now()) utimesSync(file, date / 1000, date / 1000);
      }
    },
    async setPassword(login, password) {
      passwords.set(login, password);
      writePasswd();
      await Bun.sleep(1_100);
    },
    setUidValidity(login, folder, value) {
      const r = spawnSync(DOVEADM_BIN, ["-c", confFile, "mailbox", "update", "-u", login, "--uid-validity", String(value), folder], { encoding: "utf8" });
      if (r.status !== 0) throw new Error(`doveadm mailbox update failed: ${r.stderr}`);
    },
    stop,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The oauth2 passdb block (its settings file written beside the configuration). */
function oauth2Passdb(dir: string, o: DovecotOauth2): string {
  writeFileSync(
    join(dir, "oauth2.conf.ext"),
    `introspection_mode = post\nintrospection_url = ${o.introspectionUrl}\nforce_introspection = yes\nusername_attribute = email\nactive_attribute = active\nactive_value = true\n${o.usernameFormat ? `username_format = ${o.usernameFormat}\n` : ""}`,
  );
  const filter = o.usernameFilter ? `  username_filter = ${o.usernameFilter.join(" ")}\n` : "";
  return `passdb {\n  driver = oauth2\n  mechanisms = ${(o.mechanisms ?? ["xoauth2", "oauthbearer"]).join(" ")}\n  args = ${dir}/oauth2.conf.ext\n${filter}}\n`;
}

/** The SASL mechanisms Dovecot offers: passwords (PLAIN, LOGIN) unless only OAuth, and the OAuth ones asked for. */
function authMechanisms(o: DovecotOauth2 | undefined): string {
  const oauth = o ? (o.mechanisms ?? ["xoauth2", "oauthbearer"]) : [];
  return [...(o?.only ? [] : ["plain", "login"]), ...oauth].join(" ");
}

/** A group's name, from /etc/group. */
function groupName(gid: number): string {
  const line = readFileSync("/etc/group", "utf8").split("\n").find((l) => l.split(":")[2] === String(gid));
  if (!line) throw new Error(`no group with id ${gid}`);
  return line.split(":")[0];
}

/** A system user's ids, from /etc/passwd. */
function systemUser(name: string): { uid: number; gid: number } {
  const line = readFileSync("/etc/passwd", "utf8").split("\n").find((l) => l.startsWith(`${name}:`));
  if (!line) throw new Error(`no system user ${name} (the dovecot-core package makes it)`);
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

function readLog(dir: string): string {
  try {
    return readFileSync(join(dir, "dovecot.log"), "utf8").slice(-2000);
  } catch {
    return "";
  }
}

export async function portOpen(port: number): Promise<boolean> {
  return await new Promise<boolean>((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export type Radicale = {
  url: string;
  port: number;
  dir: string;
  /** Makes a calendar collection for a user (MKCALENDAR); its URL. */
  makeCalendar(user: MailUser, name: string): Promise<string>;
  /** Puts an iCalendar object into a collection (PUT); its URL. */
  put(user: MailUser, calendarUrl: string, name: string, ics: string): Promise<string>;
  remove(user: MailUser, objectUrl: string): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
};

/** Starts Radicale on a free loopback port with plain htpasswd users; null when it is not installed (skip). */
export async function startRadicale(opts: { users: MailUser[] }): Promise<Radicale | null> {
  const bin = binaryOrSkip("radicale", "radicale");
  if (!bin) return null;
  const dir = mkdtempSync(join(tmpdir(), "dealgraph-radicale-"));
  const port = await freePort();
  writeFileSync(join(dir, "users"), opts.users.map((u) => `${u.login}:${u.password}\n`).join(""));
  writeFileSync(
    join(dir, "config"),
    `[server]\nhosts = 127.0.0.1:${port}\n[auth]\ntype = htpasswd\nhtpasswd_filename = ${dir}/users\nhtpasswd_encryption = plain\ndelay = 0\n[storage]\nfilesystem_folder = ${dir}/collections\n[rights]\ntype = owner_only\n[logging]\nlevel = warning\n[web]\ntype = none\n`,
  );
  let child: ReturnType<typeof spawn> | null = null;
  const start = async () => {
    child = spawn(bin, ["--config", join(dir, "config")], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr?.on("data", (d) => (stderr = (stderr + d).slice(-2000)));
    const exited = new Promise<never>((_, reject) => child!.once("exit", (code) => reject(new Error(`radicale exited (${code}): ${stderr}`))));
    await Promise.race([waitForPort(port), exited]);
  };
  const stop = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    await new Promise((resolve) => {
      c.once("exit", resolve);
      c.kill("SIGTERM");
    });
  };
  await start();
  const url = `http://127.0.0.1:${port}`;
  const auth = (u: MailUser) => `Basic ${Buffer.from(`${u.login}:${u.password}`).toString("base64")}`;
  return {
    url,
    port,
    dir,
    async makeCalendar(user, name) {
      const at = `${url}/${user.login}/${name}/`;
      const r = await fetch(at, { method: "MKCALENDAR", headers: { authorization: auth(user) } });
      if (r.status !== 201) throw new Error(`MKCALENDAR ${at}: ${r.status} ${await r.text()}`);
      return at;
    },
    async put(user, calendarUrl, name, ics) {
      const at = `${calendarUrl}${name}.ics`;
      const r = await fetch(at, { method: "PUT", headers: { authorization: auth(user), "content-type": "text/calendar; charset=utf-8" }, body: ics });
      if (r.status !== 201 && r.status !== 204) throw new Error(`PUT ${at}: ${r.status} ${await r.text()}`);
      return at;
    },
    async remove(user, objectUrl) {
      const r = await fetch(objectUrl, { method: "DELETE", headers: { authorization: auth(user) } });
      if (r.status !== 200 && r.status !== 204) throw new Error(`DELETE ${objectUrl}: ${r.status}`);
    },
    stop,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
