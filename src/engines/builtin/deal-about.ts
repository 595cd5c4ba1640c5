// What a company deck's statement is about: one section, or none. Not which keywords it shares
// with a section ("revenue" is in a traction line and in a projection), but what it says: this
// round's raise is the round, an earlier round is history, a projection is financials, a person
// with a role is the team, a testimonial is a customer speaking. What the statement's slide title
// names comes next; a statement under no known title is read by what it says alone. A section is
// scored only from statements about it.
import { moneyMentions } from "./deal-money.ts";
import { isPastRound, isRaiseStatement } from "./deal-round.ts";
import { moneyRoles } from "./deal-roles.ts";
import type { SourcePage } from "../deal-engine.ts";
import type { Topic, Unit } from "./deal-text.ts";

export type CompanySection = "team" | "market" | "product" | "traction" | "business_model" | "competition" | "financials" | "round";

const TOPIC_SECTION: Partial<Record<Topic, CompanySection>> = {
  team: "team",
  market: "market",
  product: "product",
  traction: "traction",
  business_model: "business_model",
  competition: "competition",
  financials: "financials",
  round: "round",
  use_of_funds: "round",
  customers: "traction",
};

// This round's terms, beyond its figure.
const ROUND_TERMS = /\b(?:pre-?money|post-?money|valuation|use of funds|SAFE|convertible notes?|lead investor|term sheet)\b/;
// The company's money used for someone else ("we help SMEs raise"), or someone else's ("our customers raised").
const OTHERS_MONEY = /\b(?:help(?:s|ing)?|enabl(?:e|es|ing)|let(?:s)?)\b[^.]{0,40}\braise\b|\b(?:customers|clients|users|merchants)\b[^.]{0,20}\braised\b/i;
// A customer speaking: a quotation and its signature.
const TESTIMONIAL = /^["“«]|["”»]\s*[—–-]\s*\p{Lu}/u;
// The future, in figures: a plan, a forecast, a target year.
const PROJECTION =
  /\b(?:projected|projections?|forecasts?|expected|expect|plan(?:ned|s)?|budget(?:ed)?|target(?:ed|s)?|will (?:reach|grow|be)|by (?:20\d{2}|year \d|the end of)|(?:five|5|three|3|ten|10)-year (?:plan|forecast|projections?|outlook))\b|\b(?:ebitda|break-?even|burn(?: rate)?|runway|p&l|net (?:income|loss)|cash ?flow)\b|\d\s?年(?:内|后|路径|目标|计划)|目标|预计|预测|计划/i;
// A plan told in the future ("the kit to be sold ... will net us"): what is to come, never traction achieved.
const FUTURE_TENSE = /\b(?:will|shall|going to|to be (?:sold|offered|launched|priced|charged)|plan(?:s|ning)? to|intend(?:s|ing)? to|aim(?:s|ing)? to)\b/i;
// What makes a projection a financial one: money, a margin, a burn or a runway, not a count of pilots.
const FINANCIAL_FIGURE = /[$€£]\s?\d|\d\s?(?:k|m|mm|bn|million|billion|mio\.?)\b|\b(?:revenue|arr|ebitda|margin|break-?even|burn|runway|cash|profit\w*|p&l|costs?|opex)\b/i;
// What makes a projection the company's own: its voice or its own measures.
const OWN_FINANCES = /\b(?:we|our|us|revenues?|arr|mrr|gmv|bookings|ebitda|ebit|margins?|break-?even|burn|runway|cash|profit\w*|p&l|costs?|opex|sales|turnover|net (?:income|loss)|gross profit)\b/i;
// A figure, not a digit inside a word ("B2B", "Series A1", "p95", "x402").
const FIGURE = /(?<![\p{L}\d])\d/u;
// The lines of a P&L or a plan.
const FINANCIAL_LINE = /^(?:total )?(?:revenues?|sales|turnover|ebitda|ebit|gross (?:margin|profit)|opex|operating (?:costs?|expenses)|costs?|expenses|net (?:income|loss|profit)|cash(?: flow)?|burn|headcount|fte)\b/i;
// The team, by what it is: founders, hires, headcount, experience.
// "To hire 15 engineers" is a plan for the money, not a statement about the team.
const TEAM_WORDS = /\b(?:(?:our|the) (?:co-?)?founders?|co-?founders? (?:of|have|has|are|is|met|bring|built)|founding team|our team|the team|team of \d+|\d+ (?:employees|engineers|people|FTEs?) (?:today|on (?:the|our) team|in (?:berlin|london|the team))|we (?:have )?hired|years of experience)\b/i;

// "Competitive" alone says how something compares ("to make hydrogen competitive"), not who competes;
// "alternative" before a noun names a kind of thing ("Alternative Finance"), an alternative to something competes.
// "Versus" sets the company against someone ("vs. Stripe", "vs. legacy tools"), not two of its own
// things against each other ("basic vs. institutional tiers").
const COMPETITION = /\b(?:competitors?|competition|competitive (?:landscape|advantage|edge|position\w*|moat|set|analysis)|alternatives|alternative (?:to|for)\b|(?:no|an?|the only|other|existing|current|cheaper|better) alternative|incumbents?|unlike|differentiat\w*|moat|we win|compared (?:to|with))\b/i;
const VERSUS = /\b(?:[Vv]ersus|VERSUS|[Vv][Ss]\.?)(?=\s*(?:\p{Lu}|us\b|them\b|legacy|traditional|existing|incumbents?|current|manual|spreadsheets?|excel|in-house|the (?:rest|market|status quo))|\s*$)/u;
const BUSINESS_MODEL =
  /\b(?:pricing|priced?|subscriptions?|saas (?:subscription|model|pricing|plans?|licen[cs]es?|fees?)|\w+-as-a-service|licen[cs](?:e|es|ing)|take rate|fees?|commissions?|monetiz\w*|monetis\w*|freemium|usage-based|pay-as-you-go|revenue share|acv|ltv|cac|payback|gross margin|contribution margin|per (?:seat|user|licen[cs]e|transaction|order|site|location|device|kwh|unit|employee|member|shipment|month|year))\b|\bwe (?:charge|bill|earn)\b/i;
const TRACTION =
  /\b(?:arr|mrr|recurring revenue|revenues?|paying customers|customers|clients|users|pilots?|lois?|logos?|retention|nrr|churn|gmv|bookings|signed|contracts?|month over month|mom|yoy|year over year|waitlist|downloads|deployments?)\b/i;
const MARKET_SIZE = /\b(?:TAM|SAM|SOM)\b|\bcagr\b|(?<!-)\bmarket\b(?!-)[^.]{0,60}(?:\d|\bgrow\w*|\bdoubl\w*)|(?:\d|\bgrow\w*)[^.]{0,60}(?<!-)\bmarket\b(?!-)/i;
const PRODUCT =
  /^(?:our|the|its|it) (?:product|platform|app|solution|software|technology|system|api|engine|device|robots?|sensors?|service|dashboard|model)s?\b|^(?:it|this) (?:connects|runs|automates|integrates|works|replaces|lets)\b|\bis an? [^.]{0,60}\b(?:platform|app|tool|system|software|marketplace|service|api|device)\b|\b(?:we (?:have )?(?:built|developed|designed)|launched (?:in|on)|patent(?:ed|s|-pending)?|integrat(?:es|ions?)|open api|cloud dashboard|runs on)\b/i;

/** The section a slide's title names (a company's deck), if any. */
export const sectionOfTopic = (topic: Topic | null): CompanySection | null => (topic ? (TOPIC_SECTION[topic] ?? null) : null);

/**
 * A row of a financial table (a P&L line, a plan over several years). (A row of the use of funds is
 * the round's; a row of a team's table is no P&L.)
 */
function financialRow(u: Unit): boolean {
  const text = u.text;
  if (!/\s\|\s/.test(text) || u.topic === "round" || u.topic === "use_of_funds" || u.topic === "team") return false;
  const figures = text.match(/(?<!\p{L})\d[\d.,]*/gu)?.length ?? 0;
  // A table's row has its figures in columns: a sum written out in one cell ("50 kWh x $0.12 = $6.00") is no P&L line.
  const columns = text.split(/\s\|\s/).filter((cell) => FIGURE.test(cell)).length;
  return columns >= 2 && ((figures >= 3 && moneyMentions(text).length >= 2) || (figures >= 2 && FINANCIAL_LINE.test(text)));
}

/** A deck's cover (the first page of a document of three pages or more): it names the company, it is evidence of no section but the round. */
export function isCover(u: Unit, pages: SourcePage[]): boolean {
  return u.pageIndex === 0 && u.page.documentId !== null && pages.filter((p) => p.documentId === u.page.documentId).length >= 3;
}

/** Money with a billion-or-more scale: a market, never a company's own figure. */
const marketMoney = (text: string) => moneyMentions(text).some((m) => (m.amount ?? m.high ?? 0) >= 1e9);

/**
 * The section a statement of a company's material is about, or null (a problem statement, a cover
 * line, an earlier round, a customer's words outside a traction slide, someone else's money).
 * @param teamNames the team members the material names: a statement naming one is about the team
 */
export function companySectionOf(u: Unit, teamNames: string[], cover: boolean, raiseOnPage = false): CompanySection | null {
  const text = u.text;
  if (isRaiseStatement(u)) return "round";
  // The statement's money says what it is about, whatever slide it is on: money for a purpose on
  // the page that states the raise is how the raise will be spent.
  const roles = new Set(moneyRoles(text).map((r) => r.role));
  if (roles.has("allocation") && (u.topic === "round" || u.topic === "use_of_funds" || raiseOnPage || /\buse of (?:funds|proceeds)\b/i.test(text))) return "round";
  if (isPastRound(u) || OTHERS_MONEY.test(text)) return null;
  if (ROUND_TERMS.test(text)) return "round";
  if (cover) return null;
  if (TESTIMONIAL.test(text)) return u.topic === "traction" || u.topic === "customers" ? "traction" : null;
  if (u.topic === "advisors" || u.topic === "investors") return null;
  if (teamNames.some((n) => text.includes(n))) return "team";
  // A roadmap's steps are plans: the company's projected figures, or what the product will do, never traction achieved.
  if (u.topic === "roadmap") return FIGURE.test(text) && FINANCIAL_FIGURE.test(text) && OWN_FINANCES.test(text) ? "financials" : PRODUCT.test(text) ? "product" : null;
  // A row of figures over periods outside a traction slide (a P&L's "Revenue | ... | ..." under a
  // forecast's own title) is the company's financials, whatever its label's words.
  if (roles.has("traction") && u.topic !== "traction" && financialRow(u)) return "financials";
  if (roles.has("traction") && !PROJECTION.test(text) && !FUTURE_TENSE.test(text) && u.topic !== "financials") return "traction";
  if (roles.has("market")) return "market";
  if (roles.has("burn") || (roles.has("goal") && u.topic !== "traction" && (OWN_FINANCES.test(text) || u.topic === "financials"))) return "financials";
  if (u.topic !== "financials" && (marketMoney(text) || MARKET_SIZE.test(text))) return "market";
  // A projection is the company's financials when it is the company's own: its words (we, our) or
  // its own measures (revenue, EBITDA, burn), or it stands under a financials title. "<A category>
  // products are expected to reach $5M by 2026" says nothing of the company's finances.
  if (PROJECTION.test(text) && FIGURE.test(text) && FINANCIAL_FIGURE.test(text) && (OWN_FINANCES.test(text) || u.topic === "financials")) return "financials";
  if (u.topic !== "traction" && financialRow(u)) return "financials";
  const titled = u.topic ? TOPIC_SECTION[u.topic] : undefined;
  if (titled) return titled;
  if (u.topic === "problem" || u.topic === "contact") return null;
  if (TEAM_WORDS.test(text)) return "team";
  if (COMPETITION.test(text) || VERSUS.test(text)) return "competition";
  if (BUSINESS_MODEL.test(text)) return "business_model";
  // Money to be spent on something ("€150k for pilot deployments") is a plan, not traction.
  if (TRACTION.test(text) && FIGURE.test(text) && !(roles.has("allocation") && !roles.has("traction"))) return "traction";
  if (PRODUCT.test(text)) return "product";
  return null;
}
