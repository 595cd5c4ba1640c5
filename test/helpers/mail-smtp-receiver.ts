// A real SMTP receiver on loopback (`smtp-server` from npm) that keeps what it is sent, parsed with
// postal-mime: the outbound mail tests' relay (digests, verification requests).
import { freePort, type MailUser } from "./mail-servers.ts";

export type ReceivedMail = { from: string; to: string[]; raw: string; subject: string; text: string };

export type SmtpReceiver = {
  port: number;
  /** `smtp://127.0.0.1:PORT` (with a login when the receiver asks for one). */
  url: string;
  received: ReceivedMail[];
  /** Resolves when `count` messages have arrived. */
  waitFor(count: number, ms?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
};

/** A real SMTP receiver (`smtp-server` from npm) on loopback that keeps what it is sent. */
export async function startSmtpReceiver(opts: { login?: MailUser } = {}): Promise<SmtpReceiver> {
  const { SMTPServer } = await import("smtp-server");
  const PostalMime = (await import("postal-mime")).default;
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: opts.login ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
    authOptional: !opts.login,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, cb) {
      if (opts.login && auth.username === opts.login.login && auth.password === opts.login.password) cb(null, { user: auth.username });
      else cb(new Error("Invalid username or password"));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const parsed = await PostalMime.parse(raw);
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject: parsed.subject ?? "",
          text: parsed.text ?? "",
        });
        cb();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const auth = opts.login ? `${encodeURIComponent(opts.login.login)}:${encodeURIComponent(opts.login.password)}@` : "";
  return {
    port,
    url: `smtp://${auth}127.0.0.1:${port}`,
    received,
    async waitFor(count, ms = 10_000) {
      const until = Date.now() + ms;
      while (received.length < count) {
        if (Date.now() > until) throw new Error(`the SMTP receiver got ${received.length} messages, not ${count}, in ${ms} ms`);
        await Bun.sleep(20);
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
