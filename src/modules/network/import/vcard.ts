// vCard 3 and 4 files (RFC 2426, RFC 6350): one contact card per BEGIN:VCARD ... END:VCARD, with
// what a person record holds: FN (else N), every EMAIL (preferred first), TITLE, ORG, a LinkedIn
// URL (URL or X-SOCIALPROFILE), and ADR's locality, region and country as the location.
import { normalizeEmail, readLinkedin } from "../network.identity.ts";
import { failOnProblems, ImportError, type LineProblem } from "./errors.ts";
import { parseProperty, unfold, unescapeText, type Property } from "./ics.ts";

export type ContactCard = {
  line: number;
  /** Valid addresses, the preferred one first. */
  emails: string[];
  name: string | null;
  title: string | null;
  company: string | null;
  linkedinUrl: string | null;
  location: string | null;
};

/** Components of a structured value (`a;b\;c;d`), unescaped. */
function components(value: string): string[] {
  const parts: string[] = [];
  let cur = "";
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === "\\" && i + 1 < value.length) {
      cur += c + value[++i];
    } else if (c === ";") {
      parts.push(cur);
      cur = "";
    } else cur += c;
  }
  parts.push(cur);
  return parts.map((p) => unescapeText(p).trim());
}

const text = (p: Property | undefined) => (p ? unescapeText(p.value).trim() || null : null);

function isPreferred(p: Property): boolean {
  const type = (p.params.get("TYPE") ?? "").toLowerCase();
  return p.params.get("PREF") === "1" || type.split(",").includes("pref");
}

/** The card's facts; an EMAIL that is not an address or a broken LinkedIn URL is a problem at its line (as in CSV). */
function toCard(props: Property[], line: number, problems: LineProblem[]): ContactCard {
  const one = (name: string) => props.find((p) => p.name === name);
  // An empty EMAIL is no address (the card may have none); a non-empty one must be an address.
  const emailProps = props.filter((p) => p.name === "EMAIL" && unescapeText(p.value).trim() !== "");
  for (const p of emailProps) {
    if (!normalizeEmail(unescapeText(p.value))) problems.push({ line: p.line, message: `EMAIL ${JSON.stringify(unescapeText(p.value).trim().slice(0, 120))} is not an email address` });
  }
  const ordered = [...emailProps.filter(isPreferred), ...emailProps.filter((p) => !isPreferred(p))];
  const emails = [...new Set(ordered.map((p) => normalizeEmail(unescapeText(p.value))).filter((e): e is string => e !== null))];
  let name = text(one("FN"));
  if (!name && one("N")) {
    const [family, given, additional, prefix, suffix] = components(one("N")!.value);
    name = [prefix, given, additional, family, suffix].filter(Boolean).join(" ") || null;
  }
  const org = one("ORG") ? components(one("ORG")!.value)[0] || null : null;
  let linkedin: string | null = null;
  for (const p of props.filter((p) => p.name === "URL" || p.name === "X-SOCIALPROFILE")) {
    const read = readLinkedin(unescapeText(p.value)) ?? readLinkedin(p.params.get("X-USER"));
    if (read && "malformed" in read) problems.push({ line: p.line, message: `${p.name}: ${read.malformed}` });
    else if (read && !linkedin) linkedin = read.id;
  }
  let location: string | null = null;
  const adr = props.filter((p) => p.name === "ADR");
  const adrProp = adr.find(isPreferred) ?? adr[0];
  if (adrProp) {
    const [, , , locality, region, , country] = components(adrProp.value);
    location = [locality, region, country].filter(Boolean).join(", ") || null;
  }
  return { line, emails, name, title: text(one("TITLE")), company: org, linkedinUrl: linkedin, location };
}

/**
 * Parses vCard text. Throws ImportError (file:line) for a file that is not vCard, a card left
 * open, or bad values (an EMAIL that is not an address, a broken LinkedIn URL): the first bad
 * line, and how many more there are.
 */
export function parseVcards(content: string, file: string): ContactCard[] {
  const lines = unfold(content);
  if (lines.length === 0 || lines[0].text.trim().toUpperCase() !== "BEGIN:VCARD") {
    throw new ImportError(file, lines[0]?.line ?? 1, "not a vCard file: it must start with BEGIN:VCARD");
  }
  const cards: ContactCard[] = [];
  const problems: LineProblem[] = [];
  let open: { line: number; props: Property[] } | null = null;
  for (const { text: raw, line } of lines) {
    const upper = raw.trim().toUpperCase();
    if (upper === "BEGIN:VCARD") {
      if (open) throw new ImportError(file, open.line, "the card (BEGIN:VCARD) has no END:VCARD before the next card");
      open = { line, props: [] };
    } else if (upper === "END:VCARD") {
      if (!open) throw new ImportError(file, line, "END:VCARD without a BEGIN:VCARD");
      cards.push(toCard(open.props, open.line, problems));
      open = null;
    } else if (open) {
      const p = parseProperty(raw, line);
      if (p) open.props.push(p);
    }
    // Lines between cards are ignored, as address books do.
  }
  if (open) throw new ImportError(file, open.line, "the card (BEGIN:VCARD) has no END:VCARD");
  failOnProblems(file, problems, "line");
  return cards;
}

