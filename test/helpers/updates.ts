// A founder's update mail as RFC 5322 text (plain, or plain and HTML alternatives), for the updates tests.
export function eml(o: { from: string; subject: string; date: string; id: string; body: string; html?: string }): string {
  const head = [`From: ${o.from}`, "To: Alice Archer <alice@acme.vc>", `Subject: ${o.subject}`, `Date: ${o.date}`, `Message-ID: ${o.id}`, "MIME-Version: 1.0"];
  if (!o.html) return [...head, 'Content-Type: text/plain; charset="UTF-8"', "", o.body].join("\r\n");
  const b = "b0undary";
  return [...head, `Content-Type: multipart/alternative; boundary="${b}"`, "", `--${b}`, 'Content-Type: text/plain; charset="UTF-8"', "", o.body, `--${b}`, 'Content-Type: text/html; charset="UTF-8"', "", o.html, `--${b}--`, ""].join("\r\n");
}
