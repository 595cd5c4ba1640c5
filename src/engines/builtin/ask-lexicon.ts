// The words partners use for the firm's records, read on the folded question: which kind of
// record a question is about (deals, portfolio companies, LP positions, calls and distributions,
// people, research, documents), which figure (runway, burn, TVPI, score...), which order
// ("shortest", "best-scoring", "newest"), which aggregate ("how many", "total", "average",
// "how has it changed") and which filters (pipeline stage, status, round, kind of deal, currency).
import type { Aggregate, RecordKind } from "../ask-engine.ts";

/** What a written threshold's unit says about its figure: "2x" is a multiple, "15%" a percentage, "$2M" money. */
export type CueUnit = "x" | "%" | "money" | "months";

export type FieldCue = { field: string; kinds: RecordKind[]; re: RegExp; metric?: true; unit?: CueUnit };

/** Figures, by the words for them; `kinds` in order of likelihood (a metric is a holding's figure). */
export const FIELD_CUES: FieldCue[] = [
  { field: "runway_months", kinds: ["holdings"], re: /\brunways?\b|\b(?:last|lasts|survive|survives|keep going) (?:the )?(?:longer|longest)\b|\bmonths of (?:cash|runway)\b|\bhow many months (?:left|do (?:they|we|you|it) have|does (?:that|it|this) give|will (?:that|it|this) (?:last|give))\b|\bmonths left\b|\bhow long (?:can|will|could) .+ (?:last|survive|keep going)\b|\bout of (?:cash|money)\b/, metric: true, unit: "months" },
  { field: "monthly_burn", kinds: ["holdings"], re: /\b(?:cash |monthly |net )?burn(?:ing|ers|ed| rates?|s)?\b|\bmonthly spend\b/, metric: true, unit: "money" },
  { field: "arr", kinds: ["holdings"], re: /\barr\b|\bannual(?:ized)? recurring revenue\b|\brecurring revenue\b|\brevenues?\b|\btop line\b/, metric: true, unit: "money" },
  { field: "mrr", kinds: ["holdings"], re: /\bmrr\b|\bmonthly recurring revenue\b/, metric: true, unit: "money" },
  { field: "headcount", kinds: ["holdings"], re: /\bheadcount\b|\bpeople employed\b|\bemploy(?:s|ed|ing)\b|\b(?:total|combined) (?:people|ppl|staff)\b|\b\d+\+? (?:people|ppl|employees|heads|staffers|ftes)\b|\bemployees\b|\bstaff\b|\bteam sizes?\b|\bftes?\b|\bhow many (?:people|ppl|folks|heads) (?:work|are employed|at|in|on)\b|\bhow (?:big|large) is (?:the |their |its |[\w']+ ){0,3}team\b|\bteam (?:growth|size|count)\b|\b(?:growth|change) (?:of|in) (?:the |their |its )?team\b|\bteams? (?:bigger|larger|smaller|greater|of (?:more|less|fewer|over|under|at least|at most))\b|\b(?:bigger|larger|smaller) teams?\b|\b(?:grow|grew|grown|growing|shr[iau]nk|shrinking|cut|cutting|expand(?:ed|ing)?) (?:its|their|the) team\b|\bhiring\b|\bhires\b|\bhired\b|\blayoffs?\b/, metric: true },
  { field: "cash", kinds: ["holdings"], re: /\bcash (?:in the bank|balance|on hand|position|reserves?)\b|\bhow much cash\b|\bbank balance\b/, metric: true, unit: "money" },
  { field: "gross_margin", kinds: ["holdings"], re: /\bgross margins?\b|\bmargins?\b|\bgm\b/, metric: true, unit: "%" },
  { field: "cash", kinds: ["holdings"], re: /\bcash (?:balance|on hand|position)\b|\bbank balance\b/, metric: true, unit: "money" },
  { field: "customers", kinds: ["holdings"], re: /\bcustomers?\b(?! (?:churn|retention|acquisition))|\bclients\b|\blogos\b/, metric: true },
  { field: "churn", kinds: ["holdings"], re: /\b(?:customer |logo |revenue )?churn\b|\bretention\b|\bnrr\b/, metric: true, unit: "%" },
  // Figures partners ask for that a book may or may not hold: asked by name, answered from the records or said to be missing.
  { field: "nps", kinds: ["holdings"], re: /\bnps\b|\bnet promoter\b/, metric: true },
  { field: "cac", kinds: ["holdings"], re: /\bcac\b|\bcustomer acquisition cost\b/, metric: true, unit: "money" },
  { field: "ltv", kinds: ["holdings"], re: /\bltv\b|\blifetime value\b/, metric: true, unit: "money" },
  { field: "ebitda", kinds: ["holdings"], re: /\bebitda\b|\bprofits?\b|\bnet income\b|\bprofitab(?:le|ility)\b/, metric: true, unit: "money" },
  { field: "score", kinds: ["deals"], re: /\bscor(?:e|es|ed|ing)\b|\brat(?:ing|ed)\b|\bhighest rated\b/ },
  { field: "pre_money", kinds: ["deals"], re: /\bpre[ -]?money\b|\bpre[ -]?money valuations?\b|\bpre\b(?= (?:under|over|below|above|of|at))|\b(?:what|which|the|a|at what|their|its) pre\b(?! (?:seed|series|a|ipo|revenue|launch))/, unit: "money" },
  { field: "round_amount", kinds: ["deals"], re: /\braising\b(?! an? )|\b(?:raise|raises|raised|seek|seeks|seeking) (?:at most|at least|up to|over|under|below|above|more than|less than|about|around)\b|\bround sizes?\b|\braise sizes?\b|\b(?:raise|round|raising) amounts?\b|\bsize of (?:the |their )?raises?\b|\bsize of (?:the |their )?(?:[a-z]+ )?rounds?\b|\braising the most\b|\b(?:biggest|largest|smallest) (?:rounds?|raises?)\b|\bamount raised\b|\b(?:total|their|the|its) raises?\b|\bhow big (?:is|was) (?:the|their|its) (?:\w+ ){0,2}(?:fund|round|raise)\b|\bhow much (?:are|is) .+ raising\b/, unit: "money" },
  { field: "created", kinds: ["deals"], re: /\bcame in\b|\bcome in\b|\bcoming in\b|\barrived\b|\bsubmitted\b|\badded\b|\breceived\b|\binbound\b|(?<!\bwho\b.{0,30})\bsourced\b(?! by)/ },
  { field: "tvpi", kinds: ["positions"], re: /\btvpi\b|\btotal value (?:to|over) paid in\b/, unit: "x" },
  { field: "dpi", kinds: ["positions"], re: /\bdpi\b/, unit: "x" },
  { field: "rvpi", kinds: ["positions"], re: /\brvpi\b/, unit: "x" },
  { field: "irr", kinds: ["positions"], re: /\birrs?\b|\binternal rate of return\b/, unit: "%" },
  { field: "nav", kinds: ["positions"], re: /\bnavs?\b|\bnet asset value\b/, unit: "money" },
  { field: "unfunded", kinds: ["positions"], re: /\bunfunded\b|\buncalled\b|\bdry powder\b|\bremaining commitments?\b|\bleft to (?:be )?call(?:ed)?\b|\bstill owed? (?:to )?(?!us\b|me\b|their\b|its\b|his\b|her\b|them\b)|\bstill to (?:be )?(?:called|paid in|funded)\b|\bleft to pay\b|\bstill (?:call|draw)\b|\bstill (?:callable|be called|to draw)\b|\byet to be (?:called|drawn)\b|\bnot yet (?:called|drawn)\b/, unit: "money" },
  { field: "commitment", kinds: ["positions"], re: /(?<!\b(?:unfunded|uncalled|remaining|outstanding|open) )\bcommit(?:ted|ments?)\b|\bpledged\b/, unit: "money" },
  { field: "called", kinds: ["positions", "cashflows"], re: /(?<!\b(?:to be|yet to be|still to be|remaining to be|not yet|not been|yet|still) )\bcalled\b|(?<=\b(?:did|does|do|has|have) (?:\w+ ){0,3})call\b|\bpaid in\b|\bcontributed\b|(?<!\b(?:to be|yet to be|still to be|be) )\bdrawn(?: down)?\b|\bdraw(?:s|ing)? down\b|\bcall(?:ed)? (?:in|up)\b/, unit: "money" },
  { field: "distributed", kinds: ["positions", "cashflows"], re: /\bdistribut(?:e|ed)\b|\bpaid out\b|\breturned to us\b|\b(?:sent|send|paid|pay) us\b(?!\s+(?:\w+\s+)?(?:numbers?|figures?|updates?|metrics?|kpis?|financials?|reports?|actuals?|data)\b)|\bgot back\b|\b(?:sent|paid|given|handed) (?:us )?back\b|\breturned\b(?= (?:to us|so far|in total|overall|\?|$))/, unit: "money" },
  { field: "vintage", kinds: ["positions"], re: /\bvintages?\b/ },
  { field: "called_pct", kinds: ["positions"], re: /\b(?:percent|percentage|share|portion|how much) of (?:the |our |its |their )?commit(?:ment|ted)s? (?:to \w+(?: \w+)? )?(?:has |have |was |were |is |are )?(?:been )?(?:called|drawn|paid in)\b|\bcalled (?:as a |in )?(?:(?:percent|percentage)|share)\b|\bpaid[- ]in (?:ratio|(?:percent|percentage))\b|\b(?:percent|percentage) called\b/ },
  { field: "founded", kinds: ["deals"], re: /(?<!\bwho (?:co-?)?)\bfounded\b|\bfounding (?:year|date)\b|\bhow old\b|\bincorporated\b|\byear (?:it was |they were )?(?:started|established)\b/ },
  { field: "last_mark", kinds: ["positions"], re: /\b(?:last|latest) (?:got |get |been |was )?marked\b|\b(?:last|latest|most recent) (?:nav |valuation )?mark(?: date)?\b|\bvaluation marks?\b|\bmark dates?\b|\bmarked (?:last|most recently)\b|\bwhen (?:was|were) (?:it|they|\w+(?: \w+){0,3}) (?:last )?marked\b/ },
  { field: "investment_date", kinds: ["holdings"], re: /\bwhen (?:did|have|had) (?:we|i|you|[a-z]+(?: [a-z]+)?) (?:first )?(?:invest|back|fund|put money|come in|get in)\w*\b|\binvestment dates?\b|\bentry dates?\b|\bdate (?:of|we) (?:first )?invest\w*\b|\bhow long (?:have|has) (?:we|the firm) (?:held|owned|been invested)\b/ },
  { field: "invested", kinds: ["holdings"], re: /(?<!\bwhen (?:did|have|had) (?:we|i|you) (?:first )?)\binvest(?:ed)?\b|\bpa(?:y|id) for\b|\bdeployed\b|\bcheques?\b|\bchecks?\b|\bcost basis\b|\bentry (?:price|cheque|check|ticket)\b|\bamount invested\b|\bput (?:in|into)\b|\binvestment sizes?\b|\bcapital deployed\b|\btickets?\b|\bput to work\b/, unit: "money" },
  { field: "valuation", kinds: ["holdings"], re: /\bvaluations?\b|\bvalued\b|\bmarked (?:at|up|down)\b|\bfair value\b|\bcurrent value\b|\bworth\b|\bmark(?:s|ed)?\b|\bon paper\b|\bpaper value\b/, unit: "money" },
  { field: "multiple", kinds: ["holdings"], re: /\bmultiples?\b|\bmoic\b|\bperform(?:ing|ers?|ance)\b|\breturns?\b|\bwinners\b|\blosers\b/, unit: "x" },
  { field: "ownership", kinds: ["holdings"], re: /\bownership\b|\bstakes?\b|\bequity\b|\bhow much (?:of (?:it|the company|that company|them) )?do (?:we|i) own\b|\bpercent (?:we )?own\b|\b(?:percent|pct|share|stake) (?:do |does |did )?(?:we|i) (?:own|hold)\b|\bwhat (?:do|does|did) (?:we|i) own of\b|\b(?:we|i) own\b(?= (?:\w+ )?(?:\d|more|less|over|under|above|below|at least|at most))/, unit: "%" },
  { field: "strength", kinds: ["persons"], re: /\bstrongest\b|\bweakest\b|\bstrength\b|\bclosest\b/ },
  { field: "warmth", kinds: ["persons"], re: /\bwarmest\b|\bcoldest\b/ },
];

/** Figures that are counts of something and add up across records like money does ("total people per sector"). */
export const COUNTED_FIGURES = new Set(["headcount", "customers"]);

/** The kinds of records, by the nouns that name only them (generic ones, such as "companies", are the reader's WEAK_NOUNS). */
export const KIND_CUES: [RecordKind, RegExp][] = [
  ["cashflows", /\bcapital calls?\b|\bcash ?flows?\b|\bdrawdowns?\b|\bdistributions?\b|\bcalls\b|\bcontributions\b/],
  ["research", /\bresearch(?:es)? (?:runs?|reports?|projects?)\b|\bresearch(?:ed)? (?:on|about|into|of|for)\b|\b(?:any|our|my|the|all|what|which) research\b|\bresearched\b|\bresearch (?:have|has|did|do) (?:we|i)\b|\b(?:did|have|has) (?:we|i|anyone|anybody) (?:already )?research(?:ed)?\b/],
  ["documents", /\bdocuments?\b|\bfiles?\b|\bdata ?rooms?\b|\bpdfs?\b|\bpages\b|\bmention(?:s|ing|ed)?\b/],
  ["positions", /\blp (?:positions?|funds?|commitments?|book|portfolio|investments?|stakes?)\b|\bfund positions?\b|\bpositions\b|\bfunds? (?:we|i) (?:are |re )?(?:lps? in|invested in|committed to|backed)\b|\bfund investments\b|\bmanagers\b|\bour funds\b/],
  ["persons", /\bcontacts\b|\brelationships\b|\bconnections\b|\bpeople (?:we|i) know\b|\bour network\b|\bmy network\b/],
  ["deals", /\bdeals?\b|\brounds\b|\bpipeline\b|\bpipe\b|\bdeal ?flow\b|\bopportunit(?:y|ies)\b|\bprospects\b|\bpitch(?:es|ed)\b|\bdecks\b|\binbound\b|\bleads\b|\blp decks?\b/],
  ["holdings", /\bportfolio compan(?:y|ies)\b|\bportfolio\b|\bportcos?\b|\bholdings?\b|\binvestments\b|\bwhat do (?:we|i) (?:own|hold)\b|\bwe (?:own|hold) in\b|\bcompan(?:y|ies) (?:we|i) (?:have )?(?:invested in|backed|funded|hold|own)\b|\bour (?:companies|startups|businesses)\b/],
];

/** Words that make a question about a set of records rather than one: lists, rankings, totals. */
export const LISTING = /\b(?:which|list|show|all|every|each|any|give me|find|rank|sort|compare|what (?:are|were) (?:the|our|my))\b/;

export type OrderCue = { re: RegExp; dir: "asc" | "desc"; /** the field it implies by itself, per kind */ field?: Partial<Record<RecordKind, string>> };

/** What "newest" and "best" order each kind by. */
export const NEWEST_FIELD: Partial<Record<RecordKind, string>> = { deals: "created", holdings: "investment_date", cashflows: "date", research: "created", documents: "uploaded" };
export const BEST_FIELD: Partial<Record<RecordKind, string>> = { holdings: "multiple", positions: "tvpi", deals: "score", persons: "strength" };

export const ORDER_CUES: OrderCue[] = [
  // How far a deal has come through the pipeline (new, screening, diligence, IC, invested).
  { re: /\b(?:furthest|farthest|most) (?:along|advanced)\b|\bclosest to (?:closing|a decision|investing|ic)\b|\blatest[ -]stage\b/, dir: "desc", field: { deals: "progress" } },
  { re: /\bleast (?:along|advanced)\b|\bearliest[ -]stage\b/, dir: "asc", field: { deals: "progress" } },
  { re: /\bshortest\b|\bsoonest\b/, dir: "asc", field: { holdings: "runway_months" } },
  { re: /\blongest\b|\b(?:last|lasts|survive|survives|keep going) (?:the )?longer\b/, dir: "desc", field: { holdings: "runway_months" } },
  { re: /\b(?:best|top|highest)[ -]?(?:scor(?:ing|ed)|rated)\b/, dir: "desc", field: { deals: "score" } },
  { re: /\b(?:worst|lowest|bottom)[ -]?(?:scor(?:ing|ed)|rated)\b/, dir: "asc", field: { deals: "score" } },
  { re: /\b(?:best|top|strongest)[ -]?perform(?:ing|ers?|ance)\b|\bwinners\b|\bbest\b/, dir: "desc", field: BEST_FIELD },
  { re: /\b(?:worst|weakest)[ -]?perform(?:ing|ers?|ance)\b|\blosers\b|\bworst\b/, dir: "asc", field: BEST_FIELD },
  { re: /\b(?:newest|latest|most recent|recent(?:ly)?|last few)\b/, dir: "desc", field: NEWEST_FIELD },
  { re: /\boldest\b|\bearliest\b|\bfirst ones\b/, dir: "asc", field: NEWEST_FIELD },
  { re: /\b(?:biggest|largest|greatest)\b/, dir: "desc", field: { holdings: "valuation", positions: "commitment", cashflows: "amount", deals: "round_amount" } },
  { re: /\bsmallest\b/, dir: "asc", field: { holdings: "valuation", positions: "commitment", cashflows: "amount", deals: "round_amount" } },
  { re: /\bstrongest\b|\bclosest\b|\bwarmest\b/, dir: "desc", field: { persons: "strength" } },
  { re: /\bweakest\b|\bcoldest\b/, dir: "asc", field: { persons: "strength" } },
  // ("At least", "at most", "no more than" bound a figure; they rank nothing.)
  { re: /\b(?:highest|(?<!\bat |\bno )most|top|leading|fastest|max(?:imum)?|burning the most|most cash)\b/, dir: "desc" },
  { re: /\b(?:lowest|(?<!\bat |\bno )least|fewest|bottom|min(?:imum)?|slowest)\b/, dir: "asc" },
];

/** "by ARR", "sorted by score", "ranked by TVPI": the order's field named after "by". */
/** "by ARR", "ranked by TVPI": the order's figure is the one named after "by". */
export const ORDER_BY = /\bby\b/;
export const ASCENDING = /\bascending\b|\blowest first\b|\bsmallest first\b|\bworst first\b|\bshortest first\b|\boldest first\b|\bleast first\b/;

export const AGGREGATE_CUES: [Aggregate, RegExp][] = [
  ["count", /\bhow many\b|\bnumber of\b|\bcount\b|\bhow much of (?:a|the) (?:pipeline|portfolio)\b/],
  ["median", /\bmedian\b(?! ?-?ish)|\bmiddle (?:value|one|figure)\b/],
  ["avg", /\baverage\b|\bavg\b|\bmean\b|\btypical\b|\bon average\b/],
  ["change", /\bchang(?:e|ed|es|ing)\b|\b(?:gone|go|went|going) (?:up|down)\b|\bris(?:en|ing)\b|\bfall(?:en|ing)\b|\bgr[eo]w(?:n|th|ing|s)?\b|\bincreas(?:e|ed|es|ing)\b|\bdecreas(?:e|ed|es|ing)\b|\bdeclin(?:e|ed|es|ing)\b|\bdrop(?:ped|s)?\b|\btrend(?:ing|s)?\b|\bevolv(?:e|ed|ing)\b|\bover time\b|\bdelta\b|\bup or down\b|\b(?:move|moved|moves|moving)\b(?! (?:to|into|in|from)\b)|\bhistory\b|\bwent from\b|\bfrom what to what\b|\bthen (?:vs|versus|and|to) now\b|\bshr[iau]nk\b/],
  ["sum", /\bwhat (?:did|has|have) +(?:\w+ +){0,3}(?:put in(?:to)?|invest(?:ed)? in|deploy(?:ed)?(?: in(?:to)?)?)\b|\btotal\b|\bsum(?:med)?\b|\badd(?:ed|ing)? (?:it |them |these |those |all |the )?up\b|\btally\b|\bcombined\b|\baltogether\b|\b(?:each and|put|added|all) together\b|\btogether\b(?= *(?:$|more or less|roughly|approximately|approx|in total|please|on the books|at (?:cost|book|the last mark)))|\bin total\b|\baggregate\b|\bacross (?:all|the|our)\b|\boverall\b|\bhow much\b|\ball[ -]in\b(?= *(?:$|,))/],
];

/** Pipeline stages, by the words for them. "new" only with "stage" near it ("new deals" are recent ones). */
export const DEAL_STAGE_CUES: [string, RegExp][] = [
  ["ic", /\bic\b|\binvestment committee\b|\bcommittee\b/],
  ["diligence", /\b(?:due )?dil+igence\b|\bdd\b/],
  ["screening", /\bscreen(?:ing|ed)?\b|\btriage\b/],
  ["invested", /\b(?:we )?invested in\b|\bclosed\b|\bwon\b|\bstage invested\b|\binvested stage\b|\bare invested\b/],
  ["passed", /\bpass(?:ed)?\b|\brejected\b|\bdeclined\b|\bturned down\b|\bkilled\b|\bdropped\b|\blost\b/],
  ["new", /\bstage new\b|\bnew stage\b|\b(?:at|in) (?:the )?new\b|\buntriaged\b|\bnot yet screened\b/],
];

export const HOLDING_STATUS_CUES: [string, RegExp][] = [
  ["exited", /\bexit(?:ed|s)?\b|\bsold\b|\brealized\b|\brealised\b/],
  ["written_off", /\bwritten off\b|\bwrite ?offs?\b|\bwrote off\b|\bdead\b|\bfailed\b|\bshut down\b/],
  ["active", /\bactive\b|\blive\b|\bstill (?:in|held)\b|\b(?:we|i) still (?:hold|own|have)\b|\bcurrent (?:holdings|investments|companies|portfolio)\b/],
];

export const ROUND_CUES: [string, RegExp][] = [
  ["pre-seed", /\bpre[ -]?seed\b/],
  ["seed", /\bseed\b/],
  // ("A round" is Series A when "a" cannot be the article: "A rounds", "an A round", "A round deals"; not "deals without a round size".)
  ["series a", /\bseries a\b|\ba rounds\b|\b(?:the|an|their|its|our) a round\b|\ba round (?:deals|companies|startups|investments|raises|valuations|stage)\b|^a round\b/],
  ["series b", /\bseries b\b|\bb rounds?\b/],
  ["series c", /\bseries [c-f]\b/],
  ["growth", /\bgrowth(?: stage| round| equity)\b|\blate stage\b/],
];

export const FUND_DEAL = /(?<!\bnon[ -]?)\b(?:fund|lp|gp) (?:deals?|decks?|pitches|raises?|opportunities)\b|\b(?:lp )?fund decks?\b|\bfunds? (?:raising|pitching|in (?:the|our) pipeline)\b|\bmanagers? (?:\w+ )?(?:raising|pitching)\b|\bfundraising funds\b/;
/** Deals called "startups" or "operating companies": the companies' (a fund raising is neither). */
export const STARTUPS = /\bstartups?\b|\boperating (?:compan(?:y|ies)|businesses)\b/;
export const COMPANY_DEAL = /\bcompany deals\b|\bstartups? (?:deals?|rounds?|raises?|pitches)\b|\bdirect deals\b/;

export const CURRENCY_CUES: [string, RegExp][] = [
  ["USD", /\busd\b|\bdollar\b|\bdollars\b|\bus\$/],
  ["EUR", /\beur\b|\beuros?\b|\beuro(?:-denominated)?\b/],
  ["GBP", /\bgbp\b|\bpounds?\b|\bsterling\b/],
  ["CHF", /\bchf\b|\bfrancs?\b/],
];

export const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twelve: 12, fifteen: 15, twenty: 20 };
const N = String.raw`(\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty)`;
/** "top 5", "5 best", "first three", "bottom 3", "the three largest". */
export const TOP_N = new RegExp(String.raw`\b(?:top|first|bottom|best|worst|last) ${N}\b|\b${N} (?:best|worst|top|biggest|largest|highest|lowest|smallest|newest|latest|most|least|oldest|strongest|warmest|closest|weakest|shortest|longest|fastest|deals|companies|portfolio|funds|positions|calls|distributions|contacts|people|holdings|startups)\b`);

/** The figure words of every field and kind: what is never taken for part of a name. */
export const LEXICON_WORDS = `domain domains median simple unweighted pooled arithmetic mean qtr qtrs portfolio portcos portco holdings holding investments investment companies company startups businesses deals deal pipeline flow
  opportunities opportunity prospects pitches decks deck inbound leads lp lps positions position funds fund managers manager commitments commitment
  capital calls call cashflows cashflow distributions distribution drawdowns contributions research runs reports documents document files file
  pages data room rooms mention mentions mentioning contacts relationships connections network people runway runways burn burning rate arr mrr
  revenue revenues recurring annual annualized headcount employees staff margin margins gross cash customers churn retention score scores scored
  scoring rating rated round rounds raising raise raised size sizes amount tvpi dpi rvpi irr nav navs unfunded uncalled called paid distributed
  vintage vintages invested deployed valuation valuations valued marked worth multiple multiples moic performing performance performers returns
  ownership stake stakes equity strongest weakest warmest coldest closest strength shortest longest best worst top highest lowest newest latest
  recent recently oldest earliest biggest largest greatest smallest most least fewest bottom leading fastest slowest total sum combined
  altogether aggregate overall average avg mean typical change changed growth grew grown growing increase increased decrease decreased decline
  declined trend trending history count number many much stage stages ic committee diligence dd screening screened passed rejected declined
  exited exits exit sold realized written off write offs active live seed series pre growth usd eur gbp dollars euros pounds sector sectors
  fintech health climate ai robotics logistics security edtech proptech saas marketplaces consumer developer tools payments infrastructure
  sort sorted rank ranked order ordered list listed by ascending descending per each every vs versus above below over under least more less
  than months month years year weeks week days day quarter quarters today yesterday since before after between ytd
  commit commits committed investing invest invests distribute distributes distributing calling raised raising burned scoring
  employees employee customer customers clients staff headcounts margins initially originally first
  breakdown split mix spread distributed across monthly quarterly yearly annually type types kind kinds
  leaving leave ignoring ignore minus counting excluding except neither nor mo mos names list brand gm ppl qoq mom yoy shrunk shrink shrank then pull grab fetch incl including inc`
  .split(/\s+/)
  .filter(Boolean);
