// The built-in engine: deterministic, offline. It normalises the question (ask.text.ts), checks
// whether it explicitly asks to start an action (ask.imperative.ts), hears which read it asks for
// by families of cues (ask.intents.ts), and finds what it names in the firm's own data
// (ask.directory.ts); follow-ups ("how warm is she?", "and its runway?") resolve against what the
// conversation last talked about. When what it matched is ambiguous it says so and asks.
import { directory, type Directory } from "./ask.directory.ts";
import { actionRequested } from "./ask.imperative.ts";
import { hear, PERSON_PRONOUN, THING_PRONOUN, type ReadIntent, type SubjectKind } from "./ask.intents.ts";
import { canon } from "./ask.match.ts";
import { listing, normalise, type Normalised } from "./ask.text.ts";
import type { AskContext, Entities } from "./ask.types.ts";

/** `note`: said after the function's answer (what was not done, and how to do it). */
export type Intent = { fn: string; args: Record<string, unknown>; note?: string };
export type Recognised = Intent | { clarify: string } | null;

export const CAPABILITIES = [
  "who knows someone at a company, or a person (\"who do we know at Stripe?\", \"introduce me to Dana Scully\")",
  "how warm a contact is (\"how close am I to Dana?\")",
  "which of your relationships are going stale (\"who haven't I talked to in a while?\")",
  "founders you can reach through people you know well",
  "a deal's status and score (\"what's the status of Ledgerly?\"), or the newest deals in the pipeline",
  "a portfolio company's runway, ARR and burn (\"what is Acme Robotics' runway?\", \"how's Acme doing?\")",
  "a fund's TVPI, DPI and IRR (\"TVPI of Alpha Fund I?\")",
  "a founder analysis already made (\"what score did founder Jane Doe get?\") and a research run's status (by its id)",
  "with a read-and-write key, when you ask to start one: a deal analysis of a website (\"analyze https://ledgerly.io\"), a founder analysis (\"analyze founder Jane Doe of Ledgerly\") or a research run (\"research payroll APIs in Europe\")",
];

export const HELP = `I did not understand that question. I can answer:\n${CAPABILITIES.map((c) => `- ${c}`).join("\n")}`;

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

/** The arguments of a read intent, from what the question names, else what the conversation was about. */
function argsFor(intent: ReadIntent, n: Normalised, d: Directory, memory: Entities, lastFunction: string | null): Recognised {
  const pronounPerson = PERSON_PRONOUN.test(n.folded);
  const pronounThing = THING_PRONOUN.test(n.folded);
  const call = (fn: string, args: Record<string, unknown> = {}): Intent => ({ fn, args });
  switch (intent) {
    case "going_stale":
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
      // A phrase inside one fund's name ("Fund II") goes as said, so the answer says what it was read as.
      if (f.match.kind === "one") return call(intent, { fund: f.match.partial && f.phrase ? f.phrase : f.match.name });
      // Several funds named in full: every position, with totals (they are all in it).
      if (f.match.kind === "several") return f.whole ? call(intent, {}) : several("of your LP funds", f.phrase ?? "that", f.match.names);
      if (f.phrase) return call(intent, { fund: f.phrase });
      if (pronounThing && memory.fund) return call(intent, { fund: memory.fund.name });
      // "IRR of Acme Robotics": no fund of that name, said so, rather than the whole book as if it were the answer.
      const other = d.holdings().kind === "one" ? (d.holdings() as { name: string }).name : d.deal()?.name;
      return call(intent, other ? { fund: other } : {});
    }

    case "who_knows": {
      if (n.emails[0]) return call(intent, { person: n.emails[0] });
      if (n.linkedin) return call(intent, { person: n.linkedin });
      if (n.domains[0]) return call(intent, { company: n.domains[0] });
      const h = d.holdings();
      if (h.kind === "one") return call(intent, { company: h.name });
      const deal = d.deal();
      if (deal) return call(intent, { company: deal.domain ?? deal.name });
      const at = d.companyPhrase();
      if (at) return call(intent, { company: at });
      const p = d.person();
      if (p.kind === "one") return call(intent, { person: p.person.identifier });
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
      const h = d.holdings();
      if (h.kind === "one") return call(intent, { company: h.name });
      if (h.kind === "several") return several("portfolio companies", "that", h.names);
      const named = d.anyName();
      const remembered = memory.holding?.name ?? memory.company?.name ?? memory.deal?.name;
      if (remembered && (pronounThing || !named)) return call(intent, { company: remembered });
      return call(intent, named ? { company: named } : {});
    }

    case "deal_status": {
      const deal = d.deal();
      if (deal) return call(intent, { deal: deal.id });
      if (n.uuids[0]) return call(intent, { deal: n.uuids[0] });
      if (n.domains[0]) return call(intent, { deal: n.domains[0] });
      const named = d.anyName() ?? (d.holdings().kind === "one" ? (d.holdings() as { name: string }).name : null);
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
function followUp(d: Directory, lastFunction: string | null): Recognised {
  const h = d.holdings();
  const deal = d.deal();
  const fund = d.funds().match;
  const asLast = (fn: string) => lastFunction === fn;
  if (h.kind === "one" && (asLast("portfolio_company") || !deal)) return { fn: "portfolio_company", args: { company: h.name } };
  if (deal) return { fn: "deal_status", args: { deal: deal.id } };
  if (fund.kind === "one") return { fn: "fund_positions", args: { fund: fund.name } };
  if (asLast("contact_warmth") || asLast("who_knows")) {
    const p = d.person();
    if (p.kind === "one") return asLast("who_knows") ? { fn: "who_knows", args: { person: p.person.identifier } } : { fn: "contact_warmth", args: { contact: p.person.identifier } };
    if (p.kind === "several") return several("people in your shared network", p.first, p.names);
  }
  if (h.kind === "several") return several("portfolio companies", "that", h.names);
  return null;
}

/** What the question asks, with its arguments; a question back when it is ambiguous; null when it is not understood. */
export function recognise(ctx: AskContext, question: string, memory: Entities, lastFunction: string | null): Recognised {
  const n = normalise(question);
  const d = directory(ctx, n);
  const knownCompany = (phrase: string) => {
    const p = canon(phrase);
    const deal = d.deal();
    if (deal && canon(deal.name) === p) return deal.name;
    const h = d.holdings();
    return h.kind === "one" && canon(h.name).startsWith(p) ? h.name : null;
  };

  const action = actionRequested(n, knownCompany);
  if (action && !("clarify" in action && action.readFirst)) return action;

  const heard = hear(n.folded, (kind) => has(d, n, kind));
  if (heard.length) {
    const read = argsFor(heard[0].intent, n, d, memory, lastFunction);
    if (action && read && "fn" in read && read.fn === "deal_status") {
      // "Analyze Ledgerly" without a website: its status, and how to start a new analysis; "analyze the market": the question back.
      if (!d.deal()) return action;
      return { ...read, note: "Nothing was started: to start a new deal analysis, give the company's website (https://...) or a link to its deck, for example \"analyze https://ledgerly.io\"." };
    }
    return read;
  }
  return action ?? followUp(d, lastFunction);
}
