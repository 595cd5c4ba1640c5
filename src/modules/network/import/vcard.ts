// vCard 3 and 4 files (RFC 2426, RFC 6350): one contact card per BEGIN:VCARD ... END:VCARD, with
// what a person record holds: FN (else N), every EMAIL (preferred first), TITLE, ORG, a LinkedIn
// URL (URL or X-SOCIALPROFILE), and ADR's locality, region and country as the location.
import { normalizeEmail, normalizeLinkedin } from "../network.identity.ts";
import { ImportError } from "./errors.ts";
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

function toCard(props: Property[], line: number): ContactCard {
  const one = (name: string) => props.find((p) => p.name === name);
  const emailProps = props.filter((p) => p.name === "EMAIL");
  const ordered = [...emailProps.filter(isPreferred), ...emailProps.filter((p) => !isPreferred(p))];
  const emails = [...new Set(ordered.map((p) => normalizeEmail(unescapeText(p.value))).filter((e): e is string => e !== null))];
  let name = text(one("FN"));
  if (!name && one("N")) {
    const [family, given, additional, prefix, suffix] = components(one("N")!.value);
    name = [prefix, given, additional, family, suffix].filter(Boolean).join(" ") || null;
  }
  const org = one("ORG") ? components(one("ORG")!.value)[0] || null : null;
  const linkedin = props
    .filter((p) => p.name === "URL" || p.name === "X-SOCIALPROFILE")
    .map((p) => normalizeLinkedin(unescapeText(p.value)) ?? normalizeLinkedin(p.params.get("X-USER")))
    .find((u) => u !== null);
  let location: string | null = null;
  const adr = props.filter((p) => p.name === "ADR");
  const adrProp = adr.find(isPreferred) ?? adr[0];
  if (adrProp) {
    const [, , , locality, region, , country] = components(adrProp.value);
    location = [locality, region, country].filter(Boolean).join(", ") || null;
  }
  return { line, emails, name, title: text(one("TITLE")), company: org, linkedinUrl: linkedin ?? null, location };
}

/** Parses vCard text. Throws ImportError (file:line) for a file that is not vCard or a card left open. */
export function parseVcards(content: string, file: string): ContactCard[] {
  const lines = unfold(content);
  if (lines.length === 0 || lines[0].text.trim().toUpperCase() !== "BEGIN:VCARD") {
    throw new ImportError(file, lines[0]?.line ?? 1, "not a vCard file: it must start with BEGIN:VCARD");
  }
  const cards: ContactCard[] = [];
  let open: { line: number; props: Property[] } | null = null;
  for (const { text: raw, line } of lines) {
    const upper = raw.trim().toUpperCase();
    if (upper === "BEGIN:VCARD") {
      if (open) throw new ImportError(file, open.line, "the card (BEGIN:VCARD) has no END:VCARD before the next card");
      open = { line, props: [] };
    } else if (upper === "END:VCARD") {
      if (!open) throw new ImportError(file, line, "END:VCARD without a BEGIN:VCARD");
      cards.push(toCard(open.props, open.line));
      open = null;
    } else if (open) {
      const p = parseProperty(raw, line);
      if (p) open.props.push(p);
    }
    // Lines between cards are ignored, as address books do.
  }
  if (open) throw new ImportError(file, open.line, "the card (BEGIN:VCARD) has no END:VCARD");
  return cards;
}

