// The built-in deal engine: deterministic, offline, explainable. It reads the material as units
// (slide titles apart from sentences, boilerplate set aside), files each statement of a company's
// material under the one section it is about (deal-about.ts; a fund's under the sections its words
// or its slide title speak to), and scores a section from the concrete signals (figures, names,
// growth) of the statements it quotes: a score counts only what is quoted. A section the material
// does not speak to is null with a reason, never a guess; material without usable text (image-only
// pages, a font without a usable encoding) is said to be so, and nothing is read from it.
import { COMPANY_SECTIONS, FUND_SECTIONS, readablePages, unreadableAnalysis, type DealAnalysis, type DealEngine, type DealEngineInput, type Evidence, type Section, type SourcePage } from "../deal-engine.ts";
import { companySectionOf, isCover, sectionOfTopic } from "./deal-about.ts";
import { readFacts } from "./deal-facts.ts";
import { feeAndCarry, statedFundTerms, statedTrackRecord } from "./deal-fund-terms.ts";
import { mentionIn, moneyIn } from "./deal-money.ts";
import { describeRaise, isRaiseStatement } from "./deal-round.ts";
import { quotable, readMaterial, topicOfHeading, type Topic, type Unit } from "./deal-text.ts";

// A figure in money: one of the financials' signals, though never alone what makes a statement about them.
const MONEY_FIGURE = /[$€£]\s?\d/;
type Rule = { words?: RegExp; acronyms?: RegExp; signals: [RegExp, number][]; about: string };

// Signals are what a partner would count as substance: a number, a name, a comparison.
const RULES: Record<string, Rule> = {
  team: {
    // Fund teams are partners: general, managing, venture, founding (never "limited partners").
    words: /\b(founder|co-?founder|ceo|cto|coo|team|previously|ex-|former|phd|years of experience|hired|engineers?|(general|managing|venture|founding) partners?|investment committee)\b/i,
    signals: [[/\b(ex-|former(ly)?|previously)\b/i, 15], [/\b(phd|md|mba)\b/i, 10], [/\b\d+\+? years\b/i, 10], [/\b(exit|sold|acquired|ipo)\b/i, 20], [/\b(google|meta|stripe|amazon|apple|microsoft|mckinsey|goldman)\b/i, 10]],
    about: "the team",
  },
  market: {
    words: /\b(market|industry|customers? segment|opportunity|demand|spend)\b/i,
    // Case-sensitive: "Sam" is a founder, "SAM" a market.
    acronyms: /\b(TAM|SAM|SOM)\b/,
    signals: [[/(?:[$€£]\s?\d+(?:[.,]\d+)?\s?(?:b|bn|billion|tn|trillion)\b|\d+(?:[.,]\d+)?\s?(?:bn|billion|trillion)\s?(?:€|\$|£|eur|usd|gbp)?)/i, 25], [/\b(cagr|growing|growth)\b/i, 10], [/\b(TAM|SAM|SOM)\b/, 15]],
    about: "the market (its size, growth or segments)",
  },
  product: {
    words: /\b(product|platform|feature|launch(ed)?|api|app|technology|patent|integrat\w*|workflow|roadmap)\b/i,
    signals: [[/\b(launched|live|in production|shipping|released)\b/i, 15], [/\b(patent|proprietary)\b/i, 15], [/\b(integrat\w+)\b/i, 10], [/\bapi\b/i, 5]],
    about: "the product",
  },
  traction: {
    words: /\b(arr|mrr|revenue|customers?|users|growth|pilots?|contracts?|retention|nrr|gmv|bookings|signed)\b/i,
    signals: [
      [/\b(arr|mrr)\b/i, 15], [/\d+(\.\d+)?\s?%/, 10], [/\b\d[\d,]*\+?\s+(customers|users|clients|companies|firms)\b/i, 15], [/\b(\d+x|tripled|doubled)\b/i, 15], [/\b(retention|nrr)\b/i, 10],
      [/\b\d+\s+(pilots?|paid pilots?|contracts?|lois?|design partners|logos)\b/i, 10],
    ],
    about: "traction (customers, revenue, growth)",
  },
  business_model: {
    // How the company is paid: a price per unit or period, a subscription, a take rate, a licence, usage.
    words:
      /\b(pricing|priced?|subscriptions?|saas|\w+aas|as-a-service|per (seat|user|licen[cs]e|transaction|order|site|location|device|kwh|unit|employee|member|shipment|api call)|per \w+ per (month|year|week|day)|margins?|take rate|fees?|commissions?|licen[cs](e|es|ing)|monetiz\w*|monetis\w*|contract value|acv|ltv|cac|payback|usage-based|pay-as-you-go|revenue share|freemium|charges?)\b/i,
    signals: [
      [/[$€£]\s?\d[\d.,]*\s?[km]?\s*(per|\/)\s*[a-z]+|\bpriced at\s+[$€£]\s?\d/i, 15],
      [/\b(gross margin|margins?)\b/i, 15],
      [/\b(acv|ltv|cac|payback)\b/i, 15],
      [/\b(subscriptions?|recurring|\d+-year contracts?|annual contracts?|licen[cs]e)\b/i, 10],
      [/\b\d+(\.\d+)?\s?%\s*(fee|take rate|commission)|\b(take rate|commission)\b[^.]{0,20}\d+(\.\d+)?\s?%/i, 15],
    ],
    about: "the business model (pricing, revenue model, margins)",
  },
  competition: {
    words: /\b(competitors?|competition|alternatives?|incumbents?|unlike|versus|vs\.?|differentiat\w*|moat|advantage)\b/i,
    signals: [[/\b(unlike|versus|vs\.?)\b/i, 15], [/\b(moat|defensib\w*|network effects?)\b/i, 15], [/\b(competitors?|incumbents?)\b/i, 10], [/\b(we win|win on|differentiat\w*)\b/i, 10]],
    about: "competitors or alternatives",
  },
  financials: {
    words: /\b(burn|runway|revenue|ebitda|profit\w*|cash|forecast|projections?|break-?even|expenses?|p&l)\b/i,
    signals: [
      [/\b(burn|runway)\b/i, 15], [MONEY_FIGURE, 10], [/\b(break-?even|profitab\w*)\b/i, 15], [/\b\d+\s+months\b/i, 10], [/\b(revenue|ebitda|gross profit|net income)\b[^.]{0,40}\d/i, 10],
      [/\b(projected|forecast|plan(?:ned)?|by 20\d{2})\b/i, 10],
    ],
    about: "financials (burn, runway, revenue, projections)",
  },
  round: {
    // Filed by `isRoundStatement`: this company's raise, never someone else's or an earlier round.
    signals: [
      [/\b(raising|raise|seeking|ask)\b.*(\d\s?(k|m|mm|mn|mio\.?|million|bn|billion)(?![a-z])|[$€£]\s?\d)/i, 20],
      [/\b(pre-money|post-money|valuation)\b/i, 15], [/\b(pre-?seed|seed|series [a-e])\b/i, 10], [/\b(use of funds)\b/i, 10], [/\b(lead investor|led by|committed|term sheet)\b/i, 10],
    ],
    about: "this round (the raise, its stage or its valuation)",
  },
  strategy: {
    words: /\b(strategy|thesis|focus|sectors?|stage|geograph\w*|invest(s|ing)? in|target companies)\b/i,
    signals: [[/\b(seed|series a|early[- ]stage|growth)\b/i, 10], [/\b(thesis|focus)\b/i, 15]],
    about: "the fund's strategy",
  },
  fund_terms: {
    words: /\b(fund size|target size|hard cap|management fee|carry|carried interest|gp commit\w*|hurdle|economics|fund terms|key terms)\b/i,
    // Size, fees, carry and the GP's own money: the terms an LP reads first.
    signals: [[/[$€£]\s?\d+(\.\d+)?\s?(m|mm|million|b|bn)\b/i, 15], [/\b\d+(\.\d+)?\s?%\s*(?:management fee|fee|carry|carried interest|hurdle|gp commit\w*)|\b(?:management fee|fee|carry|carried interest|hurdle|gp commit\w*)\s*(?:of|:|is|at)?\s*\d+(\.\d+)?\s?%/i, 15], [/\b(hurdle|gp commit\w*)\b/i, 10], [/\bcarr(y|ied interest)\b/i, 10], [/\bmanagement fee\b/i, 10]],
    about: "the fund's terms (size, fees, carry, GP commitment)",
  },
  portfolio_construction: {
    words: /\b(portfolio construction|initial checks?|check size|reserves?|reserved|follow-?ons?|ownership|number of companies|concentrat\w*)\b/i,
    signals: [[/\b\d+\s*(-|–|to)\s*\d+\s+(companies|investments)\b/i, 20], [/\b(reserves?|reserved|follow-?ons?)\b/i, 10], [/\b\d+(\.\d+)?\s?%\s+ownership\b|\bownership\s+(of\s+)?\d+/i, 15]],
    about: "portfolio construction (check sizes, reserves, ownership)",
  },
  track_record: {
    words: /\b(track record|prior funds?|previous funds?|tvpi|dpi|irr|moic|realized|realised|exits?)\b/i,
    signals: [[/\b(tvpi|dpi|irr|moic)\b/i, 20], [/\b\d+(\.\d+)?\s?x\b/i, 15], [/\b(exits?|realized)\b/i, 10], [/\birr\b[^.]{0,30}?\d+(\.\d+)?\s?%|\d+(\.\d+)?\s?%[^.]{0,10}\birr\b/i, 10]],
    about: "a track record (prior funds' TVPI, DPI or IRR)",
  },
  lp_base: {
    words: /\b(lps?|limited partners?|endowments?|family offices?|funds? of funds|fund-of-funds|pension funds?|anchor (?:lps?|investors?|commitments?)|institutional (?:lps?|investors))\b/i,
    signals: [[/\b(anchor|institutional|endowments?|pension)\b/i, 15], [/\b(committed|commitments?)\b/i, 10], [/\b(family offices?|fund of funds|insurers?|sovereign)\b/i, 10]],
    about: "the LP base",
  },
};

// Slide titles that put a sentence in a section even when its own words do not.
const TOPIC_SECTION: Record<"company" | "fund", Partial<Record<Topic, string>>> = {
  company: { team: "team", market: "market", product: "product", traction: "traction", business_model: "business_model", competition: "competition", financials: "financials" },
  fund: { team: "team", strategy: "strategy", fund_terms: "fund_terms", portfolio_construction: "portfolio_construction", track_record: "track_record", lp_base: "lp_base", investors: "lp_base" },
};
const ROUND_WORDS = /\b(pre-?money|post-?money|valuation|use of funds|SAFE|convertible notes?|lead investor|term sheet)\b/;
const MAX_QUOTES = 5;
// What speaks of the LP base: not the deck calling itself an "LP presentation", nor a partner's past
// employer ("former CIO of a pension fund").
const lpWords = (text: string) => text.replace(/\bLPs?\s+(?:presentation|deck|update|letter|report|meeting)s?\b/gi, "").replace(/\b(?:former(?:ly)?|ex-|previously|prior(?:ly)?)\b[^.;,]*/gi, "");

const reasonFor = (key: string) => `No statement in the material addresses ${RULES[key].about}.`;

/** The sentences of a page, as the engine reads them (titles and boilerplate left out). */
export function sentencesOf(page: SourcePage): string[] {
  return quotable(readMaterial([page])).map((u) => u.text);
}

function evidenceOf(u: Unit): Evidence {
  return { quote: u.text.length > 300 ? `${u.text.slice(0, 297)}...` : u.text, document_id: u.page.documentId, page: u.page.page, ...(u.page.url ? { url: u.page.url } : {}) };
}

/**
 * Quotes the statements that carry a signal (at most five), or, when none does, the first two that
 * address the topic; the score counts each signal once, and only from what is quoted.
 */
function scoreSection(key: string, title: string, filed: Unit[], stated: string[]): Section {
  if (filed.length === 0) return { key, title, score: null, summary: null, evidence: [], unavailable_reason: reasonFor(key) };
  const { signals } = RULES[key];
  const carrying = filed.filter((u) => signals.some(([re]) => re.test(u.text))).slice(0, MAX_QUOTES);
  const quoted = carrying.length ? carrying : filed.slice(0, 2);
  const seen = signals.filter(([re]) => quoted.some((u) => re.test(u.text)));
  const score = Math.min(100, 20 + seen.reduce((sum, [, w]) => sum + w, 0) + Math.min(15, (quoted.length - 1) * 3));
  const strength = score >= 70 ? "well supported" : score >= 45 ? "partly supported" : "thinly supported";
  const n = quoted.length;
  return {
    key,
    title,
    score,
    summary:
      `${title}: ${strength} by ${n} quoted statement${n === 1 ? "" : "s"} (${seen.length} concrete signal${seen.length === 1 ? "" : "s"}).` +
      (stated.length ? ` Stated: ${stated.join(key === "track_record" ? "; " : ", ")}.` : ""),
    evidence: quoted.map(evidenceOf),
    unavailable_reason: null,
  };
}

// What a fund's deck speaks of and a company's does not: its funds, LPs and terms, partners as its
// team, and how it invests (theses, initial tickets, reserves for follow-ons, target ownership).
const FUND_WORDS =
  /\b(fund (i{1,3}|iv|v|[1-5])|limited partners?|\blps?\b|management fee|carried interest|gp commit\w*|fund size|capital call|vintage|(?:general|founding|managing) partners?|investment thesis|initial (?:tickets?|checks?)|reserved for follow-?ons|target ownership|portfolio construction|tvpi|dpi)\b/gi;

export function detectKind(pages: SourcePage[]): "company" | "fund" {
  const text = pages.map((p) => p.text).join(" ");
  return (text.match(FUND_WORDS)?.length ?? 0) >= 3 ? "fund" : "company";
}

/**
 * A fund's deck beyond doubt: four or more different things only a fund's deck speaks of. Such
 * material is read as a fund's even when the submission said "company" (an upload's default):
 * reading a fund's terms as a company's round would report figures the deck does not state.
 */
export function unmistakablyFund(pages: SourcePage[]): boolean {
  const text = pages.map((p) => p.text).join(" ");
  const kinds = new Set((text.match(FUND_WORDS) ?? []).map((w) => w.toLowerCase().replace(/\s+(?:i{1,3}|iv|v|[1-5])$/, "").replace(/s$/, "")));
  // A deck whose first page is titled with a numbered fund ("<Firm> Fund II") is the fund's own: three kinds of fund words then do.
  const titled = pages.length > 0 && FUND_TITLE.test(pages[0].text.trim().split(/\n/)[0] ?? "");
  return kinds.size >= 4 || (titled && kinds.size >= 3);
}
const FUND_TITLE = /\bfund (?:i{1,3}|iv|v|vi{1,3}|[1-9])\s*$/i;

/**
 * The company's name set over two lines of its own ("RILLA" / "METRICS"): a word of the name is no
 * section's title, and what follows it on the page stands under no title (it is not "Metrics").
 */
function underOwnName(units: Unit[], name: string | null): Unit[] {
  const words = name?.toLowerCase().split(/\s+/) ?? [];
  if (words.length < 2) return units;
  let cleared: { topic: Topic; page: number } | null = null;
  return units.map((u) => {
    if (u.heading) {
      const topic = topicOfHeading(u.text);
      cleared = topic && words.includes(u.text.trim().toLowerCase()) ? { topic, page: u.pageIndex } : null;
      return u;
    }
    return cleared && u.pageIndex === cleared.page && u.topic === cleared.topic ? { ...u, topic: null, context: null } : u;
  });
}

export const builtinDealEngine: DealEngine = {
  name: "builtin",
  async analyze({ pages: material, hints, progress }: DealEngineInput): Promise<DealAnalysis> {
    progress("extract");
    const { readable: pages, note } = readablePages(material);
    const kind = hints.kind === "company" && unmistakablyFund(pages) ? "fund" : (hints.kind ?? detectKind(pages));
    if (pages.length === 0) return unreadableAnalysis("builtin", kind, hints, note ?? "The material has no text to read.");
    const { facts, units, round, fund, teamSources } = readFacts(pages, { ...hints, kind });
    progress("classify");
    const catalogue = kind === "fund" ? FUND_SECTIONS : COMPANY_SECTIONS;
    const filed = new Map<string, Unit[]>(catalogue.map(([k]) => [k, []]));
    const teamNames = facts.team.map((m) => m.name);
    const raisePages = new Set(units.filter((u) => !u.boilerplate && isRaiseStatement(u)).map((u) => u.pageIndex));
    for (const u of quotable(underOwnName(units, facts.company.name))) {
      if (kind === "company") {
        const key = companySectionOf(u, teamNames, isCover(u, pages), raisePages.has(u.pageIndex));
        if (key) filed.get(key)!.push(u);
        continue;
      }
      // A fund deck's cover and its advisors' bios are evidence of no section.
      if (isCover(u, pages) || u.topic === "advisors") continue;
      for (const [key] of catalogue) {
        const rule = RULES[key];
        const byTitle = u.topic !== null && TOPIC_SECTION[kind][u.topic] === key;
        const byWords =
          key === "round"
            ? isRaiseStatement(u) || ROUND_WORDS.test(u.text)
            : key === "team"
              ? // A portfolio company's founder in brackets ("<Company> (<Name>, Founder & CEO)") is no partner.
                u.topic !== "investors" && (rule.words!.test(u.text.replace(/\([^()]*\)/g, "")) || teamNames.some((n) => u.text.includes(n)))
              : key === "lp_base"
                ? rule.words!.test(lpWords(u.text))
                : rule.words!.test(u.text) || !!rule.acronyms?.test(u.text) || (key === "fund_terms" && feeAndCarry(u.text) !== null);
        if (byTitle || byWords) filed.get(key)!.push(u);
      }
    }
    // A section a company's deck addresses: a slide of its own, a statement with a concrete signal of
    // it, or two statements about it. One passing statement under another slide's title, with no
    // signal ("the kit will net us a profit of £750" on the pricing slide), is no slide about it.
    if (kind === "company") {
      for (const [key, list] of filed) {
        // (What the product does needs no figure: "Our platform connects to 40 banks" is about it.)
        if (key === "round" || key === "product" || list.length !== 1) continue;
        const [only] = list;
        // (A figure in money alone is no sign of the financials: money is on the traction, market and round slides too.)
        if (sectionOfTopic(only.topic) === key || RULES[key].signals.some(([re]) => re !== MONEY_FIGURE && re.test(only.text))) continue;
        filed.set(key, []);
      }
    }
    // A member named with a role on a card or in a table cell is a statement about the team even
    // when no sentence names them: the name and role are quoted as they stand on the page.
    const team = filed.get("team")!;
    for (const { quote, unit } of teamSources) {
      if (!team.some((u) => u.text.includes(quote) || quote.includes(u.text))) team.push({ ...unit, text: quote });
    }
    progress("score");
    const stated: Record<string, string[]> = fund ? { fund_terms: statedFundTerms(units, fund), track_record: statedTrackRecord(units) } : {};
    const raise = round ? describeRaise(round) : "";
    const sections = catalogue.map(([key, title]) => {
      const scored = scoreSection(key, title, filed.get(key)!, stated[key] ?? []);
      // A section nothing addresses may be on the pages that could not be read: say so.
      const section = note && scored.unavailable_reason ? { ...scored, unavailable_reason: `${scored.unavailable_reason} ${note}` } : scored;
      return key === "round" && raise && section.summary ? { ...section, summary: `${section.summary} ${raise}` } : section;
    });
    const scored = sections.filter((s) => s.score !== null);
    const score = scored.length ? Math.round(scored.reduce((s, x) => s + x.score!, 0) / scored.length) : null;
    progress("summarize");
    const name = facts.company.name ?? "The company";
    const amount = facts.round.amount !== null ? moneyIn(facts.round.amount, facts.round.currency) : null;
    const stage = facts.round.stage ? ` (${facts.round.stage})` : "";
    const summary = [
      `${name}${facts.company.sector ? ` (${facts.company.sector})` : ""}: ${scored.length} of ${sections.length} sections supported by the material.`,
      kind === "fund"
        ? amount
          ? `Target fund size ${amount}.`
          : fund?.hardCap
            ? `No target fund size stated (hard cap ${mentionIn(fund.hardCap)}).`
            : "No target fund size stated."
        : amount
          ? `Raising ${amount}${stage}.`
          : raise || "No round size stated.",
      scored.length ? `Strongest: ${[...scored].sort((a, b) => b.score! - a.score!)[0].title.toLowerCase()}.` : "",
      sections.filter((s) => s.score === null).length ? `Not addressed: ${sections.filter((s) => s.score === null).map((s) => s.title.toLowerCase()).join(", ")}.` : "",
      note ?? "",
    ]
      .filter(Boolean)
      .join(" ");
    return { engine: "builtin", kind, facts, sections, score, score_confidence: Math.round((scored.length / sections.length) * 100) / 100, summary };
  },
};
