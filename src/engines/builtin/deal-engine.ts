// The built-in deal engine: deterministic, offline, explainable. It reads the material sentence by
// sentence, files each under the sections its words speak to, scores a section from the concrete
// signals its evidence carries (figures, names, growth), and quotes that evidence. A section the
// material does not speak to is null with a reason, never a guess.
import { COMPANY_SECTIONS, FUND_SECTIONS, type DealAnalysis, type DealEngine, type DealEngineInput, type Evidence, type Section, type SourcePage } from "../deal-engine.ts";
import { extractFacts, moneyIn } from "./deal-facts.ts";

type Rule = { words: RegExp; signals: [RegExp, number][]; acronyms?: RegExp };

// Signals are what a partner would count as substance: a number, a name, a comparison.
const RULES: Record<string, Rule> = {
  team: {
    // Fund teams are partners: general, managing, venture, founding (never "limited partners").
    words: /\b(founder|co-?founder|ceo|cto|coo|team|previously|ex-|former|phd|years of experience|led|built|hired|engineers?|(general|managing|venture|founding) partners?|investment committee)\b/i,
    signals: [[/\b(ex-|former(ly)?|previously)\b/i, 15], [/\b(phd|md|mba)\b/i, 10], [/\b\d+\+? years\b/i, 10], [/\b(exit|sold|acquired|ipo)\b/i, 20], [/\b(google|meta|stripe|amazon|apple|microsoft|mckinsey|goldman)\b/i, 10]],
  },
  market: {
    words: /\b(market|industry|customers? segment|opportunity|demand|spend)\b/i,
    // Case-sensitive: "Sam" is a founder, "SAM" a market.
    acronyms: /\b(TAM|SAM|SOM)\b/,
    signals: [[/\$\s?\d+(\.\d+)?\s?(b|bn|billion|trillion)\b/i, 25], [/\b(cagr|growing|growth)\b/i, 10], [/\b(TAM|SAM|SOM)\b/, 15]],
  },
  product: {
    words: /\b(product|platform|feature|launch(ed)?|api|app|technology|patent|integrat\w*|workflow|roadmap)\b/i,
    signals: [[/\b(launched|live|in production|shipping|released)\b/i, 15], [/\b(patent|proprietary)\b/i, 15], [/\b(integrat\w+)\b/i, 10], [/\bapi\b/i, 5]],
  },
  traction: {
    words: /\b(arr|mrr|revenue|customers?|users|growth|pilots?|contracts?|retention|nrr|gmv|bookings|signed)\b/i,
    signals: [[/\b(arr|mrr)\b/i, 15], [/\d+(\.\d+)?\s?%/, 10], [/\b\d[\d,]*\+?\s+(customers|users|clients|companies)\b/i, 15], [/\b(\d+x|tripled|doubled)\b/i, 15], [/\b(retention|nrr)\b/i, 10]],
  },
  business_model: {
    words: /\b(pricing|subscription|saas|per seat|per user|margin|take rate|fee|license|monetiz\w*|contract value|acv|ltv|cac)\b/i,
    signals: [[/\b(gross margin|margins?)\b/i, 15], [/\b(acv|ltv|cac|payback)\b/i, 15], [/\$\s?\d/, 10], [/\b(subscription|recurring)\b/i, 10]],
  },
  competition: {
    words: /\b(competitors?|competition|alternatives?|incumbents?|unlike|versus|vs\.?|differentiat\w*|moat|advantage)\b/i,
    signals: [[/\b(unlike|versus|vs\.?)\b/i, 15], [/\b(moat|defensib\w*|network effects?)\b/i, 15], [/\b(competitors?|incumbents?)\b/i, 10]],
  },
  financials: {
    words: /\b(burn|runway|revenue|ebitda|profit\w*|cash|forecast|projections?|break-?even|expenses?|p&l)\b/i,
    signals: [[/\b(burn|runway)\b/i, 15], [/\$\s?\d/, 10], [/\b(break-?even|profitab\w*)\b/i, 15], [/\b\d+\s+months\b/i, 10]],
  },
  round: {
    words: /\b(raising|raise|round|seed|pre-seed|series [a-e]|valuation|pre-money|post-money|investors?|use of funds|safe|convertible)\b/i,
    signals: [[/\b(raising|raise)\b.*\$\s?\d/i, 20], [/\b(pre-money|post-money|valuation)\b/i, 15], [/\b(use of funds)\b/i, 10], [/\b(lead|led by|committed)\b/i, 10]],
  },
  strategy: {
    words: /\b(strategy|thesis|focus|sectors?|stage|geograph\w*|invest(s|ing)? in|target companies)\b/i,
    signals: [[/\b(seed|series a|early[- ]stage|growth)\b/i, 10], [/\b(thesis|focus)\b/i, 15]],
  },
  fund_terms: {
    words: /\b(fund size|target size|hard cap|management fee|carry|carried interest|gp commit\w*|hurdle|term|close)\b/i,
    // Size, fees, carry and the GP's own money: the terms an LP reads first.
    signals: [[/\$\s?\d+(\.\d+)?\s?(m|mm|million|b|bn)\b/i, 15], [/\b\d+(\.\d+)?\s?%/, 15], [/\b(hurdle|gp commit\w*)\b/i, 10], [/\bcarr(y|ied interest)\b/i, 10], [/\bmanagement fee\b/i, 10]],
  },
  portfolio_construction: {
    words: /\b(portfolio construction|initial checks?|check size|reserves?|follow-?on|ownership|number of companies|concentrat\w*)\b/i,
    signals: [[/\b\d+\s*(-|to)\s*\d+\s+(companies|investments)\b/i, 20], [/\b(reserves?|follow-?on)\b/i, 10], [/\b\d+(\.\d+)?\s?%\s+ownership\b/i, 15]],
  },
  track_record: {
    words: /\b(track record|prior funds?|fund i{1,3}\b|tvpi|dpi|irr|moic|realized|exits?)\b/i,
    signals: [[/\b(tvpi|dpi|irr|moic)\b/i, 20], [/\b\d+(\.\d+)?\s?x\b/i, 15], [/\b(exits?|realized)\b/i, 10], [/\birr\b[^.]{0,30}?\d+(\.\d+)?\s?%/i, 10]],
  },
  lp_base: {
    words: /\b(lps?|limited partners?|endowments?|family offices?|fund of funds|pension|anchor|institutional)\b/i,
    signals: [[/\b(anchor|institutional|endowments?|pension)\b/i, 15], [/\b(committed|commitments?)\b/i, 10], [/\b(family offices?|fund of funds|insurers?|sovereign)\b/i, 10]],
  },
};

const NO_EVIDENCE = "The material says nothing about this";

export function sentencesOf(page: SourcePage): string[] {
  return page.text
    .replace(/\s+/g, " ")
    .split(/(?<=[.!?])\s+(?=[A-Z0-9$"“])|\s[•·▪●]\s/)
    .map((s) => s.trim())
    .filter((s) => s.length >= 20 && s.length <= 600);
}

function scoreSection(key: string, title: string, evidence: { quote: string; page: SourcePage }[]): Section {
  if (evidence.length === 0) return { key, title, score: null, summary: null, evidence: [], unavailable_reason: NO_EVIDENCE };
  const rule = RULES[key];
  let points = 20; // the material addresses the topic at all
  const quoted: Evidence[] = [];
  const seenSignals = new Set<number>();
  for (const e of evidence) {
    let counted = false;
    rule.signals.forEach(([re, w], i) => {
      if (re.test(e.quote) && !seenSignals.has(i)) {
        seenSignals.add(i);
        points += w;
        counted = true;
      }
    });
    if (counted || quoted.length < 2) {
      quoted.push({ quote: e.quote.length > 300 ? `${e.quote.slice(0, 297)}...` : e.quote, document_id: e.page.documentId, page: e.page.page, ...(e.page.url ? { url: e.page.url } : {}) });
    }
    if (quoted.length >= 4) break;
  }
  points += Math.min(15, (evidence.length - 1) * 3); // depth: the topic is discussed, not mentioned
  const score = Math.min(100, points);
  const strength = score >= 70 ? "well supported" : score >= 45 ? "partly supported" : "thinly supported";
  return {
    key,
    title,
    score,
    summary: `${title}: ${strength} by ${evidence.length} statement${evidence.length === 1 ? "" : "s"} in the material (${seenSignals.size} concrete signal${seenSignals.size === 1 ? "" : "s"}).`,
    evidence: quoted,
    unavailable_reason: null,
  };
}

const FUND_WORDS = /\b(fund (i{1,3}|iv|v|[1-5])|limited partners?|\blps?\b|management fee|carried interest|gp commit\w*|fund size|capital call|vintage)\b/gi;

export function detectKind(pages: SourcePage[]): "company" | "fund" {
  const text = pages.map((p) => p.text).join(" ");
  return (text.match(FUND_WORDS)?.length ?? 0) >= 3 ? "fund" : "company";
}

export const builtinDealEngine: DealEngine = {
  name: "builtin",
  async analyze({ pages, hints, progress }: DealEngineInput): Promise<DealAnalysis> {
    progress("extract");
    const kind = hints.kind ?? detectKind(pages);
    const facts = extractFacts(pages, { ...hints, kind });
    progress("classify");
    const catalogue = kind === "fund" ? FUND_SECTIONS : COMPANY_SECTIONS;
    const filed = new Map<string, { quote: string; page: SourcePage }[]>(catalogue.map(([k]) => [k, []]));
    for (const page of pages) {
      for (const sentence of sentencesOf(page)) {
        for (const [key] of catalogue) {
          const rule = RULES[key];
          if (rule.words.test(sentence) || rule.acronyms?.test(sentence)) filed.get(key)!.push({ quote: sentence, page });
        }
      }
    }
    progress("score");
    const sections = catalogue.map(([key, title]) => scoreSection(key, title, filed.get(key)!));
    const scored = sections.filter((s) => s.score !== null);
    const score = scored.length ? Math.round(scored.reduce((s, x) => s + x.score!, 0) / scored.length) : null;
    progress("summarize");
    const name = facts.company.name ?? "The company";
    const amount = facts.round.amount !== null ? moneyIn(facts.round.amount, facts.round.currency) : null;
    const summary = [
      `${name}${facts.company.sector ? ` (${facts.company.sector})` : ""}: ${scored.length} of ${sections.length} sections supported by the material.`,
      kind === "fund"
        ? amount
          ? `Target fund size ${amount}.`
          : "No fund size stated."
        : amount
          ? `Raising ${amount}${facts.round.stage ? ` (${facts.round.stage})` : ""}.`
          : "No round size stated.",
      scored.length ? `Strongest: ${[...scored].sort((a, b) => b.score! - a.score!)[0].title.toLowerCase()}.` : "",
      sections.filter((s) => s.score === null).length ? `Not addressed: ${sections.filter((s) => s.score === null).map((s) => s.title.toLowerCase()).join(", ")}.` : "",
    ]
      .filter(Boolean)
      .join(" ");
    return { engine: "builtin", kind, facts, sections, score, score_confidence: Math.round((scored.length / sections.length) * 100) / 100, summary };
  },
};
