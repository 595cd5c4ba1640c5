// People, research runs and documents as records. People: the warm paths of the pooled network
// (the key user and teammates who share), at a company or overall, strongest first. Research: the
// org's runs by topic, with their status and summary. Documents: the passages of the firm's own
// documents and deal analyses that answer some words (the research runs' full-text search), or the
// documents held on the deals.
import { count, fold, listing } from "../../lib/prose.ts";
import { nameForPhrase } from "../../lib/name-match.ts";
import { dealsService } from "../deals/deals.service.ts";
import type { Query } from "../../engines/ask-engine.ts";
import { orgsService } from "../identity/orgs.service.ts";
import { networkService } from "../network/network.service.ts";
import type { ScoredPath } from "../network/network.paths.ts";
import { researchService } from "../research/research.service.ts";
import { datesWords, FIELDS, inRange, type KindReader, type Loaded, type Rec } from "./ask.query.fields.ts";
import { companyDomain } from "./ask.tools.network.ts";

const PATHS_READ = 100;

export const PERSONS: KindReader = {
  noun: ["person", "people"],
  field: (name) => FIELDS.persons[name] ?? null,
  show: ["strength", "warmth"],
  order: null,
  // "How many contacts do I have": the key user's own graph, counted in full (the paths read are only the strongest).
  aggregate(ctx, q, loaded) {
    if (q.aggregate !== "count" || q.name || q.where?.length || q.status?.length || q.type || q.group || q.anyOf || q.except) return null;
    const own = networkService(ctx.deps).ownContactCount(ctx.principal.userId);
    return {
      function: "query",
      arguments: {},
      text: `You have ${count(own, "contact", "contacts")} in your own network (everyone you have emailed, met or imported as a contact).${loaded.rows.length ? ` Your shared network's warm paths are read ${loaded.rows.length === PATHS_READ ? `${PATHS_READ} strongest at a time` : `as ${loaded.rows.length}`}.` : ""}\nSource: your contacts (/api/v1/network/contacts).`,
      data: { count: own, scope: "key_user" },
      links: ["/api/v1/network/contacts"],
    };
  },
  load(ctx, q): Loaded | { answer: string } {
    if (q.own && !q.name) return labelled(ownContacts(ctx), q);
    // "My contacts at quillstack.ai": the key user's own relationships there, not the shared network's paths.
    const ownAt = q.own && q.name && !q.name.includes("@") ? (companyDomain(ctx, q.name)?.domain ?? (/^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/i.test(q.name.trim()) ? q.name.trim().toLowerCase() : null)) : null;
    if (ownAt) return labelled(ownContactsAt(ctx, ownAt), q);
    const network = networkService(ctx.deps);
    let domain: string | undefined;
    let person: string | undefined;
    let scope = " in your shared network";
    if (q.name) {
      const found = q.name.includes("@") ? null : companyDomain(ctx, q.name);
      if (found) (domain = found.domain), (scope = ` at ${domain}`);
      else if (!q.name.includes("@") && !/\s/.test(q.name.trim())) {
        // One word that names no company the records know: not a person's name either.
        return { answer: `Nobody at ${q.name} is in your shared network: no portfolio company, deal or contact's email domain matches it. Ask again with its domain (for example ${q.name.toLowerCase().replace(/[^a-z0-9]+/g, "")}.com).` };
      } else (person = q.name), (scope = ` named ${q.name}`);
    }
    const result = network.whoKnows(ctx.principal, { domain, person, limit: Math.min(PATHS_READ, q.limit ?? PATHS_READ) });
    const colleague = colleagueTest(ctx);
    const rows: Rec[] = result.paths.map((p) => personRec(p, colleague, [`through ${p.path_owner}`]));
    const params = new URLSearchParams({ ...(domain ? { domain } : {}), ...(person ? { person } : {}) });
    return labelled({
      rows,
      scope,
      source: `warm paths of your shared network (/api/v1/network/who-knows${params.size ? `?${params}` : ""}): you and the teammates who share theirs.`,
      links: [`/api/v1/network/who-knows${params.size ? `?${params}` : ""}`],
      notes: rows.length === PATHS_READ ? [`(The ${PATHS_READ} strongest are read; there may be more.)`] : [],
    }, q);
  },
};

/** How many of the key user's own relationships are read at once (the whole graph of anyone but the largest). */
const OWN_READ = 20_000;
/** Mail providers whose addresses say nothing about where someone works. */
const PERSONAL_MAIL = /^(?:gmail|googlemail|outlook|hotmail|live|yahoo|icloud|me|mac|aol|proton|protonmail|pm|gmx|web|mail|yandex|zoho|fastmail)\.[a-z.]+$/;

/** Whether a person is one of the firm's own people: a member's address, or an address at the firm's own domain. */
/** What a person's record is read from: a warm path of the shared network, or one of the user's own contacts. */
type PersonSeen = Pick<ScoredPath, "contact_id" | "name" | "email" | "title" | "domain" | "strength_score" | "warmth" | "relationship" | "signals"> & { last_touch_at?: string | null };

function colleagueTest(ctx: Parameters<KindReader["load"]>[0]): (p: PersonSeen) => boolean {
  const members = orgsService(ctx.deps).listMembers(ctx.principal.orgId);
  const emails = new Set(members.map((m) => m.email.toLowerCase()));
  const domains = new Set(members.map((m) => m.email.toLowerCase().split("@")[1]).filter((d) => d && !PERSONAL_MAIL.test(d)));
  return (p) => (!!p.email && emails.has(p.email.toLowerCase())) || (!!p.email && domains.has(p.email.toLowerCase().split("@")[1])) || (!!p.domain && domains.has(p.domain.toLowerCase()));
}

function personRec(p: PersonSeen, colleague: (p: PersonSeen) => boolean, facts: string[]): Rec {
  return {
    name: p.name ?? p.email ?? "someone",
    about: [p.title, p.domain].filter(Boolean).join("; ") || null,
    values: { strength: { value: p.strength_score }, warmth: { value: p.warmth }, days_since_last_touch: { value: p.signals?.days_since_last_touch ?? null }, last_touch: { value: null, date: p.last_touch_at?.slice(0, 10) ?? null } },
    facts: [...facts, p.relationship ?? "no relationship data"],
    groups: { status: p.relationship ?? "never in touch", type: colleague(p) ? "colleague" : "outside" },
    entities: { person: { id: p.contact_id, name: p.name ?? p.email ?? "someone" } },
    data: p,
  };
}

/** The key user's own relationships: everyone they have emailed, met or imported, as the contacts page has them. */
function ownContacts(ctx: Parameters<KindReader["load"]>[0]): Loaded {
  const { contacts, total } = networkService(ctx.deps).searchOwnContacts(ctx.principal.userId, { q: "", offset: 0, limit: OWN_READ });
  const colleague = colleagueTest(ctx);
  return {
    rows: contacts.map((c) => personRec(c, colleague, [])),
    scope: " in your own network",
    source: "your contacts (/api/v1/network/contacts): everyone you have emailed, met or imported as a contact.",
    links: ["/api/v1/network/contacts"],
    notes: total > contacts.length ? [`(Your ${total} contacts are more than the ${OWN_READ} read at once: the most recently in touch are counted.)`] : [],
  };
}

/** The key user's own relationships with people at one domain (their addresses there). */
function ownContactsAt(ctx: Parameters<KindReader["load"]>[0], domain: string): Loaded {
  const { contacts } = networkService(ctx.deps).searchOwnContacts(ctx.principal.userId, { q: `@${domain}`, offset: 0, limit: OWN_READ });
  const colleague = colleagueTest(ctx);
  return {
    rows: contacts.filter((c) => c.domain === domain).map((c) => personRec(c, colleague, [])),
    scope: ` in your own network at ${domain}`,
    source: `your contacts (/api/v1/network/contacts?q=${encodeURIComponent(`@${domain}`)}): everyone you have emailed, met or imported as a contact.`,
    links: [`/api/v1/network/contacts?q=${encodeURIComponent(`@${domain}`)}`],
    notes: [],
  };
}

/** People by their relationship's label ("strong", "dormant") and by whether they work at the firm. */
function labelled(loaded: Loaded, q: Query): Loaded {
  const statuses = q.status?.length ? q.status : null;
  const rows = loaded.rows.filter((r) => (!statuses || statuses.includes(r.groups!.status)) && (!q.type || r.groups!.type === q.type));
  const scope = `${loaded.scope}${statuses ? ` with a ${statuses.length > 1 ? `${statuses.slice(0, -1).join(", ")} or ${statuses.at(-1)}` : statuses[0]} relationship` : ""}${q.type === "colleague" ? " who work at the firm" : q.type === "outside" ? " outside the firm" : ""}`;
  return { ...loaded, rows, scope };
}

const RUNS_READ = 200;
// Words of a topic that say nothing about it.
const FILLER = new Set("the a an of on in for about and or to with our my we research run runs report reports study did do we have".split(" "));

export const RESEARCH: KindReader = {
  noun: ["research run", "research runs"],
  field: (name) => FIELDS.research[name] ?? null,
  show: [],
  order: { by: "created", dir: "desc" },
  load(ctx, q): Loaded | { answer: string } {
    const all = researchService(ctx.deps).list(ctx.principal.orgId, RUNS_READ);
    let list = all;
    const scope: string[] = [];
    const topic = q.text ?? q.name;
    if (topic) {
      const words = fold(topic).split(" ").filter((w) => w.length > 2 && !FILLER.has(w));
      list = list.filter((r) => words.some((w) => ` ${fold(r.query)} `.includes(` ${w}`)));
      scope.push(` about ${topic}`);
    }
    if (q.status?.length) {
      const wanted = q.status.map(fold);
      list = list.filter((r) => wanted.includes(r.status));
      scope.push(` that are ${listing(wanted)}`);
    }
    if (q.dates) {
      const range = q.dates;
      list = list.filter((r) => inRange(r.created_at, range));
      scope.push(` started ${datesWords(range)}`);
    }
    const rows: Rec[] = list.map((r) => ({
      name: `"${r.query}"`,
      about: r.status,
      values: { created: { value: null, date: r.created_at } },
      facts: [`started ${r.created_at.slice(0, 10)}`, r.executive_summary ? `summary: ${r.executive_summary}` : r.status === "succeeded" ? "no summary" : "no findings yet", `/api/v1/research/${r.research_id}`],
      entities: { research: { id: r.research_id, query: r.query } },
      data: r,
    }));
    // None about that: what research the workspace does hold.
    const notes = rows.length === 0 && all.length ? [`Your research runs: ${listing(all.slice(0, 5).map((r) => `"${r.query}" (${r.status})`))}${all.length > 5 ? ` and ${all.length - 5} more` : ""}.`] : [];
    return { rows, scope: scope.join(""), source: "your workspace's research runs (/api/v1/research/{id}).", links: list.slice(0, 5).map((r) => `/api/v1/research/${r.research_id}`), notes };
  },
};

export const DOCUMENTS: KindReader = {
  noun: ["document", "documents"],
  field: (name) => FIELDS.documents[name] ?? null,
  show: [],
  order: null,
  load(ctx, q): Loaded | { answer: string } {
    if (q.text) {
      const passages = researchService(ctx.deps).searchDocuments(ctx.principal, q.text);
      const rows: Rec[] = passages.map((p) => ({
        name: p.source_type === "document" ? `${p.title}, page ${p.page}` : `the analysis of ${p.title}`,
        about: null,
        values: {},
        facts: [`"${p.quote}"`],
        data: p,
      }));
      return {
        rows,
        scope: ` with passages on "${q.text}"`,
        source: "the full-text index of your documents and deal analyses (the research runs' search).",
        links: [...new Set(passages.filter((p) => p.source_type === "deal").map((p) => `/api/v1/deals/${p.source_id}`))],
      };
    }
    let list = dealsService(ctx.deps).documentInventory(ctx.principal.orgId);
    const scope: string[] = [];
    if (q.name) {
      const names = [...new Set(list.flatMap((d) => (d.company_name ? [d.company_name] : [])))];
      const m = nameForPhrase(names, q.name);
      if (m.kind === "several") return { answer: `Several deals with documents match ${q.name}: ${listing(m.names)}. Which one?` };
      if (m.kind === "none") return { answer: `Your records hold no documents on a deal called ${q.name}.` };
      list = list.filter((d) => d.company_name === m.name);
      scope.push(` on ${m.name}`);
    }
    if (q.type) {
      const kind = /room/.test(fold(q.type)) ? "data_room" : "primary_upload";
      list = list.filter((d) => d.kind === kind);
      scope.push(kind === "data_room" ? " in data rooms" : " submitted as the deal's material");
    }
    if (q.dates) {
      const range = q.dates;
      list = list.filter((d) => inRange(d.uploaded_at, range));
      scope.push(` received ${datesWords(range)}`);
    }
    const rows: Rec[] = list.map((d) => ({
      name: d.filename,
      about: d.company_name,
      values: { pages: { value: d.page_count }, uploaded: { value: null, date: d.uploaded_at } },
      facts: [d.kind === "data_room" ? "data room" : "deal material", d.page_count === null ? "pages not counted" : `${d.page_count} pages`, `received ${d.uploaded_at.slice(0, 10)}`],
      entities: { deal: { id: d.deal_id, name: d.company_name ?? d.filename } },
      data: d,
    }));
    return { rows, scope: scope.join(""), source: "the documents held on your deals (/api/v1/deals/{id}/documents).", links: [...new Set(list.slice(0, 5).map((d) => `/api/v1/deals/${d.deal_id}/documents`))] };
  },
};
