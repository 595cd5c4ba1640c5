// What the firm really has about a founder, gathered stage by stage for the engines: the persons
// of the network confirmed as them (by LinkedIn URL, else by name at the given company: its email
// domain or the contact's company), who in the firm knows them and how warmly (the network
// service's pooled paths), deals whose team lists them or that are their company (with the deal
// analysis' section scores), sentences of documents that name them (the FTS5 index), and their
// GitHub profile. Namesakes that nothing ties to the founder, or that are at another company, are
// listed as such and never merged: a name alone does not make two people one.
import { perDeps, type Deps } from "../../deps.ts";
import type { Principal } from "../identity/auth.macro.ts";
import type { DealEvidence, FounderEvidence, MatchedPerson, Mention, Namesake, SourceRef, WarmPath } from "../../engines/founder-engine.ts";
import { normalizeDomain } from "../../lib/hosts.ts";
import { nameKey } from "../../lib/names.ts";
import { linkedinUrl, normalizeLinkedin } from "../network/network.identity.ts";
import { networkService } from "../network/network.service.ts";
import { companyIdentity } from "./founders.input.ts";
import { readGithub } from "./founders.github.ts";
import type { FounderRow, FounderRunInput } from "./founders.service.ts";

type PersonRow = { id: string; display_name: string | null; title: string | null; company: string | null; domain: string | null; linkedin_url: string | null };
type DealRow = {
  id: string;
  company_name: string | null;
  domain: string | null;
  score: number | null;
  analysis: string | null;
  team_title: string | null;
  team_linkedin: string | null;
  via: "team" | "company";
};
/** A company the founder is known to be at: the one given, or a LinkedIn-matched contact's. */
type Employer = { name: string | null; domain: string | null };
type HitRow = { source_id: string; page: number; title: string; body: string };

const MAX_PERSONS = 5;
const MAX_MENTIONS = 20;
const QUOTE_CHARS = 300;

export type Stage = "resolve" | "enrich" | "network" | "documents";

export const founderEvidence = perDeps((deps: Deps) => {
  const sqlite = deps.db.$client;
  const PERSON = "SELECT id, display_name, title, company, domain, linkedin_url FROM persons";
  const byLinkedin = sqlite.query<PersonRow, [string, string]>(`${PERSON} WHERE org_id = ? AND linkedin_url = ? ORDER BY id LIMIT ${MAX_PERSONS}`);
  const byName = sqlite.query<PersonRow, [string, string]>(`${PERSON} WHERE org_id = ? AND name_key = ? ORDER BY id LIMIT 50`);
  const domainOfDeal = sqlite.query<{ domain: string }, [string, string]>(
    "SELECT domain FROM deals WHERE org_id = ? AND lower(company_name) = ? AND domain IS NOT NULL ORDER BY updated_at DESC LIMIT 1",
  );
  const domainOfPeople = sqlite.query<{ domain: string }, [string, string]>(
    `SELECT domain FROM persons WHERE org_id = ? AND lower(company) = ? AND domain IS NOT NULL GROUP BY domain ORDER BY COUNT(*) DESC, domain LIMIT 1`,
  );
  // Every team listing of the org's analysed deals, newest deal first, compared in JS: SQLite's
  // lower() folds ASCII only, so "ÉLODIE" never equalled the key of "Élodie" in SQL. Only the
  // listing is read here; a matching deal's row (with its analysis) is read after.
  const teamListings = sqlite.query<{ id: string; name: string | null; title: string | null; linkedin: string | null }, [string]>(
    `SELECT d.id, json_extract(t.value, '$.name') AS name, json_extract(t.value, '$.title') AS title, json_extract(t.value, '$.linkedin_url') AS linkedin
     FROM deals d, json_each(d.facts, '$.team') t
     WHERE d.org_id = ? AND d.facts IS NOT NULL
     ORDER BY d.updated_at DESC, d.id`,
  );
  const dealOfListing = sqlite.query<DealRow, { id: string; title: string | null; linkedin: string | null }>(
    "SELECT id, company_name, domain, score, analysis, $title AS team_title, $linkedin AS team_linkedin, 'team' AS via FROM deals WHERE id = $id",
  );
  const dealsOfCompany = sqlite.query<DealRow, [string]>(
    `SELECT id, company_name, domain, score, analysis, NULL AS team_title, NULL AS team_linkedin, 'company' AS via FROM deals WHERE org_id = ? AND company_name IS NOT NULL ORDER BY updated_at DESC`,
  );
  const pagesNaming = sqlite.query<HitRow, { org: string; q: string }>(
    `SELECT source_id, page, title, body FROM search_index
     WHERE search_index MATCH $q AND org_id = $org AND source_type = 'document' ORDER BY rank LIMIT 50`,
  );

  const persons = (rows: PersonRow[], matchedBy: MatchedPerson["matchedBy"]): MatchedPerson[] =>
    rows.map((r) => ({ id: r.id, name: r.display_name, title: r.title, company: r.company, domain: r.domain, linkedinUrl: linkedinUrl(r.linkedin_url), matchedBy }));

  function companyDomain(orgId: string, company: string | null): string | null {
    if (!company) return null;
    const c = company.toLowerCase();
    return domainOfDeal.get(orgId, c)?.domain ?? domainOfPeople.get(orgId, c)?.domain ?? null;
  }

  /**
   * Persons named like the founder, sorted out: confirmed when at the given company (its domain,
   * the contact's company, or a domain named after it); at another company, or with another
   * LinkedIn profile, they are someone else; with nothing to go by they stay unconfirmed.
   */
  function personsByName(orgId: string, name: string, employer: Employer | null, linkedinKey: string | null) {
    const key = nameKey(name);
    if (!key) return { confirmed: [] as MatchedPerson[], namesakes: [] as Namesake[] };
    const confirmed: PersonRow[] = [];
    const namesakes: Namesake[] = [];
    for (const r of byName.all(orgId, key)) {
      const tie = employer ? sameCompany(employer, { name: r.company, domain: r.domain }) : null;
      const where = [r.title, r.company, r.domain].filter(Boolean).join(", ");
      const namesake = (reason: Namesake["reason"]) => namesakes.push({ source: "person", id: r.id, name: r.display_name ?? name, where, reason });
      if (linkedinKey && r.linkedin_url && r.linkedin_url !== linkedinKey) namesake("other_linkedin");
      else if (tie === true) confirmed.push(r);
      else namesake(tie === false ? "other_company" : "unconfirmed");
    }
    const byDomain = (r: PersonRow) => (employer?.domain && r.domain === employer.domain ? "name_and_domain" : "name_and_company");
    return {
      confirmed: confirmed.slice(0, MAX_PERSONS).flatMap((r) => persons([r], byDomain(r))),
      namesakes: namesakes.slice(0, MAX_PERSONS),
    };
  }

  /** Pooled paths (the run's user plus teammates who share), through the network service. */
  function pathsTo(orgId: string, userId: string, matched: MatchedPerson[]) {
    const principal = { orgId, userId } as Principal; // whoKnows pools by org and user only
    const paths: WarmPath[] = [];
    let anyCard = false;
    for (const p of matched) {
      const res = networkService(deps).whoKnows(principal, { person: p.id, limit: 10 });
      if (res.unavailable_reason === "no_relationship_data") anyCard = true;
      for (const path of res.paths) {
        const s = path.signals;
        paths.push({
          personId: p.id,
          owner: path.path_owner ?? "a teammate",
          strength: path.strength_score,
          warmth: path.warmth,
          relationship: path.relationship,
          daysSinceLastTouch: s?.days_since_last_touch ?? null,
          emails: (s?.emails_sent ?? 0) + (s?.emails_received ?? 0),
          meetings: s?.meetings ?? 0,
        });
      }
    }
    const unavailable = paths.length ? null : anyCard ? ("no_relationship_data" as const) : ("contact_not_found" as const);
    return { paths, unavailable };
  }

  /**
   * Deals whose team lists the founder (by LinkedIn, or by name at a company they are known to be
   * at; other listings of the name are namesakes), then the deals of their company.
   */
  function deals(orgId: string, name: string | null, linkedinKey: string | null, company: string | null, employers: Employer[]) {
    const rows: DealRow[] = [];
    const namesakes: Namesake[] = [];
    if (name || linkedinKey) {
      const key = name ? nameKey(name) : null;
      const listings = teamListings.all(orgId).filter((l) => (key !== null && nameKey(l.name) === key) || (linkedinKey !== null && normalizeLinkedin(l.linkedin) === linkedinKey));
      for (const l of listings.slice(0, 10)) {
        const r = dealOfListing.get({ id: l.id, title: l.title, linkedin: l.linkedin })!;
        const listed = normalizeLinkedin(r.team_linkedin);
        const tie = employers.map((e) => sameCompany(e, { name: r.company_name, domain: r.domain }));
        const reason: Namesake["reason"] | null =
          linkedinKey && listed === linkedinKey ? null
          : linkedinKey && listed ? "other_linkedin"
          : tie.includes(true) ? null
          : employers.length ? "other_company"
          : "unconfirmed";
        if (reason === null) rows.push(r);
        else namesakes.push({ source: "deal", id: r.id, name: name ?? "the founder", where: `listed as ${r.team_title ?? "a team member"} in the team of ${r.company_name ?? "a deal"}`, reason });
      }
    }
    if (company) {
      const key = companyIdentity(company);
      if (key) rows.push(...dealsOfCompany.all(orgId).filter((d) => d.company_name && companyIdentity(d.company_name) === key).slice(0, 5));
    }
    const out = new Map<string, DealEvidence>();
    for (const r of rows) {
      if (out.has(r.id)) continue; // a team listing says more than a company match: it comes first
      const analysis = r.analysis ? (JSON.parse(r.analysis) as { sections?: { key: string; score: number | null; summary: string | null }[] }) : null;
      out.set(r.id, {
        id: r.id,
        companyName: r.company_name,
        matchedBy: r.via,
        teamTitle: r.team_title,
        score: r.score,
        sections: (analysis?.sections ?? []).map((s) => ({ key: s.key, score: s.score ?? null, summary: s.summary ?? null })),
      });
    }
    return { list: [...out.values()], namesakes: namesakes.filter((n) => !out.has(n.id)).slice(0, MAX_PERSONS) };
  }

  /** Sentences of documents that name the founder (and the sentence after, when it goes on about them). */
  function mentions(orgId: string, name: string): Mention[] {
    const words = name.trim().split(/\s+/);
    if (words.length < 2) return []; // a first name alone would quote strangers
    const phrase = `"${name.replace(/"/g, '""')}"`;
    const needle = name.toLowerCase().replace(/\s+/g, " ");
    // The sentence after goes with it when it goes on about them ("She ...", "Doe ...").
    const goesOn = new RegExp(`^(?:He|She|They|His|Her|Their|${words.map(escapeRe).join("|")})\\b`);
    const out: Mention[] = [];
    for (const hit of pagesNaming.all({ org: orgId, q: phrase })) {
      const sentences = hit.body.replace(/\s+/g, " ").split(/(?<=[.!?])\s+(?=[A-Z0-9"“])/);
      sentences.forEach((s, i) => {
        if (!s.toLowerCase().includes(needle)) return;
        let quote = s;
        const next = sentences[i + 1];
        if (next && goesOn.test(next)) quote += ` ${next}`;
        out.push({ documentId: hit.source_id, filename: hit.title, page: hit.page, quote: quote.length > QUOTE_CHARS ? `${quote.slice(0, QUOTE_CHARS - 1)}…` : quote });
      });
      if (out.length >= MAX_MENTIONS) break;
    }
    return out.slice(0, MAX_MENTIONS);
  }

  /** Gathers everything, reporting each stage. Never fails on missing evidence: that is what the engines judge. */
  async function gather(row: FounderRow, userId: string, input: FounderRunInput, stage: (s: Stage) => void): Promise<FounderEvidence> {
    const orgId = row.org_id;
    stage("resolve");
    const domain = companyDomain(orgId, row.company);
    let matched = input.linkedin_key ? persons(byLinkedin.all(orgId, input.linkedin_key), "linkedin") : [];

    stage("enrich");
    const github = input.github_login ? await readGithub(deps, input.github_login) : null;

    stage("network");
    const resolvedName = row.name ?? matched.find((p) => p.name)?.name ?? github?.profile?.name ?? null;
    const given: Employer | null = row.company ? { name: row.company, domain } : null;
    const namesakes: Namesake[] = [];
    if (!matched.length && resolvedName) {
      const found = personsByName(orgId, resolvedName, given, input.linkedin_key);
      matched = found.confirmed;
      namesakes.push(...found.namesakes);
    }
    const { paths, unavailable } = matched.length ? pathsTo(orgId, userId, matched) : { paths: [], unavailable: "contact_not_found" as const };

    stage("documents");
    const employers = [...(given ? [given] : []), ...matched.filter((p) => p.matchedBy === "linkedin" && (p.company || p.domain)).map((p) => ({ name: p.company, domain: p.domain }))];
    const { list: dealList, namesakes: dealNamesakes } = deals(orgId, resolvedName, input.linkedin_key, row.company, employers);
    namesakes.push(...dealNamesakes);
    const mentionList = resolvedName ? mentions(orgId, resolvedName) : [];

    const sources: SourceRef[] = [];
    for (const p of matched) sources.push({ type: "person", id: p.id, title: p.name ?? p.linkedinUrl ?? "Contact" });
    for (const d of dealList) sources.push({ type: "deal", id: d.id, title: d.companyName ?? "Deal" });
    const pagesOf = new Map<string, { filename: string; pages: number[] }>();
    for (const m of mentionList) {
      const entry = pagesOf.get(m.documentId) ?? { filename: m.filename, pages: [] };
      if (!entry.pages.includes(m.page)) entry.pages.push(m.page);
      pagesOf.set(m.documentId, entry);
    }
    for (const [id, d] of pagesOf) sources.push({ type: "document", id, title: `${d.filename} (page${d.pages.length > 1 ? "s" : ""} ${d.pages.join(", ")})` });
    if (github?.profile) sources.push({ type: "github", id: github.profile.login, title: `github.com/${github.profile.login}` });

    return {
      founder: { name: row.name, linkedinUrl: row.linkedin_url, githubUrl: row.github_url, company: row.company },
      resolvedName,
      persons: matched,
      namesakes,
      paths,
      pathsUnavailable: unavailable,
      deals: dealList,
      mentions: mentionList,
      github: github?.profile ?? null,
      githubError: github?.error ?? null,
      sources,
      asOf: deps.clock.now().toISOString(),
    };
  }

  return { gather };
});

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Domains compare as hosts do: case, "www." and a trailing dot ignored. */
const sameDomain = (a: string, b: string) => normalizeDomain(a) !== null && normalizeDomain(a) === normalizeDomain(b);

/** The letters of a domain's name part: "bigcorp.com" -> "bigcorp", "mail.ledgerly.co.uk" -> "ledgerly". */
function domainName(domain: string): string {
  const labels = domain.toLowerCase().split(".").filter((l) => !["www", "mail", "email", "co", "com", "org", "net", "io"].includes(l));
  return (labels.sort((a, b) => b.length - a.length)[0] ?? "").replace(/[^a-z0-9]/g, "");
}

/** Whether two company identities (companyIdentity) name the same company: equal, and not empty. */
const sameKey = (a: string, b: string) => a !== "" && a === b;

/**
 * Does a person (or deal) belong to the employer? true when the domain or the company name
 * matches, false when they name another company, null when they say nothing about it.
 */
export function sameCompany(employer: Employer, at: Employer): boolean | null {
  const key = employer.name ? companyIdentity(employer.name) : null;
  if (employer.domain && at.domain && sameDomain(at.domain, employer.domain)) return true;
  if (key && at.name && sameKey(companyIdentity(at.name), key)) return true;
  if (key && at.domain && sameKey(domainName(at.domain), key)) return true;
  if (employer.domain && at.name && sameKey(companyIdentity(at.name), domainName(employer.domain))) return true;
  return at.domain || at.name ? false : null;
}
