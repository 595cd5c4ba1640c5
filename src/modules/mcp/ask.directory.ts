// What a question names, found in the firm's own data rather than by where a word sits in the
// sentence: portfolio companies (name, brand word or website), deals (name or domain), LP funds
// (fuzzy: case, numerals, "Fund II" inside "Alpha Fund II"), people in the pooled network (email,
// LinkedIn, full name or a first name), analysed founders and research runs (by id). Each lookup
// runs once per question and only when asked for.
import { ApiError } from "../../http/errors.ts";
import { dealsService } from "../deals/deals.service.ts";
import { foundersService } from "../founders/founders.service.ts";
import { fundsService } from "../funds/funds.service.ts";
import { queryPaths } from "../network/network.paths.ts";
import { networkService } from "../network/network.service.ts";
import { researchService } from "../research/research.service.ts";
import { allHoldings, dealByDomain, orgDeals } from "./ask.book.ts";
import { CUE_WORDS } from "./ask.intents.ts";
import { canon, nameForPhrase, namesInQuestion, type NameMatch } from "./ask.match.ts";
import { fold, hostOf, nameRuns, runAfter, STOP, type Normalised, type Run } from "./ask.text.ts";
import type { AskContext } from "./ask.types.ts";

export type Person = { identifier: string; name: string };
export type PersonFind = { kind: "one"; person: Person } | { kind: "several"; first: string; names: string[] } | { kind: "none" };
/** `whole`: the question says each matched name in full ("compare Alpha Fund I and Gamma Seed III"). */
export type FundFind = { match: NameMatch; phrase: string | null; names: string[]; whole: boolean };
export type Founder = { id: string; name: string };

const isRoman = (w: string) => /^(?:i{1,3}|iv|v|vi{0,3}|ix|x|\d{1,2})$/.test(w);
const notAName = (w: string) => STOP.has(w) || CUE_WORDS.has(w);

function once<T>(compute: () => T): () => T {
  let done = false;
  let value: T;
  return () => (done ? value! : ((done = true), (value = compute())));
}

function notFoundAsNull<T>(read: () => T): T | null {
  try {
    return read();
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

export function directory(ctx: AskContext, n: Normalised) {
  const { orgId } = ctx.principal;
  const plain = n.tokens.filter((t) => !/[.@]/.test(t.f));
  const questionCanon = canon(plain.map((t) => t.f).join(" "));
  const words = questionCanon.split(" ").filter((w) => w && !notAName(w));

  const holdings = once((): NameMatch => {
    const byName = new Map<string, string | null>();
    for (const c of allHoldings(ctx)) if (!byName.has(c.name)) byName.set(c.name, hostOf(c.website));
    const byDomain = [...byName].filter(([, host]) => host && n.domains.includes(host)).map(([name]) => name);
    if (byDomain.length === 1) return { kind: "one", name: byDomain[0], partial: false };
    return namesInQuestion([...byName.keys()], questionCanon, words);
  });

  const deal = once((): { id: string; name: string; domain: string | null } | null => {
    const deals = dealsService(ctx.deps);
    for (const id of n.uuids) {
      const d = notFoundAsNull(() => deals.detail(orgId, id, "summary"));
      if (d) return { id: d.deal_id, name: d.company_name ?? d.domain ?? id, domain: d.domain };
    }
    for (const domain of n.domains) {
      const found = dealByDomain(ctx, domain);
      if (found) return { id: found.deal_id, name: found.company_name ?? domain, domain };
    }
    // Every deal name the question says in full, the longest one winning ("Acme Robotics" over "Acme");
    // a name made only of stop words or short words ("The", "AI") is not taken from a question's grammar.
    let best: { id: string; name: string; domain: string | null; key: string } | null = null;
    const spaced = ` ${questionCanon} `;
    const naming = [...new Set(words.filter((w) => w.length >= 3))];
    if (naming.length === 0) return null;
    for (const d of orgDeals(ctx)) {
      const key = d.company_name ? canon(d.company_name) : "";
      if (!key || !spaced.includes(` ${key} `) || !naming.some((w) => key.includes(w))) continue;
      if (!best || key.length > best.key.length) best = { id: d.deal_id, name: d.company_name!, domain: d.domain, key };
    }
    return best && { id: best.id, name: best.name, domain: best.domain };
  });

  /** "Fund II", "alpha fund 1": a fund word and a numeral, with the naming words before them, as written. */
  const fundPhrase = once((): string | null => {
    const t = n.tokens;
    for (let k = 0; k + 1 < t.length; k++) {
      if (!/^funds?$/.test(t[k].f) || !isRoman(t[k + 1].f)) continue;
      let start = k;
      while (start > 0 && !notAName(t[start - 1].f) && !t[start - 1].end && !/[.@]/.test(t[start - 1].f)) start--;
      return t.slice(start, k + 2).map((x) => x.raw).join(" ");
    }
    return null;
  });

  const funds = once((): FundFind => {
    const names = fundsService(ctx.deps).fundNames(orgId);
    const phrase = fundPhrase();
    const whole = namesInQuestion(names, questionCanon, []);
    if (whole.kind !== "none") return { match: whole, phrase, names, whole: true };
    if (phrase) return { match: nameForPhrase(names, phrase), phrase, names, whole: false };
    return { match: namesInQuestion(names, questionCanon, words), phrase, names, whole: false };
  });

  /** Words of the names already found, so "Acme Robotics" is not also tried as a person. */
  const taken = once(() => {
    const out = new Set<string>();
    const add = (name: string | undefined) => name && canon(name).split(" ").forEach((w) => out.add(w));
    const h = holdings();
    if (h.kind === "one") add(h.name);
    add(deal()?.name);
    const f = funds().match;
    if (f.kind === "one") add(f.name);
    return out;
  });

  const skipForNames = (w: string) => notAName(w) || taken().has(canon(w)) || /[.@]/.test(w);
  const nameLike = (r: Run) => r.raw.split(" ").every((w) => /^\p{L}[\p{L}'’-]*$/u.test(w));

  const person = once((): PersonFind => {
    if (n.emails[0]) return { kind: "one", person: { identifier: n.emails[0], name: n.emails[0] } };
    if (n.linkedin) return { kind: "one", person: { identifier: n.linkedin, name: n.linkedin } };
    const runs = nameRuns(n, skipForNames).filter(nameLike);
    const network = networkService(ctx.deps);
    const full = runs.filter((r) => r.to - r.from >= 2).slice(0, 12);
    if (full.length) {
      const hit = network.warmthLookup(ctx.principal, full.map((r) => r.raw)).results.find((r) => r.contact_id !== null);
      if (hit) return { kind: "one", person: { identifier: hit.name ?? hit.query, name: hit.name ?? hit.query } };
    }
    // A first name: the pooled people whose name starts with it ("Dana" -> Dana Scully).
    for (const r of runs.filter((r) => r.to - r.from === 1 && r.f.length >= 2).slice(0, 6)) {
      const rows = queryPaths(ctx.deps, "p.org_id = $org AND (p.name_key = $first OR (p.name_key >= $lo AND p.name_key < $hi))", {
        org: orgId,
        me: ctx.principal.userId,
        first: r.f,
        lo: `${r.f} `,
        hi: `${r.f}!`,
      });
      const names = [...new Map(rows.filter((x) => x.display_name).map((x) => [x.person_id, x.display_name!])).values()];
      const distinct = [...new Set(names)];
      if (distinct.length === 1) return { kind: "one", person: { identifier: distinct[0], name: distinct[0] } };
      if (distinct.length > 1) return { kind: "several", first: r.raw, names: distinct.sort() };
    }
    return { kind: "none" };
  });

  /** A finished founder analysis of a person the question names, or the newest one of that name. */
  const founder = once((): { kind: "one"; founder: Founder } | { kind: "several"; names: string[] } | { kind: "none" } => {
    const founders = foundersService(ctx.deps);
    for (const id of n.uuids) {
      const a = notFoundAsNull(() => founders.read(orgId, id));
      if (a) return { kind: "one", founder: { id: a.analysis_id, name: a.founder.name ?? id } };
    }
    for (const r of nameRuns(n, skipForNames).filter((r) => nameLike(r) && r.to - r.from >= 2).slice(0, 8)) {
      const found = founders.findByName(orgId, r.f, 10);
      const exact = found.filter((a) => a.founder.name && fold(a.founder.name) === r.f);
      const pick = exact.length ? exact : found;
      const names = [...new Set(pick.map((a) => a.founder.name ?? a.analysis_id))];
      if (names.length === 1) return { kind: "one", founder: { id: pick[0].analysis_id, name: names[0] } };
      if (names.length > 1) return { kind: "several", names };
    }
    return { kind: "none" };
  });

  const research = once(() => {
    const runs = researchService(ctx.deps);
    for (const id of n.uuids) {
      const r = notFoundAsNull(() => runs.read(orgId, id, "summary"));
      if (r) return { id: r.research_id, query: r.query };
    }
    return null;
  });

  /** The words after "at/in/from..." (a company) or "to/with" when they name no person: "someone at Gates Foundation". */
  const companyPhrase = once((): string | null => runAfter(n, ["at", "in", "inside", "from", "into"], skipForNames, 4)?.raw ?? null);
  const targetPhrase = once((): string | null => runAfter(n, ["to", "with"], skipForNames, 4)?.raw ?? null);
  /** The longest run of words that may be a name nothing else matched: what "not found" answers quote. */
  const anyName = once((): string | null => nameRuns(n, skipForNames)[0]?.raw ?? null);

  return { holdings, deal, funds, fundPhrase, person, founder, research, companyPhrase, targetPhrase, anyName, words };
}

export type Directory = ReturnType<typeof directory>;
