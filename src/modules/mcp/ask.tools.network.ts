// The network questions: who knows someone at a company (or a person), how warm a contact is,
// which relationships are going stale, and which founders the key user can reach. Each calls the
// same service as its REST endpoint and says in words what the figures are.
import { DOMAIN_IN_TEXT as DOMAIN, websiteHost as hostOf } from "../../lib/hosts.ts";
import { fold, listing, num } from "../../lib/prose.ts";
import { reachService } from "../network/network.reach.ts";
import { networkService } from "../network/network.service.ts";
import { networkSignals } from "../network/network.signals.ts";
import { str, type Answer, type AskContext, type AskFunction } from "./ask.context.ts";
import { allHoldings, pipelineDeals } from "./ask.names.ts";

type Path = ReturnType<ReturnType<typeof networkService>["whoKnows"]>["paths"][number];

function describePath(p: Path): string {
  const who = `${p.name ?? p.email ?? "someone"}${p.title ? ` (${p.title})` : ""}`;
  const days = p.signals?.days_since_last_touch;
  const last = days === null || days === undefined ? "" : `, last touch ${days} day${days === 1 ? "" : "s"} ago`;
  const strength = p.strength_score === null ? "no relationship data" : `${p.relationship}, strength ${num(p.strength_score)}/100, warmth ${p.warmth}`;
  return `${p.path_owner} knows ${who}: ${strength}${last}`;
}

/**
 * The domain a company name stands for: a domain as written, else the website of a portfolio
 * company or a deal of that name, else the usual domains of the name that people in the pooled
 * network actually work at. Null when nothing in the database supports one.
 */
export function companyDomain(ctx: AskContext, company: string): { domain: string; how: string } | null {
  const written = DOMAIN.exec(company)?.[1];
  if (written) return { domain: written.toLowerCase().replace(/^www\./, ""), how: "as written" };
  const folded = fold(company);
  const holding = allHoldings(ctx).find((c) => fold(c.name) === folded);
  const fromHolding = hostOf(holding?.website ?? null);
  if (fromHolding) return { domain: fromHolding, how: `the website of portfolio company ${holding!.name}` };
  const deal = pipelineDeals(ctx).find((d) => d.company_name && fold(d.company_name) === folded);
  const fromDeal = deal?.domain;
  if (fromDeal) return { domain: fromDeal, how: `the domain of deal ${deal!.company_name}` };
  const slug = folded.replace(/[^a-z0-9]+/g, "");
  if (!slug) return null;
  const network = networkService(ctx.deps);
  for (const tld of ["com", "io", "ai", "co", "vc", "org", "net"]) {
    const domain = `${slug}.${tld}`;
    if (network.whoKnows(ctx.principal, { domain, limit: 1 }).unavailable_reason !== "contact_not_found") {
      return { domain, how: `people in your network work at ${domain}` };
    }
  }
  return null;
}

async function whoKnows(ctx: AskContext, args: Record<string, unknown>): Promise<Answer> {
  const company = str(args.company);
  const person = str(args.person);
  const base = { function: "who_knows", arguments: args, links: [] as string[] };
  if (!company && !person) {
    return { ...base, text: "Tell me a company (name or domain) or a person (name or email) and I will look for warm paths.", data: null };
  }
  const network = networkService(ctx.deps);
  let domain: string | undefined;
  let how = "";
  if (company) {
    const found = companyDomain(ctx, company);
    // A person at a company whose domain is not known ("Yara Khan at Abara Quinn"): the person is enough.
    if (!found && person) return whoKnows(ctx, { ...args, company: undefined, person });
    if (!found) {
      return {
        ...base,
        text: `I could not tell which domain ${company} uses: no portfolio company, deal or contact in your shared network matches it. Ask again with its domain (for example ${fold(company).replace(/[^a-z0-9]+/g, "") || "example"}.com).`,
        data: { target: { company, domain: null }, paths: [], unavailable_reason: "company_not_found" },
        entities: { company: { name: company, domain: null } },
      };
    }
    domain = found.domain;
    how = found.how === "as written" ? "" : ` (${domain}: ${found.how})`;
  }
  // Every path (up to a hundred) is read so the answer can say how many people and paths there are; five are shown.
  const all = network.whoKnows(ctx.principal, { domain, person, limit: 100 });
  // "Apart from me, who at the firm knows...": the teammates' paths only.
  const others = args.exclude_me === true;
  const every = others ? { ...all, paths: all.paths.filter((p) => p.owner_user_id !== ctx.principal.userId) } : all;
  const result = { ...every, paths: every.paths.slice(0, 5) };
  const target = person && company ? `${person} at ${company}` : (person ?? company!);
  const params = new URLSearchParams({ ...(domain ? { domain } : {}), ...(person ? { person } : {}) });
  const links = [`/api/v1/network/who-knows?${params}`];
  const top = result.paths[0];
  const entities = {
    ...(company ? { company: { name: company, domain: domain ?? null } } : {}),
    ...(top?.contact_id ? { person: { id: top.contact_id, name: top.name ?? top.email ?? target } } : {}),
  };
  if (result.paths.length === 0 && others && all.paths.length) {
    return { ...base, links, text: `None of your teammates knows ${person ? target : `anyone at ${target}`}${how}: only you do (${all.paths.length === 1 ? "1 path" : `${all.paths.length} paths`}, yours, left out as asked).`, data: result, entities };
  }
  if (result.paths.length === 0) {
    // Nobody knows them directly, but the key user can reach them through someone they know well.
    const reach = person ? reachThrough(ctx, person) : null;
    if (reach) {
      return { ...base, links: [...links, "/api/v1/network/reach/candidates?limit=50"], text: `No one in your shared network is in touch with ${target} directly, but you can reach ${reach.name} through someone you know well: ${reach.how}.`, data: { ...result, reach: reach.candidate }, entities };
    }
    const why =
      result.unavailable_reason === "no_relationship_data"
        ? `your shared network has ${target}${how} only as contact cards, with no email or meeting to measure warmth by (no_relationship_data)`
        : `nobody in your shared network has a relationship with ${person ? target : `anyone at ${target}`}${how} (contact_not_found)`;
    return { ...base, links, text: `No warm path: ${why}.`, data: result, entities };
  }
  const lines = result.paths.map((p, i) => `${i + 1}. ${describePath(p)}`);
  const count = result.paths.length;
  const people = new Set(every.paths.map((p) => p.contact_id ?? p.email ?? p.name)).size;
  const owners = [...new Set(every.paths.map((p) => p.path_owner))];
  const colleagues = owners.length;
  const tally = person
    ? ""
    : `${people === 1 ? "1 person" : `${people}${all.paths.length >= 100 ? " or more" : ""} people`} at ${target} ${people === 1 ? "is" : "are"} known ${others ? "by your teammates (your own paths left out)" : "in your shared network"} (${every.paths.length === 1 ? "1 path" : `${every.paths.length} paths`} through ${colleagues === 1 ? `1 colleague, ${owners[0]}` : `${colleagues} colleagues${colleagues <= 6 ? `: ${listing(owners)}` : ""}`}). `;
  const text = `${tally}${count === 1 ? "One warm path" : `The ${count} warmest paths`} to ${person ? target : `people at ${target}`}${how}:\n${lines.join("\n")}`;
  return { ...base, links, text, data: result, entities };
}

async function contactWarmth(ctx: AskContext, args: Record<string, unknown>): Promise<Answer> {
  const contact = str(args.contact);
  const base = { function: "contact_warmth", arguments: args, links: ["/api/v1/network/warmth/lookup"] };
  if (!contact) return { ...base, links: [], text: "Whose warmth should I look up? Give a name, an email address or a LinkedIn URL.", data: null };
  const result = networkService(ctx.deps).warmthLookup(ctx.principal, [contact]);
  const row = result.results[0];
  if (row.contact_id === null) {
    return { ...base, text: `I found nobody called ${contact} in your shared network (contact_not_found).`, data: result };
  }
  const name = row.name ?? row.email ?? contact;
  const entities = { person: { id: row.contact_id, name } };
  if (row.strength_score === null) {
    return { ...base, text: `${name} is in ${row.path_owner}'s contacts, but there is no email or meeting to measure warmth by (no_relationship_data).`, data: result, entities };
  }
  const s = row.signals;
  const detail = s
    ? ` ${s.emails_sent} emails sent, ${s.emails_received} received, ${s.meetings} meetings; last touch ${s.days_since_last_touch} days ago (${s.last_touch_at?.slice(0, 10)}).`
    : "";
  const text = `Your warmest path to ${name}${row.title ? ` (${row.title})` : ""} is through ${row.path_owner}: a ${row.relationship} relationship, strength ${num(row.strength_score)}/100 and warmth ${row.warmth} (0 to 1).${detail}`;
  return { ...base, text, data: result, entities };
}

/** Relationships read when filtering by days silent (the going-stale list is read most overdue first). */
const STALE_READ = 1000;

async function goingStale(ctx: AskContext, args: Record<string, unknown>): Promise<Answer> {
  const limit = typeof args.limit === "number" && args.limit >= 1 ? Math.min(50, Math.floor(args.limit)) : 10;
  const minDays = typeof args.min_days === "number" && args.min_days >= 1 ? Math.floor(args.min_days) : null;
  if (minDays !== null || args.longest_silent === true) return staleSince(ctx, args, limit, minDays ?? 0);
  const result = networkSignals(ctx.deps).goingStale(ctx.principal, limit);
  const base = { function: "going_stale", arguments: args, links: [`/api/v1/network/signals/going-stale?limit=${limit}`], data: result };
  if (result.total === 0) {
    return { ...base, text: "None of your relationships is past its keep-in-touch cadence (declared or learned)." };
  }
  const lines = result.signals.map(
    (s, i) => `${i + 1}. ${s.name}${s.email ? ` <${s.email}>` : ""}: ${s.days_since_last_touch} days since the last touch, cadence ${s.effective_cadence_days} days (${s.source})`,
  );
  const more = result.total > result.signals.length ? ` (showing the ${result.signals.length} most overdue)` : "";
  const first = result.signals[0];
  return {
    ...base,
    text: `${result.total} of your relationships ${result.total === 1 ? "is" : "are"} going stale${more}:\n${lines.join("\n")}`,
    entities: { person: { id: first.contact_id, name: first.name } },
  };
}

/** Relationships going stale whose last touch is at least `minDays` ago, longest silent first. */
function staleSince(ctx: AskContext, args: Record<string, unknown>, limit: number, minDays: number): Answer {
  const all = networkSignals(ctx.deps).goingStale(ctx.principal, STALE_READ);
  const silent = all.signals.filter((s) => s.days_since_last_touch !== null && s.days_since_last_touch >= minDays).sort((a, b) => b.days_since_last_touch! - a.days_since_last_touch!);
  const base = { function: "going_stale", arguments: args, links: [`/api/v1/network/signals/going-stale?limit=${STALE_READ}`], data: { total: silent.length, signals: silent.slice(0, limit) } };
  if (silent.length === 0) return { ...base, text: minDays ? `None of your ${all.total} relationships going stale has gone ${minDays} days or more without a touch.` : "None of your relationships is past its keep-in-touch cadence (declared or learned)." };
  const lines = silent.slice(0, limit).map((s, i) => `${i + 1}. ${s.name}${s.email ? ` <${s.email}>` : ""}: ${s.days_since_last_touch} days since the last touch, cadence ${s.effective_cadence_days} days (${s.source})`);
  const more = silent.length > limit ? ` (showing the ${limit} longest silent)` : "";
  const cut = all.total > all.signals.length ? ` (of the ${all.signals.length} most overdue read)` : "";
  const head = minDays ? `${silent.length} of your ${all.total} relationships going stale have had no touch for ${minDays} days or more${cut}${more}` : `${all.total} of your relationships are going stale${cut}, longest silent first${limit < silent.length ? ` (the first${limit > 1 ? ` ${limit}` : ""})` : ""}`;
  return { ...base, text: `${head}:\n${lines.join("\n")}`, entities: { person: { id: silent[0].contact_id, name: silent[0].name } } };
}

/** A person among the key user's reach candidates (founders reachable through a strong contact), by name. */
function reachThrough(ctx: AskContext, person: string): { name: string; how: string; candidate: unknown } | null {
  const wanted = fold(person).trim();
  const found = reachService(ctx.deps).candidates(ctx.principal, 200).candidates.find((c) => fold(c.full_name).trim() === wanted);
  if (!found) return null;
  const how = found.fit_reasons.filter((r) => /^Reachable through\b/.test(r) || /\bwere on \d+ (?:emails?|meetings?)\b/.test(r));
  if (!how.length) return null;
  const who = [found.current_title, found.current_company].filter(Boolean).join(" at ");
  return { name: `${found.full_name}${who ? ` (${who})` : ""}`, how: how.join("; "), candidate: found };
}

async function reachCandidates(ctx: AskContext, args: Record<string, unknown>): Promise<Answer> {
  const limit = typeof args.limit === "number" && args.limit >= 1 ? Math.min(50, Math.floor(args.limit)) : 10;
  const result = reachService(ctx.deps).candidates(ctx.principal, limit);
  const base = { function: "reach_candidates", arguments: args, links: [`/api/v1/network/reach/candidates?limit=${limit}`], data: result };
  if (result.candidates.length === 0) {
    return { ...base, text: "There are no reach candidates for you yet: they are computed nightly from your network and the firm's thesis (dealgraph jobs run reach-candidates)." };
  }
  const lines = result.candidates.map(
    (c, i) =>
      `${i + 1}. ${c.full_name}${c.current_title || c.current_company ? `, ${listing([c.current_title, c.current_company].filter((x): x is string => !!x))}` : ""}: fit ${num(c.fit_score)}${c.fit_reasons.length ? ` (${c.fit_reasons.join("; ")})` : ""}, ${c.path_quality.replaceAll("_", " ")}`,
  );
  return { ...base, text: `Founders you can reach through people you know well:\n${lines.join("\n")}` };
}

const text = (description: string) => ({ type: "string", description });
const limitParam = { type: "integer", minimum: 1, maximum: 50, description: "How many rows (default 10)" };

export const NETWORK_FUNCTIONS: AskFunction[] = [
  {
    name: "who_knows",
    description: "Ranked warm paths from the firm's shared network to people at a company, or to one person.",
    parameters: { type: "object", properties: { company: text("Company name or domain"), person: text("Person's name or email"), exclude_me: { type: "boolean", description: "Only teammates' paths, not the key user's own" } } },
    action: false,
    run: whoKnows,
  },
  {
    name: "contact_warmth",
    description: "How warm the firm's best relationship with one contact is (strength 0-100, warmth 0-1, recent touches).",
    parameters: { type: "object", properties: { contact: text("Name, email or LinkedIn URL") }, required: ["contact"] },
    action: false,
    run: contactWarmth,
  },
  {
    name: "going_stale",
    description: "The key user's relationships past their keep-in-touch cadence, most overdue first.",
    parameters: { type: "object", properties: { limit: limitParam, min_days: { type: "integer", minimum: 1, description: "Only those with no touch for at least this many days" }, longest_silent: { type: "boolean", description: "Longest silent first, not most overdue first" } } },
    action: false,
    run: goingStale,
  },
  {
    name: "reach_candidates",
    description: "Founders the key user can reach through someone they know well (computed nightly).",
    parameters: { type: "object", properties: { limit: limitParam } },
    action: false,
    run: reachCandidates,
  },
];
