// The role of each money figure in a statement, read from the statement's grammar, not from the
// slide it is on: the figure the raise verb or noun takes as its object is the current raise;
// "from X to Y" is a change or a goal; a figure followed by "ARR", "in payments" or "processed" is
// traction; "market", "TAM" a market size; "burn", "per month" a burn; "pre-money", "cap",
// "valuation" a valuation; "for/on/to" a thing is an allocation; a past verb ("raised", "closed",
// "have raised") an earlier round; "already committed", "of which" a part of the raise. What the
// grammar does not tie to a role stays "unknown", and an unknown figure is never the raise.
import { moneyMentions, type MoneyMention } from "./deal-money.ts";

export type MoneyRole =
  | "raise" | "allocation" | "past" | "committed" | "traction" | "market" | "goal" | "burn" | "valuation" | "price" | "others" | "future" | "unknown";

/** `pre`: for a valuation, "explicit" when it says pre-money, "generic" for "at a $X valuation", else none. */
export type RoledMoney = { money: MoneyMention; role: MoneyRole; pre?: "explicit" | "generic" | null };

export const STAGE_WORDS = String.raw`pre-?\s?seri(?:es|e)[\s-]?[a-e]\d?|pre-?\s?seed|seed(?:\s?\+|\s(?:extension|plus))?|seri(?:es|e)[\s-]?[a-e]\d?(?:\s?\+)?|bridge`;

// A raise in progress, its verbs and nouns. "raise" alone is checked for its subject and tense.
const RAISE_ANCHOR = new RegExp(
  [
    String.raw`\b(?:raising|seek(?:ing|s)?|looking for|looking to raise|aiming to raise|plan(?:ning)? to raise|intend to raise|raise|fundrais(?:e|ing)|(?:we )?need|require)\b`,
    String.raw`\b(?:current|this|our (?:current|ongoing)) (?:round|raise|financing)\b|\binvestment (?:sought|opportunity)\b`,
    String.raw`\b(?:the|our) ask\b|^ask\b|\bask(?:ing)?\s*(?::|for|is)`,
    String.raw`\b(?:total )?round size\b|\b(?:total |target )?raise\s*(?::|is)|\btarget raise\b|\braise (?:of|amount)\b`,
    String.raw`\b(?:total )?(?:funding|capital|financing|investment) (?:need(?:ed|s)?|required|requirements?|sought|ask)\b|\b(?:total )?required (?:investment|funding|capital)\b`,
    String.raw`\bto close (?:our|the|a|this)\b.{0,40}?\bround\b`,
    String.raw`\b(?:open(?:ing)?|launch(?:ing)?) (?:a|an|our|the)\b.{0,40}?\bround\b`,
    String.raw`\b(?:(?:${STAGE_WORDS})\s+)?(?:round|raise)\s*(?::|—|–|-|of\b|is\b|size\b|(?:is\s+)?(?:now\s+)?(?:open(?:ing)?|closing|underway|in progress)\b)`,
    // The same in the languages decks come in: German, French, Spanish, Italian, Dutch.
    String.raw`\b(?:wir suchen|suchen wir|wir sammeln|(?:investitions|kapital|finanzierungs)bedarf|finanzierungsrunde|nous (?:levons|recherchons|cherchons)|lev[ée]e de fonds|besoin de financement|buscamos|estamos (?:levantando|buscando)|cerchiamo|stiamo raccogliendo|(?:we|wij) zoeken)\b`,
  ].join("|"),
  "gi",
);
// The raise belongs to someone else: "we help merchants raise", "our customers raise".
const SOMEONE_ELSES =
  /(?:\b(?:help(?:s|ed|ing)?|enabl(?:e|es|ed|ing)|let(?:s|ting)?|allow(?:s|ed|ing)?|assist(?:s|ed|ing)?|empower(?:s|ed|ing)?)\b(?:\s+[\w'’-]+){0,4}\s+(?:to\s+)?|\b(?:customers|clients|merchants|founders|startups|companies|users|sellers|borrowers|businesses|they|who|smes|portfolio companies)\s+(?:can\s+|could\s+|to\s+|will\s+|now\s+|have\s+|had\s+)?)$/i;
// An earlier round or money so far: a past verb, "to date", a total.
const PAST_VERB = /\b(?:raised|closed|completed|secured|received|took in|got|obtained|collected|led (?:our|the|a)|backed|invested|funded|was|were|had|eingesammelt|aufgenommen|abgeschlossen|erhalten|lev[ée]s?|levantamos|levantado|raccolto|opgehaald)\b/iu;
// A timeline's entry: a year (or a quarter or month of it) as the statement's label.
// "2022: ...", "Q3 2021 – ...", and a label dated in brackets: "Seed (2022): ...".
const TIMELINE = /^\s*(?:(?:(?:Q[1-4]|H[12]|[A-Z][a-z]{2,8}\.?)\s+)?(?:19|20)\d{2}|[\p{L}\s+-]{2,24}\((?:(?:Q[1-4]|H[12]|[A-Z][a-z]{2,8}\.?)\s+)?(?:19|20)\d{2}\))\s*(?::|–|—|-|\|)\s/u;
const PRESENT_RAISE = /\b(?:raising|seeking|opening|closing|looking|suchen|levons|buscamos|cerchiamo)\b/i;
const TOTAL_SO_FAR = /\b(?:to date|so far|in total|total (?:funding|raised|capital|investment)|(?:funding|raised|capital raised) (?:to date|so far)|previous(?:ly)?|prior|earlier|last (?:round|year)|in (?:19|20)\d{2}|since (?:19|20)\d{2}|bringing (?:our |the )?total)\b/i;
// Between the raise word and its figure: only articles, hedges, stage words and small nouns.
const OBJECT_GAP = new RegExp(
  String.raw`^(?:\s|[,:–—-]|\b(?:a|an|the|our|is|of|at|for|in|up to|approximately|approx\.?|about|around|roughly|c\.|~|total(?:ing|ling)?|new|additional|fresh|further|an? (?:investment|round|raise|amount|total|sum|ticket|financing)|(?:equity|capital|funding|financing|investment|round|size|amount|need(?:ed)?|required|sought|seeking|target|raise|minimum|maximum|min|max|usd|eur|gbp|chf)|${STAGE_WORDS})\b)*$`,
  "i",
);
// Figures the words right after tie to a role.
const AFTER: [RegExp, MoneyRole][] = [
  [/^\s*(?:\(|,)?\s*(?:pre-?money|post-?money|pre(?![\w-])|post(?![\w-])|valuation|(?:valuation )?cap\b|(?:company )?valued|val\.)/i, "valuation"],
  [/^\s*(?:(?:is|are|has been|have been|was|were)\s+)?(?:already\s+)?(?:committed|soft[- ]?circled|secured|raised|closed|in the bank|confirmed|pledged|(?:is |are )?spoken for)\b/i, "committed"],
  [/^\s*(?:to date|so far|in total|raised|previously|in (?:19|20)\d{2}\b)/i, "past"],
  [/^\s*(?:(?:of |in |a month |per month |\/\s?mo(?:nth)?\s)?(?:monthly |net |gross |cash )?burn|of runway)/i, "burn"],
  [/^\s*(?:(?:in|of)\s+)?(?:arr|mrr|acv|run[- ]?rate|(?:annual |recurring |total |net )*(?:revenues?|sales|turnover|bookings|gmv|gtv|tpv|volume|payments?|transactions?|loans?|invoices?|orders?|claims|premiums?|spend|savings|profit|ebitda|income)|processed|transacted|saved|generated|paid out|under management|aum|in (?:arr|revenue|sales|payments|transactions|volume|gmv|bookings|savings|loans|spend))\b/i, "traction"],
  [/^\s*(?:(?!(?:to|for|in|into|on|of|the|our|a|an|and|with)\b)[\w-]+\s+){0,2}(?:market|tam|sam|som|industry|addressable|sector)\b/i, "market"],
  [/^\s*(?:per|\/|a|each|every)\s+(?:year|yr|seat|user|licen[cs]e|unit|robot|device|site|kwh|mwh|patient|employee|member|month|transaction|order|shipment|customer|client|location|call|entity)\b/i, "price"],
];
// Figures the words right before tie to a role (nearest cue wins; checked on the span since the last figure).
const BEFORE: [RegExp, MoneyRole | "change"][] = [
  [/\b(?:pre-?money|post-?money|valuation|valued at|cap(?: of)?|val\.)\s*(?:valuation\s*)?(?:of|at|:|is|=|was)?\s*(?:a|an|~|c\.|approx\.?)?\s*$/i, "valuation"],
  [/\b(?:burn(?:ing)?|burn rate|spend(?:ing)? of|opex|costs?|expenses)\b[^.;$€£]{0,25}$|\bruns? (?:us )?(?:through|at)\s*$/i, "burn"],
  [/\b(?:market|tam|sam|som|industry|opportunity)\b[^.;$€£]{0,30}$/i, "market"],
  [/\bfrom\s*(?:~|about|around)?\s*$/i, "change"],
  [/\b(?:reach(?:ing)?|hit(?:ting)?|grow(?:ing)? (?:\w+ )?to|double to|scale to|target(?:ing|ed)?(?! raise)|projected|forecast(?:ed)?|expect(?:ed)?|goal|aim(?:ing)? (?:for|at)|by (?:end of )?20\d{2}|plan(?:ned)? (?:to reach|for)|to exceed|surpass)\b[^.;$€£]{0,30}$/i, "goal"],
  [/\b(?:arr|mrr|revenues?|sales|turnover|gmv|processed|transacted|generated|earned|booked|bookings|volume|saved|paid out|collected from customers|invoiced|billed|sold|contracts? worth|pipeline|deals? worth|orders?)\b[^.;$€£]{0,30}$/i, "traction"],
  [/\b(?:use of funds|allocat\w*|spend(?:ing)?|deploy(?:ed|ing)?|budget(?:ed)?|earmark(?:ed)?|invest(?:ing)? (?:in|into))\b[^.;$€£]{0,30}$/i, "allocation"],
  [/\b(?:of which|including|includes|incl\.|with)\s*(?:~|about|around|up to)?\s*$/i, "committed"],
];
// "$1M for product", "€500K on hiring", "$2M (40%) to sales": a share of the money for a purpose.
const ALLOCATION_AFTER = /^\s*(?:\(\s*\d+(?:[.,]\d+)?\s*%\s*\)\s*)?(?:[:–—-]\s*|(?:for|on|to|towards|into|in)\s+)(?!(?:close|reach|raise|extend|scale|accelerate|grow|hire|build|expand|achieve|get|take|bring|launch|finance|fund|support|enter|deliver|prove|hit|become|complete|double|triple|open|develop|start|make|go|drive|win|capture|continue|increase|reduce|commercial|execute|deploy|validate)\b)(?:the |our )?[\p{L}&-]+/iu;
const ROUND_AFTER = new RegExp(
  String.raw`^\s*(?:\(\s*)?(?:${STAGE_WORDS})\b|^\s*,?\s*(?:(?:a|an|in|as|on|via|through|our|the|priced|equity|new|first|open|(?:post|pre)-?money|uncapped|capped|(?:${STAGE_WORDS}))\s+){0,3}(?:round|raise|funding round|financing round|investment round|financing|SAFE|convertible(?: notes?)?|runde)\b`,
  "i",
);
// "to reach Series A", "ahead of our Series A": the next round, not this one.
export const TIMELINE_ENTRY = (text: string) => TIMELINE.test(text) && !PRESENT_RAISE.test(text);
export const NEXT_ROUND = /\b(?:to|towards?|before|ahead of|until|into|reach(?:ing)?|next|for the|prior to|then|later)\s*(?:our|a|the|an?)?\s*$/i;
const FUTURE = /\b(?:will|plan(?:ning)? to|intend(?:ing)? to|expect(?:ing)? to|aim(?:ing)? to|would)\b[^.;]{0,30}\b(?:raise|raising)\b[^.;]{0,60}\b(?:next|later|subsequent|following|future|(?:in|by) (?:19|20)\d{2}|after)\b/i;

const CLAUSE_END = /[;.!?](?=\s|$)|\s[•·|]\s|\s(?:but|while|whereas|although)\s/gi;

function clauseStart(text: string, at: number): number {
  let start = 0;
  for (const m of text.slice(0, at).matchAll(CLAUSE_END)) start = m.index! + m[0].length;
  return start;
}

/** The raise anchors of a text that are this company's raise in progress (not someone else's, not past). */
export function raiseAnchors(text: string): { index: number; end: number }[] {
  const out: { index: number; end: number }[] = [];
  for (const m of text.matchAll(RAISE_ANCHOR)) {
    const before = text.slice(Math.max(0, m.index! - 60), m.index!);
    if (SOMEONE_ELSES.test(before)) continue;
    if (/^(?:we )?(?:need|require)$/i.test(m[0]) && !/\b(?:we|company|startup)\s+(?:\w+\s+)?$/i.test(before) && !/^(?:funding|capital|investment)/i.test(m[0])) continue;
    out.push({ index: m.index!, end: m.index! + m[0].length });
  }
  return out;
}

/** Whether the span before a figure says the money is past (a past verb, a total so far), nearer than any raise anchor. */
function pastIn(span: string): boolean {
  const past = [...span.matchAll(new RegExp(PAST_VERB.source, "gi"))].pop();
  const total = [...span.matchAll(new RegExp(TOTAL_SO_FAR.source, "gi"))].pop();
  const cue = Math.max(past?.index ?? -1, total?.index ?? -1);
  if (cue < 0) return false;
  const anchor = raiseAnchors(span).pop();
  return !anchor || anchor.index < cue;
}

/**
 * Every money figure in the text with its role. `label` is what stands beside a figure that is a
 * statement of its own (a label above or in the cell before it, a caption below it).
 */
export function moneyRoles(text: string, context: { before?: string; after?: string } = {}): RoledMoney[] {
  const mentions = moneyMentions(text);
  const out: RoledMoney[] = [];
  mentions.forEach((m, i) => {
    const start = clauseStart(text, m.index);
    const prevEnd = i > 0 && mentions[i - 1].end > start ? mentions[i - 1].end : start;
    const local = (prevEnd === 0 && context.before ? `${context.before} ` : "") + text.slice(prevEnd, m.index);
    const clause = (start === 0 && context.before ? `${context.before} ` : "") + text.slice(start, m.index);
    const nextAt = mentions[i + 1]?.index ?? text.length;
    const after = text.slice(m.end, Math.min(nextAt, m.end + 60)) + (m.end >= text.trim().length && context.after ? ` ${context.after}` : "");
    out.push({ money: m, ...roleOf(m, local, clause, after, text, i > 0 ? out[i - 1] : null) });
  });
  return out;
}

function roleOf(m: MoneyMention, local: string, clause: string, after: string, text: string, prev: RoledMoney | null): { role: MoneyRole; pre?: RoledMoney["pre"] } {
  for (const [re, role] of AFTER) {
    if (role === "price" && /\bburn/i.test(local)) continue;
    if (re.test(after)) return role === "valuation" ? { role, pre: preMoney(local, after) } : { role };
  }
  // "from $1.2M to $5M": the second figure is where the first is going.
  if (prev && /^\s*(?:to|→|->)\s*$/.test(local) && /\bfrom\s*$/i.test(text.slice(Math.max(0, prev.money.index - 8), prev.money.index))) return { role: "goal" };
  // The nearest cue before the figure, since the last figure (a raise word counts as a cue too).
  let best: { at: number; role: MoneyRole } | null = null;
  for (const [re, role] of BEFORE) {
    const hit = re.exec(local);
    // "from $1.2M to $5M" is a change; "priced from £54K" a price.
    const found = role === "change" ? (/^\s*(?:to|→|->)\s/.test(after) ? "goal" : "price") : role;
    if (hit && (!best || hit.index > best.at)) best = { at: hit.index, role: found as MoneyRole };
  }
  const anchor = raiseAnchors(local).pop();
  const anchorGoverns = anchor && OBJECT_GAP.test(local.slice(anchor.end));
  if (best?.role === "valuation") return { role: "valuation", pre: preMoney(local, after) };
  if (anchorGoverns && (!best || anchor.end > best.at)) {
    // "2021: Series A round of £14M": a timeline's entry is an earlier round unless it says it is raising now.
    if (TIMELINE.test(clause) && !PRESENT_RAISE.test(clause)) return { role: "past" };
    if (pastIn(local.slice(anchor.end)) || FUTURE.test(clause + after)) return { role: FUTURE.test(clause + after) ? "future" : "past" };
    if (/\braise\b/i.test(local.slice(anchor.index, anchor.end)) && PAST_VERB.test(local.slice(Math.max(0, anchor.index - 30), anchor.index)) && !/\b(?:to|will|plan|now)\s*$/i.test(local.slice(0, anchor.index))) return { role: "past" };
    return { role: "raise" };
  }
  // "The global <X> industry is projected to reach $810B": where a market is going is the market's figure.
  if (best?.role === "goal" && /\b(?:market|industry|sector|tam|sam|som)\b/i.test(local.slice(0, best.at)) && !/\b(?:we|our|us)\b/i.test(local.slice(0, best.at))) return { role: "market" };
  if (best) return { role: best.role };
  if (raiseAnchors(clause).length === 0 && /(?:\b(?:help(?:s|ed|ing)?|enabl(?:e|es|ed|ing)|let(?:s)?)\b[^.]{0,40}\braise\b)/i.test(clause)) return { role: "others" };
  if (pastIn(clause) || TOTAL_SO_FAR.test(after.slice(0, 30))) return { role: "past" };
  // "$4M seed round", "€2.5M (Seed)", "£2.75M on a post-money SAFE": the figure before a round noun,
  // when nothing says it is past or next.
  if (ROUND_AFTER.test(after) && !NEXT_ROUND.test(local)) return { role: TIMELINE.test(clause) && !PRESENT_RAISE.test(clause) ? "past" : "raise" };
  if (ALLOCATION_AFTER.test(after)) return { role: "allocation" };
  return { role: "unknown" };
}

function preMoney(local: string, after: string): RoledMoney["pre"] {
  if (/\bpost|\bcap\b/i.test(after.slice(0, 25)) || /\b(?:post-?money|cap)\b[^$€£]{0,15}$/i.test(local)) return null;
  if (/^\s*(?:\(|,)?\s*(?:pre-?money|pre(?![\w-]))/i.test(after) || /\bpre-?money\b[^$€£]{0,20}$/i.test(local)) return "explicit";
  return /\b(?:at|on) (?:a|an)\s*$/i.test(local) || /^\s*(?:\(|,)?\s*valuation/i.test(after) || /\bvaluation\s*(?:of|:|is|at)?\s*$/i.test(local) ? "generic" : null;
}
