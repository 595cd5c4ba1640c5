// How identifiers are normalised so the same person is recognised however they were written.

const FREE_MAIL = new Set([
  "gmail.com", "googlemail.com", "yahoo.com", "yahoo.co.uk", "hotmail.com", "outlook.com", "live.com", "msn.com",
  "icloud.com", "me.com", "mac.com", "aol.com", "proton.me", "protonmail.com", "gmx.com", "gmx.de", "web.de",
  "mail.com", "yandex.com", "yandex.ru", "zoho.com", "fastmail.com", "hey.com", "qq.com", "163.com",
]);

const EMAIL = /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$/;

export function normalizeEmail(raw: string | null | undefined): string | null {
  const email = raw?.trim().replace(/^mailto:/i, "").toLowerCase();
  return email && EMAIL.test(email) ? email : null;
}

/** The employer's domain an address says something about; null for free-mail providers. */
export function employerDomain(email: string): string | null {
  const domain = email.slice(email.lastIndexOf("@") + 1);
  return FREE_MAIL.has(domain) ? null : domain;
}

/** `https://www.Acme.com/about` -> `acme.com`; null when it is not a domain. */
export function normalizeDomain(raw: string | null | undefined): string | null {
  let d = raw?.trim().toLowerCase();
  if (!d) return null;
  d = d.replace(/^[a-z]+:\/\//, "").replace(/[/?#].*$/, "").replace(/:\d+$/, "").replace(/^www\./, "").replace(/\.$/, "");
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(d) ? d : null;
}

/** Any form of a LinkedIn profile URL -> `linkedin.com/in/<slug>`; null when it is not one. */
export function normalizeLinkedin(raw: string | null | undefined): string | null {
  const m = /^(?:https?:\/\/)?(?:[a-z]{2,3}\.|www\.)?linkedin\.com\/(in|pub)\/([^/?#\s]+)/i.exec(raw?.trim() ?? "");
  return m ? `linkedin.com/in/${decodeURIComponent(m[2]).toLowerCase()}` : null;
}

/** Display form of a stored LinkedIn id. */
export const linkedinUrl = (normalized: string | null) => (normalized ? `https://www.${normalized}` : null);

/** Case- and space-insensitive name key: "  Jane   DOE " -> "jane doe". */
export function nameKey(raw: string | null | undefined): string | null {
  const n = raw?.normalize("NFKC").trim().replace(/\s+/g, " ").toLowerCase();
  return n ? n : null;
}

const NO_REPLY = /^(no-?reply|do-?not-?reply|donotreply|notifications?|mailer-daemon|postmaster|bounces?|alerts?|news(letter)?|updates|automated|system)([+._-].*)?@/i;

/** Automated senders are not relationships. */
export const isAutomatedAddress = (email: string) => NO_REPLY.test(email);

/** Participant limit: a thread or meeting with more people than this is not a relationship signal. */
export const MAX_PARTICIPANTS = 20;
