// The built-in engine: deterministic, offline. It respells misspelt words of the firm's
// vocabulary and names, checks whether the question explicitly asks to start an action
// (ask-imperative.ts), hears which single-record read it asks for by families of cues
// (ask-intents.ts), reads a question about a set of records into a typed query (ask-query.ts), and
// finds what it names in the firm's own records (ask-directory.ts); follow-ups ("how warm is she?",
// "and its runway?", "only the fintech ones") resolve against what the conversation last talked
// about. When what it matched is ambiguous it says so and asks; when the records do not hold what
// is asked, the operation it calls says so, with what they hold instead.
import { HELP, type AskEngine, type AskNames, type AskTools, type Entities, type HoldingName, type Memory, type Query, type RecordKind } from "../ask-engine.ts";
import { canon } from "../../lib/name-match.ts";
import { listing } from "../../lib/prose.ts";
import { datesIn } from "./ask-dates.ts";
import { directory, type Directory } from "./ask-directory.ts";
import { actionRequested } from "./ask-imperative.ts";
import { ABOUT, CUE_WORDS, hear, PERSON_PRONOUN, THING_PRONOUN, type ReadIntent, type SubjectKind } from "./ask-intents.ts";
import { FIELD_CUES, LEXICON_WORDS, NUMBER_WORDS, TOP_N } from "./ask-lexicon.ts";
import { UNHELD } from "./ask-unheld.ts";
import { unfoundRecord } from "./ask-unfound.ts";
import { asShareOfLast, combinedOfLast, figuresOfListed, inAnotherCurrency, otherFiguresOfLast, sameFiguresOfAnother, sameQuestionOtherDates, withPeriodOfLast } from "./ask-again.ts";
import { FIRST_STATEMENT } from "./ask-history.ts";
import { readSet, type SetRead } from "./ask-query.ts";
import { speller } from "./ask-spelling.ts";
import { COMPARE, FLOW_FIELD, negationScopes } from "./ask-sets.ts";
import { saidBack, unreadParts } from "./ask-understood.ts";
import { normalise, STOP, type Normalised } from "./ask-text.ts";

/** `note`: said after the operation's answer (what was not done, and how to do it); `preface`: before it (what the records do not hold). */
export type Intent = { fn: string; args: Record<string, unknown>; note?: string; preface?: string };
export type Recognised = Intent | { clarify: string } | null;

/** Words only an LP position has: its figures, the LP role. */
const LP_WORDS = /\btvpi\b|\bdpi\b|\brvpi\b|\birr\b|\bnav\b|\blp\b|\bcalled\b|\bdistribut|\bcommit|\bunfunded\b|\bvintage\b/;

const several = (what: string, asked: string, names: string[]) => ({ clarify: `Several ${what} match ${asked}: ${listing(names)}. Which one?` });

function has(d: Directory, n: Normalised, kind: SubjectKind): boolean {
  switch (kind) {
    case "holding":
      return d.holdings().kind !== "none";
    case "deal":
      return d.deal() !== null;
    case "fund":
      return d.funds().match.kind !== "none" || d.fundPhrase() !== null;
    case "person":
      return d.person().kind !== "none";
    case "company":
      return n.domains.length > 0 || d.holdings().kind === "one" || d.deal() !== null;
    case "founder":
      return d.founder().kind !== "none";
    case "research":
      return d.research() !== null;
  }
}

/** The figure a question about one deal asks for: a metric, its valuation, its team. */
function figureAsked(n: Normalised, set: SetRead | null): string | undefined {
  const f = set?.fields.find((x) => x.metric || ["valuation", "round_amount"].includes(x.field))?.field;
  if (f) return f === "round_amount" ? "valuation" : f;
  return TEAM.test(n.folded) ? "team" : undefined;
}
const TEAM = /\bwho (?:founded|started|co founded|cofounded|runs|leads)\b|\bwho (?:is|are|s) (?:the |their |its )?(?:ceo|cto|coo|cfo|founders?|co ?founders?)\b|\b(?:on|in) the team\b|\bteam (?:at|of|behind)\b|\bfounding team\b|\bwho (?:are|is) the founders?\b/;

/** The arguments of a read intent, from what the question names, else what the conversation was about. */
function argsFor(intent: ReadIntent, n: Normalised, d: Directory, memory: Entities, lastFunction: string | null, set: SetRead | null): Recognised {
  const pronounPerson = PERSON_PRONOUN.test(n.folded);
  const pronounThing = THING_PRONOUN.test(n.folded);
  const call = (fn: string, args: Record<string, unknown> = {}): Intent => ({ fn, args });
  switch (intent) {
    case "going_stale": {
      // "Not touched in over a year", "silent for more than 6 months": a floor on the days since the last touch.
      const m = /\b(?:in|for) (?:over|more than|longer than|at least) (a|an|one|\d+|two|three|six|nine|twelve|eighteen) ?(years?|months?|weeks?|days?)\b|\b(?:over|more than) (a|an|one|\d+|two|three|six|nine|twelve) ?(years?|months?|weeks?|days?) (?:ago|since)\b/.exec(n.folded);
      // "The 5 I haven't spoken to for longest", "who's been quiet the longest": longest silent first.
      const longest = /\blongest\b|\bquietest\b|\bmost days\b/.test(n.folded);
      const top = TOP_N.exec(n.folded) ?? /\b(?:the|which|what|those) (\d{1,2}|two|three|four|five|ten)\b/.exec(n.folded);
      const limit = top ? (Number(top[1] ?? top[2]) || NUMBER_WORDS[top[1] ?? top[2]]) : longest && !/\b(?:who are|which|list)\b|\bpeople\b|\bcontacts\b/.test(n.folded) ? 1 : undefined;
      if (!m) return call(intent, longest ? { longest_silent: true, ...(limit ? { limit } : {}) } : {});
      const count = m[1] ?? m[3];
      const unit = m[2] ?? m[4];
      const k = /^\d+$/.test(count) ? Number(count) : ({ a: 1, an: 1, one: 1, two: 2, three: 3, six: 6, nine: 9, twelve: 12, eighteen: 18 } as Record<string, number>)[count];
      const days = Math.round(k * (/^year/.test(unit) ? 365 : /^month/.test(unit) ? 30 : /^week/.test(unit) ? 7 : 1));
      return call(intent, { min_days: days });
    }
    case "reach_candidates":
    case "list_deals":
      return call(intent);

    case "research_status": {
      const r = d.research();
      if (r) return call(intent, { research_id: r.id });
      if (n.uuids[0]) return call(intent, { research_id: n.uuids[0] });
      return call(intent, memory.research ? { research_id: memory.research.id } : {});
    }

    case "founder_analysis": {
      // "Who founded MosaicTreasury?": its team, as its material names it.
      const teamOf = d.deal();
      if (teamOf && TEAM.test(n.folded) && !/\bscor|\banaly|\bassess/.test(n.folded)) return call("deal_status", { deal: teamOf.id, figure: "team" });
      // "Who's the CEO there": the team of the deal the conversation is about.
      if (!teamOf && memory.deal && pronounThing && TEAM.test(n.folded) && !/\bscor|\banaly|\bassess/.test(n.folded)) return call("deal_status", { deal: memory.deal.id, figure: "team" });
      const f = d.founder();
      if (f.kind === "one") return call(intent, n.uuids.includes(f.founder.id) ? { analysis_id: f.founder.id } : { founder: f.founder.name });
      if (f.kind === "several") return several("analysed founders", "that name", f.names);
      const named = d.anyName();
      if (named && named.includes(" ")) return call(intent, { founder: named });
      if (memory.founder && (pronounPerson || !named)) return call(intent, { analysis_id: memory.founder.id });
      const company = d.deal()?.name ?? (d.holdings().kind === "one" ? (d.holdings() as { name: string }).name : null);
      if (company) {
        return {
          clarify: `Which founder of ${company}? Founder analyses are found by the founder's name: ask "what score did founder <full name> get?". To start one: "analyze founder <full name> of ${company}". Nothing was started.`,
        };
      }
      return call(intent, {});
    }

    case "fund_positions": {
      const f = d.funds();
      // "Fund II" where both the firm's own funds and its LP funds have one, and nothing says which: asked back.
      const own = d.ownFunds().match;
      if (f.phrase && f.match.kind === "one" && f.match.partial && own.kind === "one" && !LP_WORDS.test(n.folded)) {
        return { clarify: `${f.phrase} could be your own fund ${own.name} (its portfolio companies) or your LP position in ${f.match.name}. Which one?` };
      }
      // "Bluewater Fund II" is a fund raising in the pipeline, not an LP position.
      const deal = d.deal();
      if (deal && f.match.kind === "none" && (!f.phrase || canon(deal.name).includes(canon(f.phrase)))) return call("deal_status", { deal: deal.id });
      // "The Northlight fund they're raising": a fund raising in the pipeline named by its brand.
      const byBrand = f.match.kind === "none" ? d.names.deals().filter((x) => /\bfund\b/i.test(x.name) && d.words.includes(canon(x.name).split(" ")[0])) : [];
      if (byBrand.length === 1) return call("deal_status", { deal: byBrand[0].id });
      // "Which fund holds Relay Robotics": a portfolio company's funds are in its positions.
      const holding = d.holdings();
      if (f.match.kind === "none" && holding.kind === "one" && /\b(?:which|what) (?:of our )?funds?\b|\bin which funds?\b/.test(n.folded)) return call("portfolio_company", { company: holding.name });
      // A phrase inside one fund's name ("Fund II") goes as said, so the answer says what it was read as.
      if (f.match.kind === "one") return call(intent, { fund: f.match.partial && f.phrase ? f.phrase : f.match.name });
      // Several funds named in full: every position, with totals (they are all in it).
      if (f.match.kind === "several") return f.whole ? call(intent, {}) : several("of your LP funds", f.phrase ?? "that", f.match.names);
      if (f.phrase) return call(intent, { fund: f.phrase });
      if (pronounThing && memory.fund) return call(intent, { fund: memory.fund.name });
      // "IRR of Acme Robotics": no fund of that name, said so, rather than the whole book as if it were the answer.
      const other = d.holdings().kind === "one" ? (d.holdings() as { name: string }).name : d.deal()?.name;
      if (other) return call(intent, { fund: other });
      // A name that is no LP fund: a fund raising in the pipeline by its brand ("the Northlight fund"), else said not to be held.
      const named = d.anyName();
      if (named) {
        const brand = canon(named).split(" ")[0];
        const raising = d.names.deals().filter((x) => canon(x.name).split(" ")[0] === brand);
        if (raising.length === 1) return call("deal_status", { deal: raising[0].id });
        return call(intent, { fund: named });
      }
      return call(intent, {});
    }

    case "who_knows": {
      // "Apart from me, who knows...": the teammates' paths only.
      if (/\b(?:apart from|other than|besides|except(?: for)?|excluding|not counting|aside from|leaving out) (?:me|myself)\b|\bnot me\b|\bbesides myself\b/.test(n.folded)) {
        const read = argsFor(intent, { ...n, folded: n.folded.replace(/\b(?:apart from|other than|besides|except(?: for)?|excluding|not counting|aside from|leaving out) (?:me|myself)\b|\bnot me\b/g, " ") }, d, memory, lastFunction, set);
        return read && "fn" in read && read.fn === "who_knows" ? { ...read, args: { ...read.args, exclude_me: true } } : read;
      }
      const teamOf = d.deal();
      if (teamOf && TEAM.test(n.folded)) return call("deal_status", { deal: teamOf.id, figure: "team" });
      if (n.emails[0]) return call(intent, { person: n.emails[0] });
      if (n.linkedin) return call(intent, { person: n.linkedin });
      if (n.domains[0]) return call(intent, { company: n.domains[0] });
      const h = d.holdings();
      if (h.kind === "one") return call(intent, { company: h.name });
      const deal = d.deal();
      if (deal) return call(intent, { company: deal.domain ?? deal.name });
      const at = d.companyPhrase();
      const p = d.person();
      // "Yara Khan at Abara Quinn": the person, with their company as said.
      if (p.kind === "one") return call(intent, { person: p.person.identifier, ...(at ? { company: at } : {}) });
      if (at) return call(intent, { company: at });
      if (p.kind === "several") return several("people in your shared network", p.first, p.names);
      if (h.kind === "several") return several("portfolio companies", "that", h.names);
      const to = d.targetPhrase();
      if (to) return call(intent, { company: to });
      if (pronounPerson && memory.person) return call(intent, { person: memory.person.id ?? memory.person.name });
      if (memory.company && (pronounThing || !d.anyName())) return call(intent, { company: memory.company.domain ?? memory.company.name });
      const named = d.anyName();
      return call(intent, named ? { company: named } : {});
    }

    case "contact_warmth": {
      if (n.emails[0]) return call(intent, { contact: n.emails[0] });
      if (n.linkedin) return call(intent, { contact: n.linkedin });
      const p = d.person();
      if (p.kind === "one") return call(intent, { contact: p.person.identifier });
      if (p.kind === "several") return several("people in your shared network", p.first, p.names);
      const named = d.anyName();
      if (memory.person && (pronounPerson || !named)) return call(intent, { contact: memory.person.id ?? memory.person.name });
      return call(intent, named ? { contact: named } : {});
    }

    case "portfolio_company": {
      const metric = set?.fields.find((f) => f.metric)?.field;
      // A metric beyond the three every answer shows is asked for by name.
      const extra = metric && !["arr", "runway_months", "monthly_burn"].includes(metric) ? { metric } : {};
      const h = d.holdings();
      if (h.kind === "one") return call(intent, { company: h.name, ...extra });
      if (h.kind === "several") return several("portfolio companies", "that", h.names);
      // A deal is not a portfolio company: what its own material states, said as such.
      const deal = d.deal();
      if (deal) return call("deal_status", { deal: deal.id, figure: metric ?? "arr" });
      // An LP fund named, and no company: the fund's figures ("how much cash has Redwood sent back").
      const lp = d.funds().match;
      const fundFigures = [...new Set((set?.fields ?? []).filter((f) => f.kinds.includes("positions")).map((f) => f.field))];
      if (lp.kind === "one" && fundFigures.length) return call("fund_positions", { fund: lp.name, figures: fundFigures });
      const named = d.anyName();
      const remembered = memory.holding?.name ?? memory.company?.name;
      if (memory.deal && !memory.holding && (pronounThing || !named)) return call("deal_status", { deal: memory.deal.id, figure: metric ?? "arr" });
      if (remembered && (pronounThing || !named)) return call(intent, { company: remembered, ...extra });
      return call(intent, named ? { company: named, ...extra } : {});
    }

    case "deal_status": {
      const deal = d.deal();
      const figure = figureAsked(n, set);
      if (deal) return call(intent, { deal: deal.id, ...(figure ? { figure } : {}) });
      if (n.uuids[0]) return call(intent, { deal: n.uuids[0] });
      if (n.domains[0]) return call(intent, { deal: n.domains[0] });
      // (A portfolio company's stage or status is its holding's, not a deal's: "what stage is Lumen Exchange at?")
      const held = d.holdings();
      if (held.kind === "one") return call("portfolio_company", { company: held.name });
      const named = d.anyName();
      if (!named || pronounThing) {
        // "What's the status?" right after starting a research run or a founder analysis is about that run.
        if (memory.research && (lastFunction === "start_research" || lastFunction === "research_status")) return call("research_status", { research_id: memory.research.id });
        if (memory.founder && (lastFunction === "start_founder_analysis" || lastFunction === "founder_analysis")) return call("founder_analysis", { analysis_id: memory.founder.id });
        if (memory.deal) return call(intent, { deal: memory.deal.id });
      }
      return named ? call(intent, { deal: named }) : call("list_deals");
    }
  }
}

/** A question that only names something ("and Bolt Payments?"): the last question again, or what that thing is. */
function followUp(d: Directory, lastFunction: string | null, n: Normalised, set: SetRead | null, memory?: Memory): Recognised {
  const h = d.holdings();
  // "When did we first invest in Nimbus Grid?" then "and Nimbus Pay?": the same figures of the other company.
  const lastQuery = memory?.last?.fn === "query" ? (memory.last.args as Query) : null;
  if (h.kind === "one" && lastQuery?.kind === "holdings" && lastQuery.name && lastQuery.show?.length) return { fn: "query", args: { ...lastQuery, name: h.name } };
  if (h.kind === "one" && lastQuery?.kind === "metrics" && lastQuery.name) return { fn: "query", args: { ...lastQuery, name: h.name } };
  const deal = d.deal();
  const fund = d.funds().match;
  const asLast = (fn: string) => lastFunction === fn;
  const figure = figureAsked(n, set);
  if (h.kind === "one" && (asLast("portfolio_company") || !deal)) return { fn: "portfolio_company", args: { company: h.name } };
  if (deal) return { fn: "deal_status", args: { deal: deal.id, ...(figure ? { figure } : {}) } };
  if (fund.kind === "one") {
    // "And on Kinetic?" after a fund's figure: the same figure of the other fund.
    const lastFigures = memory?.last?.fn === "fund_positions" ? (memory.last.args as { figures?: unknown }).figures : undefined;
    if (Array.isArray(lastFigures) && lastFigures.length) return { fn: "fund_positions", args: { fund: fund.name, figures: lastFigures } };
    if ((lastQuery?.kind === "positions" || lastQuery?.kind === "marks") && lastQuery.name) return { fn: "query", args: { ...lastQuery, name: fund.name } };
    return { fn: "fund_positions", args: { fund: fund.name } };
  }
  if (asLast("contact_warmth") || asLast("who_knows")) {
    const p = d.person();
    if (p.kind === "one") return asLast("who_knows") ? { fn: "who_knows", args: { person: p.person.identifier } } : { fn: "contact_warmth", args: { contact: p.person.identifier } };
    if (p.kind === "several") return several("people in your shared network", p.first, p.names);
  }
  if (h.kind === "several") return several("portfolio companies", "that", h.names);
  return null;
}


/** Reads that answer about people and runs: their own operations, unless people are counted or ranked. */
const NETWORK_AND_RUNS = new Set<ReadIntent>(["going_stale", "reach_candidates", "contact_warmth", "founder_analysis", "research_status", "who_knows"]);

/** Whether a set read is a question about several records (not one record, not nothing). */
function isSetQuestion(set: SetRead): boolean {
  const s = set.signals;
  if (s.includes("aggregate") || s.includes("order") || s.includes("top") || s.includes("threshold") || s.includes("follow-up")) return true;
  // A filter or a noun over a kind, without one named record of it ("deals at IC", "fintech deals", "our portfolio").
  return (s.includes("filter") || s.includes("noun") || s.includes("dates")) && (set.named === null || s.includes("filter"));
}

/**
 * One record named, and figures of it asked ("silverline tvpi", "what did we pay for Quill Pay",
 * "pre-money on KeystoneLedger?"): the query of that record showing those figures, so a lookup and
 * a list read the same fields from the same services and say them alike.
 */
function oneRecord(set: SetRead | null, d: Directory, n: Normalised, memory: Memory): Intent | null {
  // A fund named is a filter of the set read too: only a plural, a ranking, a total or dates make it a set.
  if (!set || set.signals.some((x) => x !== "filter")) return null;
  const asked = (kind: RecordKind) => [...new Set(set.fields.filter((f) => f.kinds.includes(kind)).map((f) => f.field))];
  const lp = d.funds().match;
  if (lp.kind === "one" && (set.query.kind === "positions" || set.query.kind === "cashflows")) {
    const show = asked("positions");
    // A phrase inside one fund's name goes as said ("Fund II"), so the answer says what it was read as.
    const phrase = d.funds().phrase;
    if (show.length) return asIntent({ kind: "positions", name: lp.partial && phrase ? phrase : lp.name, show });
  }
  const h = d.holdings();
  if (h.kind === "one" && (set.query.kind === "holdings" || set.query.kind === "metrics")) {
    const show = asked("holdings");
    if (show.length) return asIntent({ kind: "holdings", name: h.name, show });
  }
  const deal = d.deal();
  if (deal && set.query.kind === "deals") {
    const show = asked("deals").filter((f) => f !== "created");
    if (show.length) return asIntent({ kind: "deals", name: deal.name, show });
  }
  // Nothing named: "its TVPI?", "what are they raising?", "pre-money?" are of the record the conversation is about.
  // (A figure's own words, "at what pre", name no record.)
  const cueWords = new Set(set.fields.flatMap((f) => (f.re.exec(n.folded)?.[0] ?? "").split(" ")));
  const otherName = d.anyName() && !canon(d.anyName()!).split(" ").every((w) => cueWords.has(w));
  if (lp.kind !== "none" || h.kind !== "none" || deal || otherName && !THING_PRONOUN.test(n.folded)) return null;
  const lastKind = memory.last?.fn === "query" ? (memory.last.args as Query).kind : memory.last?.fn;
  const e = memory.entities;
  const byKind: [RecordKind, string | undefined, string[]][] = [
    ["positions", e.fund?.name, ["positions", "fund_positions", "marks", "cashflows"]],
    ["holdings", e.holding?.name, ["holdings", "portfolio_company", "metrics"]],
    ["deals", e.deal?.name, ["deals", "deal_status"]],
  ];
  const ordered = [...byKind].sort((a, b) => Number(b[2].includes(lastKind ?? "")) - Number(a[2].includes(lastKind ?? "")));
  for (const [kind, name] of ordered) {
    const show = asked(kind).filter((f) => f !== "created");
    if (name && show.length) return asIntent({ kind, name, show });
  }
  return null;
}

/**
 * Several records of one kind named side by side ("lumen exchange vs cobalt market multiple",
 * "nav of silverline vs halcyon", "EmberRoute vs GarnetFleet: how much is each raising"): the
 * query of those records, the figures asked first for each.
 */
function compared(set: SetRead | null, d: Directory, n: Normalised): Intent | null {
  if (!set || set.signals.some((x) => x === "threshold" || x === "dates")) return null;
  // A total or an average of named records' one figure ("acme and quill pay combined"); other aggregates are the set's.
  const agg = set.query.aggregate;
  const total = set.signals.includes("aggregate") ? (agg === "sum" || agg === "avg" ? agg : null) : TOTAL_SAID.test(n.folded) ? "sum" : null;
  if (set.signals.includes("aggregate") && !total) return null;
  const ofEach = (kind: RecordKind, names: string[], show: string[]): Intent | null =>
    show.length === 1 && total ? { fn: "query", args: { kind, names, aggregate: total, field: show[0] } } : set.signals.includes("aggregate") ? null : { fn: "query", args: { kind, names, show } };
  const asked = (kind: RecordKind) => [...new Set(set.fields.filter((f) => f.kinds.includes(kind)).map((f) => f.field))];
  const sideBySide = COMPARE.test(n.folded) || /\b(?:or|and)\b/.test(n.folded);
  if (!sideBySide) return null;
  // Records named where a negation governs are left out of a set, not compared ("LP funds except Halcyon and Redwood").
  const negated = ` ${canon(negationScopes(n.folded).negated)} `;
  const saidNegated = (names: string[]) => names.some((x) => negated.includes(` ${canon(x).split(" ")[0]} `));
  const holdings = d.holdingsSaid();
  if (holdings.length >= 2 && !saidNegated(holdings)) {
    const show = asked("holdings");
    return ofEach("holdings", holdings, show.length ? show : ["invested", "valuation", "multiple"]);
  }
  // LP funds side by side: each named at least by its brand ("redwood or atlas bridge").
  const brands = new Set(d.words);
  const byBrand = d.names.lpFunds().filter((f) => brands.has(canon(f).split(" ")[0]));
  const lp = d.funds();
  const funds = byBrand.length >= 2 ? byBrand : lp.match.kind === "several" ? lp.match.names : [];
  // (Not when the question is about companies or deals: "holdings not in Fund I or Fund II" names the firm's own funds.)
  // (LP funds said by their brands are LP funds whatever else the question says: "performing better on TVPI, silverline or northstar".)
  if (funds.length >= 2 && funds.length <= 4 && (byBrand.length >= 2 || (set.query.kind !== "holdings" && set.query.kind !== "deals")) && !saidNegated(funds)) {
    // "Distributions to date" of funds side by side (no dates): the position's figure the flows add up to.
    const flow = FLOW_FIELD.find(([re]) => re.test(n.folded))?.[1];
    const show = asked("positions").length ? asked("positions") : flow ? [flow] : [];
    // "Each and together", "combined": one figure of each and their total (per currency; pooled or refused when it does not add).
    return ofEach("positions", funds, show.length ? show : ["tvpi", "dpi", "irr", "nav"]);
  }
  const deals = d.dealsSaid();
  if (deals.length >= 2 && !saidNegated(deals)) {
    const show = asked("deals").filter((f) => f !== "created");
    return ofEach("deals", deals, show.length ? show : ["score", "round_amount"]);
  }
  return null;
}

/** Words that ask for the total of figures named side by side. */
const TOTAL_SAID = /\btotal\b|\bsum\b|\bcombined\b|\baltogether\b|\btogether\b|\bin total\b|\badded up\b/;

/** One record's figures: its own read (a fund's position, a company's metrics, a deal's status) with the figures asked first; other fields through the query. */
function asIntent(q: Query & { name: string; show: string[] }): Intent {
  if (q.kind === "positions") return { fn: "fund_positions", args: { fund: q.name, figures: q.show } };
  if (q.kind === "deals") return { fn: "deal_status", args: { deal: q.name, figure: q.show[0] } };
  const metrics = q.show.filter((f) => !["invested", "valuation", "multiple", "ownership", "investment_date"].includes(f));
  if (q.kind === "holdings" && metrics.length === q.show.length) return { fn: "portfolio_company", args: { company: q.name, metric: q.show[0], figures: q.show } };
  return { fn: "query", args: q as unknown as Record<string, unknown> };
}

/** The operation for a query: the established single-record reads where they say it all, else `query`. */
function operationFor(q: Query): Intent {
  const keys = Object.keys(q).filter((k) => k !== "kind" && k !== "show");
  if (q.kind === "deals" && keys.length === 0) return { fn: "list_deals", args: {} };
  if (q.kind === "positions" && keys.every((k) => k === "fund")) return { fn: "fund_positions", args: q.fund ? { fund: q.fund } : {} };
  if (q.kind === "holdings" && keys.length === 1 && q.name && !q.show?.length) return { fn: "portfolio_company", args: { company: q.name } };
  return { fn: "query", args: q as unknown as Record<string, unknown> };
}

/** Respelling over what the reader knows and what the firm's records call things. */
function spellerFor(tools: AskTools) {
  const words = new Set<string>([...LEXICON_WORDS, ...CUE_WORDS]);
  const nameWords = new Set<string>();
  const names = tools.names;
  for (const name of [...names.holdings().map((h) => h.name), ...names.deals().map((d) => d.name), ...names.ownFunds(), ...names.lpFunds(), ...names.sectors()]) {
    // "MosaicTreasury" is also "mosaic" and "treasury": a misspelt part is respelt to the part.
    for (const w of canon(name.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")).split(" ").concat(canon(name).split(" "))) if (w.length >= 4) nameWords.add(w);
  }
  return speller(words, nameWords, (w) => STOP.has(w));
}

/** What the question asks, with its arguments; a question back when it is ambiguous; null when it is not understood. */
export function recognise(tools: AskTools, question: string, memory: Memory): Recognised {
  const n = normalise(question, spellerFor(tools));
  const d = directory(tools.names, n);
  const knownCompany = (phrase: string) => {
    const p = canon(phrase);
    const deal = d.deal();
    if (deal && canon(deal.name) === p) return deal.name;
    const h = d.holdings();
    return h.kind === "one" && canon(h.name).startsWith(p) ? h.name : null;
  };
  const lastFunction = memory.last?.fn ?? null;

  const action = actionRequested(n, knownCompany);
  if (action && !("clarify" in action && action.readFirst)) return action;

  // "How much did Tiger Global invest in Acme?": another investor's money is not in the firm's records; its own is.
  const investor = /\b(?:how much did|how much has|how much have|what did) ((?:\p{Lu}[\p{L}&.-]* ?){1,4})(?:invest|put|pay)/u.exec(n.raw);
  const holding = d.holdings();
  if (investor && holding.kind === "one" && !/^(?:we|you|i|the firm|our firm|us)$/i.test(investor[1].trim())) {
    return {
      fn: "portfolio_company",
      args: { company: holding.name },
      preface: `What ${investor[1].trim()} invested in ${holding.name} is not in your records: they hold your firm's own positions, which are these.\n`,
    };
  }

  // "Anything from founder updates still waiting on review?": the figures held back from the book, by company.
  if (holding.kind !== "one" && REVIEW_WAIT.test(n.folded) && REVIEWED_THINGS.test(n.folded)) return { fn: "updates_for_review", args: {} };
  // "What did Acme report last month?", "Acme's latest update": figures from its investor updates, with their quotes.
  if (holding.kind === "one" && (UPDATE_WORDS.test(n.folded) || REVIEW_WAIT.test(n.folded)) && !FIRST_STATEMENT.test(n.folded)) {
    const range = datesIn(n.folded, tools.caller.today)?.range;
    return { fn: "investor_updates", args: { company: holding.name, ...(range?.from ? { since: range.from } : {}), ...(range?.to ? { until: range.to } : {}) } };
  }
  // The updates of a company the records do not hold: said to be no portfolio company.
  const unheld = holding.kind === "none" && UPDATE_WORDS.test(n.folded) && !d.deal() && d.funds().match.kind === "none" ? d.properName() : null;
  if (unheld) return { fn: "portfolio_company", args: { company: unheld } };
  const heard = hear(n.folded, (kind) => has(d, n, kind));
  const set = readSet({ n, d, today: tools.caller.today, memory });
  const datesSaid = datesIn(n.folded, tools.caller.today);
  const namesSaid = d.holdings().kind !== "none" || !!d.deal() || d.funds().match.kind !== "none";
  const again = n.uuids.length ? null : (inAnotherCurrency(n, memory) ?? sameFiguresOfAnother(d, n, memory, set?.fields.length ?? 0) ?? asShareOfLast(n, memory) ?? combinedOfLast(d, n, memory) ?? otherFiguresOfLast(n, memory, set?.fields ?? [], !!set?.signals.includes("noun"), namesSaid, !!datesSaid) ?? sameQuestionOtherDates(n, memory, datesSaid?.range ?? null, datesSaid?.matched.trim() ?? null) ?? (datesSaid ? null : figuresOfListed(d, n, memory, set?.fields ?? [], namesSaid)));
  if (again) return again;
  const top = heard[0]?.intent;
  // (Relationships going stale are their own read, counted or not: "how many of my relationships are going stale".)
  // (A gap since the last touch said in full, "not in touch for over a year", is over every contact, not only those overdue.)
  const gapOverAll = set?.query.where?.some((w) => w.field === "days_since_last_touch") && !/\bstale\b|\bgoing cold\b|\boverdue\b|\bneglect/.test(n.folded);
  const ranksPeople = set?.query.kind === "persons" && (top !== "going_stale" || gapOverAll) && (set.signals.includes("aggregate") || set.signals.includes("order") || set.signals.includes("top"));
  // Research runs asked about by topic or as a list are read as records; a run's status by its id or the conversation.
  const readsResearch = set?.query.kind === "research" && top === "research_status" && !d.research() && !n.uuids.length && !/\bstatus\b|\bprogress\b/.test(n.folded);
  if (top && NETWORK_AND_RUNS.has(top) && !ranksPeople && !readsResearch) return argsFor(top, n, d, memory.entities, lastFunction, set);

  // A record named that the records do not hold: said so, never answered with others like it.
  // (A research topic or words to find in documents are no record's name: "the research on payroll APIs".)
  const aboutTopic = set?.query.kind === "research" || set?.query.kind === "documents" || set?.query.kind === "persons" || top === "research_status";
  const unfound = n.uuids.length || aboutTopic ? null : unfoundRecord(n, d);
  if (unfound) return { fn: "portfolio_company", args: { company: unfound } };
  const side = n.uuids.length ? null : compared(set, d, n);
  if (side) return side;
  const one = n.uuids.length ? null : oneRecord(set, d, n, memory);
  if (one) return one;
  // A record named by its id is one record, whatever noun the question uses for it.
  if (set && isSetQuestion(set) && !(n.uuids.length && !set.signals.includes("aggregate"))) {
    return operationFor(set.query);
  }
  if (heard.length) {
    const read = argsFor(heard[0].intent, n, d, memory.entities, lastFunction, set);
    if (action && read && "fn" in read && read.fn === "deal_status") {
      // "Analyze Ledgerly" without a website: its status, and how to start a new analysis; "analyze the market": the question back.
      if (!d.deal()) return action;
      return { ...read, note: "Nothing was started: to start a new deal analysis, give the company's website (https://...) or a link to its deck, for example \"analyze https://ledgerly.io\"." };
    }
    return read;
  }
  const known = action ?? followUp(d, lastFunction, n, set, memory);
  if (known) return known;
  // A figure of a company the records do not hold ("the valuation of Stripe"), or how it is doing: said so, with what they hold instead.
  const unknown = set?.fields.some((f) => f.kinds.includes("holdings")) || ABOUT.test(n.folded) ? (d.properName() ?? d.anyName()) : null;
  return unknown && /^\p{Lu}/u.test(unknown) ? { fn: "portfolio_company", args: { company: unknown } } : null;
}

/** Words that ask what a company said in its updates, not what the book holds. */
const UPDATE_WORDS = /\b(?:report(?:ed|s)?|investor updates?|updates?|monthly update|newsletter|told us|said in)\b|\b(?:did|do|have|has) (?!we |i |you |us )(?:[a-z]+ ){1,3}(?:say|said|tell|told|give us|gave us|give|gave|share|shared|send|sent|quote|mention)\b|\b(?:their|its|the|latest|last) (?:[a-z]+ ){0,3}(?:e-?mail|letter|memo)\b/;
/** Figures held back for review ("still waiting on review", "pending approval", "unreviewed"). */
const REVIEW_WAIT = /\b(?:waiting (?:on|for) (?:a |your |my |our )?review|awaiting (?:a |your |my |our )?review|pending (?:review|approval)|needs? (?:a |to be )?review(?:ed)?|unreviewed|not (?:yet )?(?:been )?reviewed|review queue|(?:still|left) to (?:be )?review(?:ed)?)\b/;
const REVIEWED_THINGS = /\b(?:updates?|figures?|numbers|metrics|reported|founders?|pending|queue)\b/;

/** Where a speaker takes back what they started to ask ("burn multiple... no wait, just the runway"). */
const CORRECTION = /(?:^|[\s.,;:!?—–-])(?:(?:no wait|wait no|no sorry|sorry|scratch that|never ?mind|i mean|or rather|actually)\b[\s,:;.!—–-]*)+(?:just |only )?/gi;

/** The question as finally meant: what follows the last self-correction, when something does. */
export function corrected(question: string): string {
  const marks = [...question.matchAll(CORRECTION)].filter((m) => m.index > 0 && /[.,;:!?—–-]\s*$|\.\.\.\s*$/.test(question.slice(0, m.index + 1)) || /^\s*(?:no wait|wait no|scratch that|i mean|or rather)/i.test(m[0]));
  const last = marks.at(-1);
  if (!last) return question;
  const rest = question.slice(last.index + last[0].length).trim();
  return rest.split(/\s+/).length >= 2 ? rest : question;
}

/**
 * "Convert Nimbus Pay's ARR into US dollars", "Fathom Robotics' burn in USD": a figure of one named
 * record asked in another currency. The records keep no exchange rates: said first, and the figure
 * follows in the currency it is recorded in (never the records that happen to be held in that currency).
 */
function conversionAsked(question: Normalised, intent: Intent, answerText: string): string {
  if (/keep no exchange rates/.test(answerText) || /keep no exchange rates/.test(intent.preface ?? "")) return "";
  const one = intent.fn === "portfolio_company" || (intent.fn === "query" && typeof intent.args.name === "string") || intent.fn === "fund_positions";
  const converting = /\bconvert(?:s|ed|ing)?\b(?! ?(?:ible|notes?))|\bexchange rates?\b|\bfx rates?\b/.test(question.folded) || (one && /\b(?:in|into|to) (?:us |u s )?(?:dollars?|usd|euros?|eur|pounds?|gbp|sterling)\b/.test(question.folded));
  return converting ? "Your records keep no exchange rates, so I never convert between currencies (a converted figure would be a guess): each figure is given in the currency it is recorded in.\n" : "";
}

/** "(drift read as Drift Freight, ...)": a short name the directory took as the one company of that name still held. */
function heldReadAs(names: AskNames, question: Normalised, answerText: string): string {
  const list = names.holdings();
  const q = ` ${canon(question.folded)} `;
  const firstOf = (h: HoldingName) => canon(h.name).split(" ")[0];
  for (const h of list) {
    if (!h.active || q.includes(` ${canon(h.name)} `) || !answerText.includes(h.name) || !q.includes(` ${firstOf(h)} `)) continue;
    const alike = list.filter((o) => o !== h && firstOf(o) === firstOf(h) && !q.includes(` ${canon(o.name)} `));
    if (alike.length === 0 || alike.some((o) => o.active)) continue;
    return `("${firstOf(h)}" read as ${h.name}, held today: ${listing(alike.map((o) => o.name))} ${alike.length === 1 ? "is" : "are"} exited or written off.)\n`;
  }
  return "";
}

export const builtinAskEngine: AskEngine = {
  name: "builtin",
  async answer(asked: string, memory: Memory, tools: AskTools) {
    // (A correction keeps what follows it; "that month" is the month the last question was about.)
    const question = withPeriodOfLast(corrected(asked), memory);
    const intent = recognise(tools, question, memory);
    if (!intent) return { engine: "builtin", text: HELP, answers: [] };
    if ("clarify" in intent) return { engine: "builtin", text: intent.clarify, answers: [] };
    // "What management fees has X charged us": a figure the records do not keep, and no other asked
    // beside it: said so, with what they do keep, never another figure's total in its place.
    const plain = normalise(question);
    const unheldFigures = UNHELD.filter(([re, , figure]) => figure && re.test(plain.folded)).map(([re, what]) => `${what} ("${re.exec(plain.folded)![0]}")`);
    // (Documents that mention the words are a search for them, not the figure.)
    const searching = intent.fn === "query" && intent.args.kind === "documents";
    if (unheldFigures.length && !searching && !FIELD_CUES.some((c) => c.re.test(plain.folded))) {
      const named = [intent.args.fund, intent.args.company, intent.args.name].find((x) => typeof x === "string");
      return { engine: "builtin", text: `${listing(unheldFigures).replace(/^./, (c) => c.toUpperCase())}${named ? ` of ${named}` : ""}: not in your records (Dealgraph does not record ${unheldFigures.length === 1 ? "it" : "them"}), so I can't give ${unheldFigures.length === 1 ? "that figure" : "those figures"}. What your records keep of an LP fund: its commitment, capital calls, distributions, NAV marks, TVPI, DPI and IRR; of a portfolio company: what was invested, its valuation and its reported actuals.`, answers: [] };
    }
    // (A deal's post-money is its pre-money and the round together: a figure of its own, not the pre-money.)
    if (intent.fn === "deal_status" && /\bpost[ -]?money\b/.test(plain.folded)) intent.args.figure = "post_money";
    const answer = await tools.call({ fn: intent.fn, args: intent.args });
    // What the answer did not take into account is said first, never silently dropped.
    const unread = unreadParts(normalise(question, spellerFor(tools)), `${answer.text} ${JSON.stringify(intent.args)}`);
    const back = unread.length ? `${saidBack(unread)}\n` : "";
    // (Each named in the question's own words too, so the caller sees which of its words were not answered.)
    const unheld = UNHELD.filter(([re]) => re.test(plain.folded)).map(([re, what]) => { const said = re.exec(plain.folded)![0]; return what.includes(said) || !/^[\w -]{1,30}$/.test(said) || said.split(" ").length > 3 ? what : `${what} ("${said}")`; });
    const missing = unheld.length ? `${listing(unheld).replace(/^./, (c) => c.toUpperCase())}: not in your records (Dealgraph does not record ${unheld.length === 1 ? "it" : "them"}), so I can't answer that part.\n` : "";
    const readAs = heldReadAs(tools.names, plain, answer.text);
    const noRates = conversionAsked(plain, intent, answer.text);
    return { engine: "builtin", text: `${missing}${back}${readAs}${noRates}${intent.preface ?? ""}${answer.text}${intent.note ? `\n\n${intent.note}` : ""}`, answers: [answer] };
  },
};
