// The contract's metrics as founders name them, and what a statement's words say about its role:
// an actual, or a forecast, target or plan (never an actual); a value, or the change beside it.

export const METRICS = ["arr", "mrr", "revenue", "monthly_burn", "cash", "runway_months", "headcount", "customers", "gross_margin", "net_revenue_retention"] as const;
export type Metric = (typeof METRICS)[number];

export type MetricKind = "money" | "percent" | "months" | "count";
export const KIND: Record<Metric, MetricKind> = {
  arr: "money",
  mrr: "money",
  revenue: "money",
  monthly_burn: "money",
  cash: "money",
  runway_months: "months",
  headcount: "count",
  customers: "count",
  gross_margin: "percent",
  net_revenue_retention: "percent",
};

/** The unit stored with a figure of a metric (money metrics carry a currency instead). */
export const UNIT: Partial<Record<Metric, string>> = {
  runway_months: "months",
  headcount: "people",
  customers: "customers",
  gross_margin: "percent",
  net_revenue_retention: "percent",
};

/**
 * Names of each metric, longest first where one contains another ("monthly recurring revenue"
 * before "revenue"). `null`: words that look like a metric but are another figure (gross burn,
 * cash flow, new customers, hires): matched so they cover the words, never read as the metric.
 */
const NAMES: [Metric | null, string][] = [
  ["net_revenue_retention", String.raw`net (?:revenue|dollar|ARR) retention(?: rate)?|NRR|NDR|net retention`],
  [null, String.raw`gross (?:revenue |dollar |logo )?retention|GRR|logo retention|churn(?: rate)?`],
  ["gross_margin", String.raw`gross margins?|GM|Bruttomarge|Rohertragsmarge|Rohmarge|marge brute|margen bruto`],
  [null, String.raw`(?:contribution|EBITDA|operating|net|profit) margins?|EBITDA|net (?:income|loss)|profit`],
  [null, String.raw`(?:net )?new ARR|new MRR|expansion (?:ARR|MRR|revenue)|new (?:bookings|revenue)`],
  ["arr", String.raw`(?:total )?ARR|annual(?:i[sz]ed)? recurring revenues?|annual run[- ]rate|(?:revenue |ARR )?run[- ]rate|jährlich wiederkehrende[rn]? Umsatz`],
  [null, String.raw`contracted ARR|committed ARR|CARR|bookings|booked|ACV|TCV|pipeline|GMV|gross merchandise value|take rate|assets under (?:management|administration)|AUM|AUA|volume|TPV|payment volume`],
  ["mrr", String.raw`MRR|monthly recurring revenues?|monatlich wiederkehrende[rn]? Umsatz`],
  [null, String.raw`gross burn(?: rate)?|cash[- ]flow(?: positive| negative)?|cash collected|cashflow`],
  ["monthly_burn", String.raw`(?:average |avg\.? )?(?:net |monthly |cash |operating )*burn(?: rate)?|Burn(?:-?Rate)?|Cash-?Burn|Mittelabfluss`],
  ["cash", String.raw`cash(?: and cash equivalents)?(?: balance| position| on hand| in (?:the )?bank| reserves?)?|bank balance|(?:money |funds )?in the bank|treasury|Liquidität|liquide Mittel|Kontostand|Barmittel|Kassenbestand|trésorerie`],
  ["runway_months", String.raw`runway|cash runway|Reichweite|Runway`],
  [null, String.raw`new (?:hires?|customers|clients|logos|accounts|employees|people)|hires|hired|joiners|leavers|churned (?:customers|logos|accounts)|open (?:roles|positions)`],
  ["headcount", String.raw`headcount|head count|employees|FTEs?|people|persons|ppl|full[- ]time(?: employees| staff)?|team members|staff|Mitarbeiter(?:innen)?|Mitarbeitende|Angestellte|Teamgröße|team size|salariés|empleados|(?:size of the )?team`],
  ["customers", String.raw`(?:paying |active |enterprise |B2B )?(?:customers|clients|logos|accounts|Kunden|Kundinnen|clientes)|(?:paying|active|live) (?:merchants|clinics|platforms|stores|brands|hospitals|schools|sellers|buyers|subscribers|practices)|(?:merchants|clinics|platforms|stores|brands|sellers|practices) live|[A-Za-z]+s on (?:the )?platform`],
  ["revenue", String.raw`(?:total |net |monthly |quarterly |recognized |recognised )?(?:revenues?|sales|turnover|Umsatz|Umsätze|Erlöse|Umsatzerlöse|chiffre d'affaires|ingresos|top[- ]?line)`],
];

const NAME_RE = new RegExp(NAMES.map(([, re], i) => `(?<m${i}>\\b(?:${re})\\b)`).join("|"), "gi");

export type MetricMention = { metric: Metric | null; start: number; end: number; text: string };

/** The metric names in a text, left to right (each span once, the longest name first). */
export function metricsIn(text: string): MetricMention[] {
  const out: MetricMention[] = [];
  for (const m of text.matchAll(NAME_RE)) {
    const i = Object.entries(m.groups!).find(([, v]) => v !== undefined)![0];
    const metric = NAMES[Number(i.slice(1))][0];
    // "team" and "people" alone count a headcount only with a number beside them (the figure reader checks the number).
    out.push({ metric, start: m.index!, end: m.index! + m[0].length, text: m[0] });
  }
  return out;
}

/** Words that make a statement a forecast, target, plan or hypothesis: never an actual. */
const FORECAST = new RegExp(
  [
    String.raw`\b(?:expect(?:s|ed|ing)?|expectation|forecast(?:s|ed|ing)?|project(?:s|ed|ing|ion|ions)|target(?:s|ed|ing)?|plan(?:s|ned|ning)?|budget(?:s|ed)?|goal(?:s)?|aim(?:s|ing)?|objective|guidance|outlook|anticipat\w+|estimat\w+|predict\w*|hope\w*|intend\w*|aspire\w*)\b`,
    String.raw`\b(?:will|would|could|should|might|shall|going to|gonna|'ll)\b`,
    String.raw`\b(?:on track (?:to|for)|if|unless|on pace (?:to|for)|poised to|set to|by (?:the )?(?:end of|year[- ]end|EOY|EOQ|Q[1-4]|H[12]|next)|next (?:month|quarter|year)|upcoming|pro ?forma|pipeline|if we|assuming|once we|stretch|ambition)\b`,
    String.raw`\b(?:erwart\w*|Ziel\w*|geplant\w*|Plan\w*|Prognose\w*|voraussichtlich|werden|wird|Budget\w*|prévu\w*|objectif\w*|prévision\w*)\b`,
  ].join("|"),
  "i",
);

export function isForecast(clause: string): boolean {
  // "may" the verb, not May the month.
  return FORECAST.test(clause) || /\bmay\b/.test(clause);
}

/** Words right before an amount that make it an earlier figure ("up from $1.0M", "vs. 40 last month"). */
export const EARLIER_BEFORE = /\b(?:from|vs\.?|versus|compared (?:to|with)|than|previously|prior|previous|last (?:month|quarter|year)|before|down from|up from|statt|gegenüber|von|was previously|LY|PY)\s*[:(]?\s*(?:about |approx\.? |~|around |roughly )?$/i;

/** Words right after an amount that make it an earlier figure ("$1.0M last month", "40 in Q2"). */
export const EARLIER_AFTER = /^\s*\)?\s*(?:(?:in|at|as of)\s+)?(?:last (?:month|quarter|year)|a (?:month|quarter|year) ago|previously|prior|the (?:month|quarter|year) before|LM|LQ|LY|PY|im Vormonat|Vormonat|Vorjahr|YoY|year[- ]over[- ]year|MoM|QoQ)\b/i;

/** Words that make a percentage (or any amount) a change, not a level: "up 12%", "+8% MoM", "grew by 3". */
export const CHANGE_BEFORE = /\b(?:hired|hiring|onboarded|welcomed|let go|churned|signed|won|closed|grew|grown|growing|growth(?: of)?|increase[ds]?(?: of| by)?|decrease[ds]?(?: of| by)?|decline[ds]?(?: of| by)?|rose|fell|dropped|improved|improvement(?: of)?|by|plus|minus|gained|lost|jumped|added|adding|gestiegen um|um|Wachstum von|Zuwachs von|Steigerung um)\s*(?:about |approx\.? |~|around |roughly |another |a further |an additional )?$/i;
export const CHANGE_AFTER = /^\s*(?:MoM|QoQ|YoY|WoW|m\/m|q\/q|y\/y|month[- ]over[- ]month|quarter[- ]over[- ]quarter|year[- ]over[- ]year|growth|increase|decrease|up|down|higher|lower|more|less|fewer|better|worse|improvement|uplift|vs\.?|gegenüber|Wachstum|Steigerung|mehr|weniger)\b/i;

/**
 * A statement about another period than the update's own (year to date, a year ago, "for
 * comparison") or about another company (an intro, a customer, a market): none of its figures is
 * the company's actual of the period.
 */
const ELSEWHERE = new RegExp(
  [
    String.raw`\b(?:year[- ]to[- ]date|YTD|cumulative(?:ly)?|so far this year|since (?:launch|inception|founding|we started)|lifetime|all[- ]time|to date|seit Jahresbeginn|kumuliert|depuis le début de l'année)\b`,
    String.raw`\b(?:raised|raising|fundrais\w*|(?:seed|extension|bridge|series [A-D]|funding|financing) round|round of|SAFE|convertible|term sheet|valuation|pre-money|post-money|trusted by|used by|serving|powering|assets under (?:management|administration)|assets administered|AUM|AUA)\b`,
    String.raw`\b(?:with|doing|generating|turning over)\s+(?:over |about |~|more than )?[$€£]?\s?\d[\d.,]*\s?(?:[kmb]|bn|mn|million|billion)?\s+(?:in\s+)?(?:annual\s+|yearly\s+)?(?:revenues?|sales|turnover|ARR)\b`,
    String.raw`\b(?:\d+|a few|several|two|three|six|twelve) (?:months|years|quarters) ago|\b(?:a year ago|last year|previous year|prior year|same (?:month|period|quarter) last year|for comparison|comparison|vor einem Jahr|im Vorjahr|Vorjahr|l'an dernier|l'année dernière)\b`,
    String.raw`\b(?:they(?:'re| are| were| have| had| do)|their|unrelated|intro(?:duce|duction|s)?|my (?:former )?(?:colleague|friend)|a friend|competitors?|market (?:size|of|opportunity)|TAM|SAM|SOM|doing \S+ in|signed an? \w+ (?:group|company|customer|client)|largest (?:logo|customer|deal))\b`,
  ].join("|"),
  "i",
);

export function isElsewhere(clause: string): boolean {
  return ELSEWHERE.test(clause);
}
