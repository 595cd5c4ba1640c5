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


const LINKEDIN_PROFILE = /^(?:https?:\/\/)?(?:[a-z]{1,3}\.)?linkedin\.com\/(?:in|pub)\/([^/?#\s]+)/i;

export type LinkedinRead = { id: string } | { malformed: string };

/**
 * A LinkedIn profile URL (`www.`, `m.`, country subdomains; `/in/` or `/pub/`) read as
 * `linkedin.com/in/<slug>`; `malformed` when it is one whose slug cannot be decoded (a broken
 * percent-encoding); null when it is no LinkedIn profile URL at all.
 */
export function readLinkedin(raw: string | null | undefined): LinkedinRead | null {
  const m = LINKEDIN_PROFILE.exec(raw?.trim() ?? "");
  if (!m) return null;
  try {
    return { id: `linkedin.com/in/${decodeURIComponent(m[1]).toLowerCase()}` };
  } catch {
    return { malformed: `the LinkedIn profile name ${JSON.stringify(m[1].slice(0, 80))} has a broken percent-encoding` };
  }
}

/** Any form of a LinkedIn profile URL -> `linkedin.com/in/<slug>`; null when it is not a readable one. */
export function normalizeLinkedin(raw: string | null | undefined): string | null {
  const read = readLinkedin(raw);
  return read && "id" in read ? read.id : null;
}

/** Display form of a stored LinkedIn id. */
export const linkedinUrl = (normalized: string | null) => (normalized ? `https://www.${normalized}` : null);

// The local part of an automated sender: one of these words, alone or as a dot/dash/underscore
// separated part (`no_reply`, `calendar-notification`, `jira.notifications`, `bounces+123`).
const AUTOMATED_WORD =
  /(?:^|[._-])(?:no[._-]?reply|do[._-]?not[._-]?reply|notifications?|notify|notifier|mailer[._-]?daemon|postmaster|bounces?|invites?|invitations?|alerts?|news(?:letters?)?|updates|automated|auto[._-]?(?:reply|confirm|responder)|system|daemon)(?:[._-]|$)/;

/** Automated senders (by the local part of the address, any tag after `+` ignored) are not relationships. */
export function isAutomatedAddress(email: string): boolean {
  const at = email.lastIndexOf("@");
  const local = email.slice(0, at < 0 ? email.length : at).toLowerCase();
  const plus = local.indexOf("+");
  return AUTOMATED_WORD.test(plus < 0 ? local : local.slice(0, plus));
}

/** Participant limit: a thread or meeting with more people than this is not a relationship signal. */
export const MAX_PARTICIPANTS = 20;
