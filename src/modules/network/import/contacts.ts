// Address books into the graph: vCard cards (src/lib/vcard.ts) and CSV rows (contacts-csv.ts) as
// contact cards, then persons with the user's touch-less relationship to each. A card with an
// address lands on the person of that address (its other addresses become that person's too); a
// card with only a LinkedIn profile (most rows of a LinkedIn export) is a person keyed by that
// profile, and becomes the same person as a mail identity once a card gives both.
import type { Deps } from "../../../deps.ts";
import { isPreferred, parseVcards, vcardParts, vcardText, VcardFileError, type Vcard } from "../../../lib/vcard.ts";
import type { GraphWriter } from "../network.graph.ts";
import { normalizeEmail, readLinkedin } from "../network.identity.ts";
import { parseContactsCsv } from "./contacts-csv.ts";
import type { ContactCard, ContactsRead } from "./contact-card.ts";
import { ImportError, skip, type ImportStats } from "./errors.ts";

/**
 * A vCard's facts. An EMAIL that is not an address is left out when the card has another that is
 * (Android writes a second EMAIL holding a name, say): the card keeps its valid addresses. A card
 * whose every EMAIL is not an address, or with a broken LinkedIn URL, is an error at that line.
 */
function vcardToCard(card: Vcard): ContactCard | { line: number; reason: string } {
  const all = (name: string) => card.props.filter((p) => p.name === name);
  const one = (name: string) => card.props.find((p) => p.name === name);
  const given = all("EMAIL").filter((p) => (vcardText(p) ?? "") !== "");
  const emailProps = given.filter((p) => normalizeEmail(vcardText(p)));
  if (given.length > 0 && emailProps.length === 0) {
    const p = given[0];
    return { line: p.line, reason: `EMAIL ${JSON.stringify(vcardText(p)!.slice(0, 120))} is not an email address` };
  }
  const ordered = [...emailProps.filter(isPreferred), ...emailProps.filter((p) => !isPreferred(p))];
  const emails = [...new Set(ordered.map((p) => normalizeEmail(vcardText(p))!))];
  let name = vcardText(one("FN"));
  const n = one("N");
  if (!name && n) {
    const [family, given, additional, prefix, suffix] = vcardParts(n);
    name = [prefix, given, additional, family, suffix].filter(Boolean).join(" ") || null;
  }
  const org = one("ORG") ? vcardParts(one("ORG")!)[0] || null : null;
  let linkedin: string | null = null;
  for (const p of [...all("URL"), ...all("X-SOCIALPROFILE")]) {
    const read = readLinkedin(vcardText(p)) ?? readLinkedin(p.params.get("X-USER"));
    if (read && "malformed" in read) return { line: p.line, reason: `${p.name}: ${read.malformed}` };
    if (read && !linkedin) linkedin = read.id;
  }
  const adr = all("ADR");
  const adrProp = adr.find(isPreferred) ?? adr[0];
  let location: string | null = null;
  if (adrProp) {
    const [, , , locality, region, , country] = vcardParts(adrProp);
    location = [locality, region, country].filter(Boolean).join(", ") || null;
  }
  return { line: card.line, emails, name, title: vcardText(one("TITLE")), company: org, linkedinUrl: linkedin, location };
}

/** The cards of a contacts file (vCard or CSV), and the ones that could not be read. */
export function readContacts(bytes: Buffer, file: string, format: "vcard" | "csv"): ContactsRead {
  const text = bytes.toString("utf8");
  if (format === "csv") return parseContactsCsv(text, file);
  let parsed;
  try {
    parsed = parseVcards(text);
  } catch (error) {
    if (!(error instanceof VcardFileError)) throw error;
    throw new ImportError(file, error.line, error.reason);
  }
  const out: ContactsRead = { cards: [], errors: [...parsed.errors] };
  for (const card of parsed.cards) {
    const read = vcardToCard(card);
    if ("reason" in read) out.errors.push(read);
    else out.cards.push(read);
  }
  out.errors.sort((a, b) => a.line - b.line);
  return out;
}

/** Writes each card: the person (by address, else by LinkedIn profile) and the user's relationship. */
export function writeContacts(deps: Deps, writer: GraphWriter, cards: ContactCard[], stats: ImportStats, file: string, tick: () => void): void {
  const known = deps.db.$client.query<{ person_id: string }, [string, string]>("SELECT person_id FROM person_emails WHERE org_id = ? AND email = ?");
  const addEmail = deps.db.$client.query("INSERT OR IGNORE INTO person_emails (org_id, email, person_id) VALUES (?, ?, ?)");
  for (const card of cards) {
    stats.read++;
    const where = `${file}:${card.line}`;
    const emails = card.emails.filter((e) => !writer.isOwn(e));
    const facts = { name: card.name, title: card.title, company: card.company, linkedinUrl: card.linkedinUrl, location: card.location };
    if (card.emails.length > 0 && emails.length === 0) skip(stats, "own_address", where);
    else if (emails.length === 0) {
      // No address: a person by LinkedIn profile (a LinkedIn connection), or nothing to key a person by.
      if (card.linkedinUrl && writer.contactByProfile(facts)) stats.imported++;
      else skip(stats, "no_email", where);
    } else {
      // The card's facts go to the person already known by one of its addresses, if any; its other
      // addresses become that person's too (unless another person has them already).
      const primary = emails.find((e) => known.get(writer.orgId, e)) ?? emails[0];
      const id = writer.contact({ email: primary, ...facts });
      if (!id) skip(stats, "no_email", where);
      else {
        for (const e of emails) if (e !== primary) addEmail.run(writer.orgId, e, id);
        stats.imported++;
      }
    }
    tick();
  }
}
