// Outbound mail over the firm's relay (DEALGRAPH_SMTP_URL, from DEALGRAPH_MAIL_FROM), with
// nodemailer: implicit TLS for smtps://, STARTTLS whenever offered and required unless the relay
// is on loopback, certificates verified (DEALGRAPH_SMTP_CA_FILE for a private CA). Without the
// settings nothing is sent and callers say plainly that outbound mail is not configured. The relay
// URL may hold a password: it is never logged or shown.
import { readFileSync } from "node:fs";
import { perDeps, type Deps } from "../../deps.ts";
import { isLoopbackHost } from "../../lib/safe-fetch.ts";

export const NOT_CONFIGURED = "outbound mail is not configured (set DEALGRAPH_SMTP_URL and DEALGRAPH_MAIL_FROM)";

export type OutboundMessage = { to: string; subject: string; text: string };

/** Sending failed: the reason, without the relay's credentials. */
export class OutboundMailError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OutboundMailError";
  }
}

export const outboundMail = perDeps((deps: Deps) => {
  const smtp = deps.config.smtp;
  let transport: Promise<import("nodemailer").Transporter> | null = null;

  function open() {
    return (transport ??= (async () => {
      const nodemailer = await import("nodemailer");
      const url = new URL(smtp!.url);
      const secure = url.protocol === "smtps:";
      const loopback = isLoopbackHost(url.hostname);
      return nodemailer.createTransport({
        host: url.hostname.replace(/^\[|\]$/g, ""),
        port: url.port ? Number(url.port) : secure ? 465 : 587,
        secure,
        requireTLS: !secure && !loopback,
        auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
        tls: { rejectUnauthorized: true, minVersion: "TLSv1.2", ...(smtp!.caFile ? { ca: readFileSync(smtp!.caFile, "utf8") } : {}) },
        connectionTimeout: 20_000,
        greetingTimeout: 20_000,
        socketTimeout: 60_000,
        logger: false,
      });
    })());
  }

  /** Sends one plain-text message; throws OutboundMailError (the reason, no credentials). */
  async function send(message: OutboundMessage): Promise<{ messageId: string }> {
    if (!smtp) throw new OutboundMailError(NOT_CONFIGURED);
    try {
      const info = await (await open()).sendMail({ from: smtp.from, to: message.to, subject: message.subject, text: message.text, headers: { "Auto-Submitted": "auto-generated" } });
      return { messageId: String(info.messageId ?? "") };
    } catch (error) {
      const e = error as { code?: string; responseCode?: number; message?: string };
      const host = new URL(smtp.url).host;
      const why = e.responseCode ? `the relay answered ${e.responseCode}` : e.code ? e.code : "it failed";
      throw new OutboundMailError(`could not send mail through ${host}: ${why}${e.code === "EAUTH" ? " (the relay refused the login in DEALGRAPH_SMTP_URL)" : ""}`);
    }
  }

  return { configured: smtp !== null, send };
});
