// What a founder-analysis request may say, checked the same way for REST and MCP callers: at
// least one of name, LinkedIn and GitHub; bounded lengths; LinkedIn and GitHub profile URLs only.
// Also the founder key of the org-wide dedupe: the normalised LinkedIn URL, else the GitHub URL,
// else the name with the company.
import { invalid, type ApiError } from "../../http/errors.ts";
import { nameKey } from "../../lib/names.ts";
import { normalizeLinkedin } from "../network/network.identity.ts";

export const LIMITS = { name: 200, company: 200, url: 2048 } as const;

export type FounderRequest = {
  name: string | null;
  company: string | null;
  /** `https://www.linkedin.com/in/<handle>` (lower-cased handle). */
  linkedinUrl: string | null;
  /** `linkedin.com/in/<handle>`: the form the network stores. */
  linkedinKey: string | null;
  /** `https://github.com/<login>` (lower-cased). */
  githubUrl: string | null;
  githubLogin: string | null;
  founderKey: string;
  /** `name:<name>|<company>` whenever a name is given: a request that adds a URL still finds the name-only analysis. */
  nameKey: string | null;
};

const LINKEDIN_HOST = /^(?:www\.|[a-z]{2,3}\.)?linkedin\.com$/i;
const LINKEDIN_PATH = /^\/in\/([A-Za-z0-9\-_.%]{2,100})\/?$/;
const GITHUB_HOST = /^(?:www\.)?github\.com$/i;
// GitHub's own rule for logins: alphanumerics and single hyphens, not at either end, 1-39 long.
const GITHUB_PATH = /^\/([A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38})\/?$/;

function text(body: Record<string, unknown>, field: string, max: number): string | null {
  const v = body[field];
  if (v === undefined || v === null) return null;
  if (typeof v !== "string") throw invalid(["body", field], "Input should be a valid string", "string_type");
  const s = v.trim().replace(/\s+/g, " ");
  if (!s) throw invalid(["body", field], "String should have at least 1 character", "string_too_short");
  if (s.length > max) throw invalid(["body", field], `String should have at most ${max} characters`, "string_too_long");
  return s;
}

function profileUrl(raw: string, field: string, host: RegExp, path: RegExp, example: string): RegExpExecArray {
  const bad = (): ApiError => invalid(["body", field], `Input should be a profile URL like ${example}`, "url_parsing");
  if (!URL.canParse(raw)) throw bad();
  const url = new URL(raw);
  if (url.protocol !== "https:" || url.username || url.password || url.port || !host.test(url.hostname)) throw bad();
  const m = path.exec(url.pathname);
  if (!m) throw bad();
  return m;
}

/** The checked request, or a 422 naming the field. */
export function parseFounderRequest(body: unknown): FounderRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw invalid(["body"], "Input should be a valid object", "model_type");
  const b = body as Record<string, unknown>;
  const name = text(b, "name", LIMITS.name);
  const company = text(b, "company", LIMITS.company);
  const linkedinRaw = text(b, "linkedin_url", LIMITS.url);
  const githubRaw = text(b, "github_url", LIMITS.url);
  if (!name && !linkedinRaw && !githubRaw) {
    throw invalid(["body", "name"], "Give at least one of name, linkedin_url and github_url", "missing");
  }
  let linkedinKey: string | null = null;
  if (linkedinRaw) {
    profileUrl(linkedinRaw, "linkedin_url", LINKEDIN_HOST, LINKEDIN_PATH, "https://www.linkedin.com/in/jane-doe");
    linkedinKey = normalizeLinkedin(linkedinRaw);
    if (!linkedinKey) throw invalid(["body", "linkedin_url"], "Input should be a profile URL like https://www.linkedin.com/in/jane-doe", "url_parsing");
  }
  let githubLogin: string | null = null;
  if (githubRaw) githubLogin = profileUrl(githubRaw, "github_url", GITHUB_HOST, GITHUB_PATH, "https://github.com/janedoe")[1].toLowerCase();
  const byName = name ? `name:${nameKey(name)}|${company ? companyKey(company) : ""}` : null;
  const founderKey = linkedinKey ? `li:${linkedinKey}` : githubLogin ? `gh:${githubLogin}` : byName!;
  return {
    name,
    company,
    linkedinUrl: linkedinKey ? `https://www.${linkedinKey}` : null,
    linkedinKey,
    githubUrl: githubLogin ? `https://github.com/${githubLogin}` : null,
    githubLogin,
    founderKey,
    nameKey: byName,
  };
}

/**
 * The key of a founder analysis's company (part of its dedupe key, so it never changes): letters
 * and digits only ("Acme, Inc." = "acmeinc"). Identity matching uses companyIdentity.
 */
export const companyKey = (company: string) => company.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "");

/**
 * Legal forms that say nothing about which company it is, dropped from the end of a name. Not
 * "labs", "group", "holdings", "ai" or "technologies": those are often the name itself ("OpenAI
 * Labs" is not OpenAI, "Ledgerly Labs" may not be Ledgerly), and a false match merges two
 * companies' people while a missed one only leaves a match unconfirmed.
 */
const LEGAL_SUFFIXES = new Set([
  "inc", "incorporated", "ltd", "limited", "llc", "llp", "lp", "plc", "corp", "corporation", "co", "company",
  "gmbh", "ag", "kg", "ug", "sa", "sas", "sarl", "srl", "spa", "bv", "nv", "oy", "ab", "pty", "pvt", "pte",
]);

/**
 * A company name as an identity: case, accents, spaces and punctuation ignored ("Open AI" =
 * "OpenAI"), and legal forms at its end dropped ("Ledgerly, Inc." = "Ledgerly GmbH" = "Ledgerly";
 * "Smith & Co." = "Smith"). Two names are the same company only when their keys are equal: a
 * prefix is another company ("Meta" is not "Metabase"). Letters of any script count.
 */
export function companyIdentity(company: string): string {
  const words = company
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  while (words.length > 1 && LEGAL_SUFFIXES.has(words[words.length - 1])) words.pop();
  return words.join("");
}
