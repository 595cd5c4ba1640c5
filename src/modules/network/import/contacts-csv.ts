// Contacts CSV (CONTRACT.md "Import formats"): email (required), name, title, company,
// linkedin_url, location. Read with the shared CSV reader (src/lib/csv.ts); a missing column or a
// bad row fails the file, reported at the first bad line with how many more there are.
import { ImportError as CsvImportError, readCsvTable } from "../../../lib/csv.ts";
import { normalizeEmail, normalizeLinkedin } from "../network.identity.ts";
import { ImportError } from "./errors.ts";
import type { ContactCard } from "./vcard.ts";

const SPEC = { required: ["email"], optional: ["name", "title", "company", "linkedin_url", "location"] } as const;

export function parseContactsCsv(content: string, file: string): ContactCard[] {
  let rows;
  try {
    rows = readCsvTable(content, file, SPEC);
  } catch (error) {
    if (!(error instanceof CsvImportError)) throw error;
    const [first, ...rest] = error.problems;
    throw new ImportError(file, first?.line ?? null, `${first?.message ?? error.message}${rest.length ? ` (and ${rest.length} more problem${rest.length === 1 ? "" : "s"})` : ""}`);
  }
  const bad: { line: number; message: string }[] = [];
  const cards: ContactCard[] = [];
  for (const row of rows) {
    const v = (c: string) => row.values.get(c) || null;
    const email = normalizeEmail(v("email"));
    if (!email) {
      bad.push({ line: row.line, message: v("email") ? `email ${JSON.stringify(v("email"))} is not an email address` : "email is empty" });
      continue;
    }
    const linkedinRaw = v("linkedin_url");
    if (linkedinRaw && !normalizeLinkedin(linkedinRaw)) {
      bad.push({ line: row.line, message: `linkedin_url ${JSON.stringify(linkedinRaw)} is not a LinkedIn profile URL` });
      continue;
    }
    cards.push({
      line: row.line,
      emails: [email],
      name: v("name"),
      title: v("title"),
      company: v("company"),
      linkedinUrl: linkedinRaw,
      location: v("location"),
    });
  }
  if (bad.length) {
    const more = bad.length > 1 ? ` (and ${bad.length - 1} more bad row${bad.length === 2 ? "" : "s"}: line${bad.length === 2 ? "" : "s"} ${bad.slice(1, 11).map((b) => b.line).join(", ")}${bad.length > 11 ? ", ..." : ""})` : "";
    throw new ImportError(file, bad[0].line, `${bad[0].message}${more}`);
  }
  return cards;
}

