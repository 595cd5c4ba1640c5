// Contacts CSV files, recognised by their header row:
// - the contract's own columns (CONTRACT.md "Import formats"): email (required), name, title,
//   company, linkedin_url, location;
// - LinkedIn's connections export (Connections.csv: a "Notes:" preamble, then First Name, Last
//   Name, URL, Email Address, Company, Position, Connected On; most rows carry no email);
// - Google Contacts exports (Google CSV, old "Given Name ... E-mail 1 - Type" and current
//   "First Name ... E-mail 1 - Label" columns);
// - Outlook exports (First Name, Last Name, E-mail Address, Company, Job Title, Business City...).
// Read with the shared CSV reader (src/lib/csv.ts). A row that cannot be read (its field count
// differs from the header's, a bad email or LinkedIn URL) is reported at its line and the other
// rows are imported; a file whose header is none of these fails naming what it has.
import { ImportError as CsvImportError, parseCsv, type CsvRecord } from "../../../lib/csv.ts";
import { normalizeEmail, readLinkedin } from "../network.identity.ts";
import type { ContactCard, ContactsRead } from "./contact-card.ts";
import { ImportError } from "./errors.ts";

export type CsvDialect = "contract" | "linkedin" | "google" | "outlook";

type Row = (column: string) => string;

/** How each dialect says what a card holds; `emails` in preference order. */
type RawCard = Omit<ContactCard, "line" | "linkedinUrl"> & { linkedinRaw: string | null };
const DIALECTS: Record<CsvDialect, { is: (cols: Set<string>) => boolean; card: (v: Row) => RawCard }> = {
  contract: {
    is: (c) => c.has("email"),
    card: (v) => ({ emails: [v("email")], name: v("name") || null, title: v("title") || null, company: v("company") || null, linkedinRaw: v("linkedin_url") || null, location: v("location") || null }),
  },
  linkedin: {
    is: (c) => c.has("first name") && c.has("last name") && c.has("url") && c.has("connected on"),
    card: (v) => ({
      emails: [v("email address")],
      name: joinName(v("first name"), v("last name")),
      title: v("position") || null,
      company: v("company") || null,
      linkedinRaw: v("url") || null,
      location: null,
    }),
  },
  google: {
    is: (c) => c.has("e-mail 1 - value"),
    card: (v) => {
      const websites = [1, 2, 3, 4, 5].map((n) => v(`website ${n} - value`)).filter(Boolean);
      return {
        emails: [1, 2, 3, 4, 5].flatMap((n) => v(`e-mail ${n} - value`).split(":::")).map((e) => e.trim()),
        name: v("name") || joinName(v("given name") || v("first name"), v("additional name") || v("middle name"), v("family name") || v("last name")),
        title: v("organization 1 - title") || v("organization title") || null,
        company: v("organization 1 - name") || v("organization name") || null,
        linkedinRaw: websites.find((w) => readLinkedin(w) !== null) ?? null,
        location: joinPlace(v("address 1 - city"), v("address 1 - region"), v("address 1 - country")),
      };
    },
  },
  outlook: {
    is: (c) => c.has("e-mail address") && c.has("first name"),
    card: (v) => ({
      emails: [v("e-mail address"), v("e-mail 2 address"), v("e-mail 3 address")],
      name: joinName(v("first name"), v("middle name"), v("last name")),
      title: v("job title") || null,
      company: v("company") || null,
      linkedinRaw: [v("web page"), v("personal web page")].find((w) => readLinkedin(w) !== null) ?? null,
      location: joinPlace(v("business city"), v("business state"), v("business country/region") || v("business country")) ?? joinPlace(v("home city"), v("home state"), v("home country/region") || v("home country")),
    }),
  },
};

function joinName(...parts: string[]): string | null {
  return parts.filter(Boolean).join(" ").trim() || null;
}
function joinPlace(...parts: string[]): string | null {
  return parts.filter(Boolean).join(", ") || null;
}

const headerOf = (r: CsvRecord) => r.fields.map((f) => f.trim().toLowerCase());

/** The dialect of a header row, or null. */
export function csvDialect(header: string[]): CsvDialect | null {
  const cols = new Set(header);
  for (const d of ["contract", "linkedin", "google", "outlook"] as const) if (DIALECTS[d].is(cols)) return d;
  return null;
}

/** LinkedIn puts a few lines of notes before its header: the header is the first row any dialect knows (within the first 10). */
function findHeader(records: CsvRecord[]): { at: number; dialect: CsvDialect } | null {
  for (let i = 0; i < Math.min(records.length, 10); i++) {
    const dialect = csvDialect(headerOf(records[i]));
    if (dialect) return { at: i, dialect };
  }
  return null;
}

export function parseContactsCsv(content: string, file: string): ContactsRead & { dialect: CsvDialect } {
  let records: CsvRecord[];
  try {
    records = parseCsv(content, file);
  } catch (error) {
    if (!(error instanceof CsvImportError)) throw error;
    const first = error.problems[0];
    throw new ImportError(file, first?.line ?? null, first?.message ?? error.message);
  }
  if (records.length === 0) throw new ImportError(file, null, "the file is empty (a header row is required)");
  const found = findHeader(records);
  if (!found) {
    const names = headerOf(records[0]).filter(Boolean);
    throw new ImportError(
      file,
      records[0].line,
      `missing required column email (the header has: ${names.join(", ") || "nothing"}); a LinkedIn, Google Contacts or Outlook export is recognised by its own header`,
    );
  }
  const header = headerOf(records[found.at]);
  const index = new Map<string, number>();
  header.forEach((name, i) => {
    if (name && !index.has(name)) index.set(name, i);
  });
  const dialect = DIALECTS[found.dialect];
  const out: ContactsRead & { dialect: CsvDialect } = { cards: [], errors: [], dialect: found.dialect };
  for (const r of records.slice(found.at + 1)) {
    if (r.fields.length !== header.length && !(r.fields.length > header.length && r.fields.slice(header.length).every((f) => f === ""))) {
      out.errors.push({ line: r.line, reason: `${r.fields.length} field${r.fields.length === 1 ? "" : "s"}, the header has ${header.length}` });
      continue;
    }
    const v: Row = (c) => {
      const i = index.get(c);
      return i === undefined ? "" : (r.fields[i] ?? "").trim();
    };
    const raw = dialect.card(v);
    const emailValues = raw.emails.filter((e) => e !== "");
    const emails: string[] = [];
    const bad = emailValues.find((e) => !normalizeEmail(e));
    if (bad !== undefined) {
      out.errors.push({ line: r.line, reason: `email ${JSON.stringify(bad.slice(0, 120))} is not an email address` });
      continue;
    }
    for (const e of emailValues) if (!emails.includes(normalizeEmail(e)!)) emails.push(normalizeEmail(e)!);
    let linkedinUrl: string | null = null;
    if (raw.linkedinRaw) {
      const read = readLinkedin(raw.linkedinRaw);
      if (!read || "malformed" in read) {
        const why = read && "malformed" in read ? read.malformed : "it is not a LinkedIn profile URL";
        out.errors.push({ line: r.line, reason: `${found.dialect === "contract" ? "linkedin_url" : "URL"} ${JSON.stringify(raw.linkedinRaw.slice(0, 120))}: ${why}` });
        continue;
      }
      linkedinUrl = raw.linkedinRaw;
    }
    if (found.dialect === "contract" && emails.length === 0) {
      out.errors.push({ line: r.line, reason: "email is empty" });
      continue;
    }
    out.cards.push({ line: r.line, emails, name: raw.name, title: raw.title, company: raw.company, linkedinUrl, location: raw.location });
  }
  return out;
}
