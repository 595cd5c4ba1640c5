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
// separated part (`no_reply`, `calendar-notification`, `jira.notifications`).
const AUTOMATED_WORD =
  /(?:^|[._-])(?:no[._-]?reply|do[._-]?not[._-]?reply|notifications?|notify|notifier|invites?|invitations?|alerts?|news(?:letters?)?|updates|automated|auto[._-]?(?:reply|confirm|responder)|system)(?:[._-]|$)/;

// Mail-system role addresses (RFC 2142 mailboxes, MTA and list-manager addresses): a whole local
// part (`postmaster`, `post_master`, `mailer-daemon`, `abuse`), a list manager's suffix
// (`team-admin`, `list-owner`, `list-request`, `list-bounces`, `bounces+123`) or prefix (`owner-list`).
const ROLE_LOCAL = /^(?:post[._-]?master|host[._-]?master|web[._-]?master|abuse|mailer[._-]?daemon|mail[._-]?daemon|daemon|listserv|majordomo|mailman|root|nobody|bounces?)$/;
const ROLE_AFFIX = /(?:[._-](?:admin|owner|request|bounces?|daemon|postmaster)$)|(?:^owner-)/;

// Google's calendars that are not people: group (shared) calendars, holiday and contact-birthday
// calendars, imported calendars; rooms and resources.
const GROUP_CALENDAR = /(?:^|\.)(?:group\.calendar|group\.v\.calendar|import\.calendar)\.google\.com$/;
const RESOURCE_CALENDAR = /(?:^|\.)resource\.calendar\.google\.com$/;
// Mailing-list hosts: Google Groups, groups.io, Yahoo Groups, and `lists.` / `list.` / `listserv.` hosts.
const LIST_DOMAIN = /(?:^|\.)(?:googlegroups\.com|groups\.io|yahoogroups\.com|freelists\.org)$|^(?:lists?|listserv|mailman)\./;

/** Why an address is no person: what it is (the import summary counts each). */
export type NonPersonReason = "automated" | "role_address" | "mailing_list" | "group_calendar" | "room_or_resource";

/**
 * What an address is when it is not a person (a no-reply style sender, a mail system's role
 * address, a mailing list, a group calendar, a room), by its local part (any `+tag` ignored) and
 * its domain; null for an address that may be a person's.
 */
export function nonPersonReason(email: string): NonPersonReason | null {
  const at = email.lastIndexOf("@");
  const domain = at < 0 ? "" : email.slice(at + 1).toLowerCase();
  if (GROUP_CALENDAR.test(domain)) return "group_calendar";
  if (RESOURCE_CALENDAR.test(domain)) return "room_or_resource";
  if (LIST_DOMAIN.test(domain)) return "mailing_list";
  const full = email.slice(0, at < 0 ? email.length : at).toLowerCase();
  const plus = full.indexOf("+");
  const local = plus < 0 ? full : full.slice(0, plus);
  if (ROLE_LOCAL.test(local) || ROLE_AFFIX.test(local)) return "role_address";
  if (AUTOMATED_WORD.test(local)) return "automated";
  return null;
}

/** Automated senders, role addresses, lists and calendars are not relationships. */
export const isAutomatedAddress = (email: string) => nonPersonReason(email) !== null;

/** Participant limit: a thread or meeting with more people than this is not a relationship signal. */
export const MAX_PARTICIPANTS = 20;
