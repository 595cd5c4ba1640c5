// Contacts CSV (CONTRACT.md "Import formats"): email (required), name, title, company,
// linkedin_url, location. Read with the shared CSV reader (src/lib/csv.ts); a missing column or a
// bad row fails the file, reported at the first bad line with how many more there are.
import { ImportError as CsvImportError, readCsvTable } from "../../../lib/csv.ts";
import { normalizeEmail, readLinkedin } from "../network.identity.ts";
import { failOnProblems, ImportError, type LineProblem } from "./errors.ts";
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
  const bad: LineProblem[] = [];
  const cards: ContactCard[] = [];
  for (const row of rows) {
    const v = (c: string) => row.values.get(c) || null;
    const email = normalizeEmail(v("email"));
    if (!email) {
      bad.push({ line: row.line, message: v("email") ? `email ${JSON.stringify(v("email"))} is not an email address` : "email is empty" });
      continue;
    }
    const linkedinRaw = v("linkedin_url");
    const linkedin = linkedinRaw ? readLinkedin(linkedinRaw) : null;
    if (linkedinRaw && (!linkedin || "malformed" in linkedin)) {
      const why = linkedin && "malformed" in linkedin ? linkedin.malformed : "it is not a LinkedIn profile URL";
      bad.push({ line: row.line, message: `linkedin_url ${JSON.stringify(linkedinRaw.slice(0, 120))}: ${why}` });
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
  failOnProblems(file, bad);
  return cards;
}

