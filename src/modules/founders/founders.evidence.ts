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
import { dealsService, type DealScoreRow } from "../deals/deals.service.ts";
import { networkService, type PersonCard } from "../network/network.service.ts";
import { researchService } from "../research/research.service.ts";
import { companyIdentity } from "./founders.input.ts";
import { readGithub } from "./founders.github.ts";
import type { FounderRow, FounderRunInput } from "./founders.service.ts";

/** A deal that tells about the founder: its team lists them, or it is their company. */
type DealHit = DealScoreRow & { team_title: string | null; team_linkedin: string | null; via: "team" | "company" };
/** A company the founder is known to be at: the one given, or a LinkedIn-matched contact's. */
type Employer = { name: string | null; domain: string | null };

const MAX_PERSONS = 5;
const MAX_MENTIONS = 20;
const QUOTE_CHARS = 300;

export type Stage = "resolve" | "enrich" | "network" | "documents";

export const founderEvidence = perDeps((deps: Deps) => {
  const network = networkService(deps);
  const dealsOf = dealsService(deps);
  const research = researchService(deps);

  const persons = (rows: PersonCard[], matchedBy: MatchedPerson["matchedBy"]): MatchedPerson[] =>
    rows.map((r) => ({ id: r.id, name: r.display_name, title: r.title, company: r.company, domain: r.domain, linkedinUrl: linkedinUrl(r.linkedin_url), matchedBy }));

  function companyDomain(orgId: string, company: string | null): string | null {
    if (!company) return null;
    return dealsOf.companyDomain(orgId, company) ?? network.commonDomainAt(orgId, company);
  }

  /**
   * Persons named like the founder, sorted out: confirmed when at the given company (its domain,
   * the contact's company, or a domain named after it); at another company, or with another
   * LinkedIn profile, they are someone else; with nothing to go by they stay unconfirmed.
   */
  function personsByName(orgId: string, name: string, employer: Employer | null, linkedinKey: string | null) {
    const key = nameKey(name);
    if (!key) return { confirmed: [] as MatchedPerson[], namesakes: [] as Namesake[] };
    const confirmed: PersonCard[] = [];
    const namesakes: Namesake[] = [];
    for (const r of network.personsNamed(orgId, key, 50)) {
      const tie = employer ? sameCompany(employer, { name: r.company, domain: r.domain }) : null;
      const where = [r.title, r.company, r.domain].filter(Boolean).join(", ");
      const namesake = (reason: Namesake["reason"]) => namesakes.push({ source: "person", id: r.id, name: r.display_name ?? name, where, reason });
      if (linkedinKey && r.linkedin_url && r.linkedin_url !== linkedinKey) namesake("other_linkedin");
      else if (tie === true) confirmed.push(r);
      else namesake(tie === false ? "other_company" : "unconfirmed");
    }
    const byDomain = (r: PersonCard) => (employer?.domain && r.domain === employer.domain ? "name_and_domain" : "name_and_company");
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
      const res = network.whoKnows(principal, { person: p.id, limit: 10 });
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
    const rows: DealHit[] = [];
    const namesakes: Namesake[] = [];
    if (name || linkedinKey) {
      const key = name ? nameKey(name) : null;
      const listings = dealsOf.teamListings(orgId).filter((l) => (key !== null && nameKey(l.name) === key) || (linkedinKey !== null && normalizeLinkedin(l.linkedin) === linkedinKey));
      for (const l of listings.slice(0, 10)) {
        const deal = dealsOf.scoreRow(orgId, l.dealId);
        if (!deal) continue;
        const r: DealHit = { ...deal, team_title: l.title, team_linkedin: l.linkedin, via: "team" };
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
      if (key) {
        const theirs = dealsOf.namedScoreRows(orgId).filter((d) => d.company_name && companyIdentity(d.company_name) === key);
        rows.push(...theirs.slice(0, 5).map((d) => ({ ...d, team_title: null, team_linkedin: null, via: "company" as const })));
      }
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
    for (const hit of research.documentPagesMatching(orgId, phrase, 50)) {
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
    let matched = input.linkedin_key ? persons(network.personsByLinkedin(orgId, input.linkedin_key, MAX_PERSONS), "linkedin") : [];

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
