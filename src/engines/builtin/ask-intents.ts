// What a question asks, by its words: each read intent has families of cues (the nouns of its
// subject, the verbs and question frames people use for it). An intent is a candidate when one of
// its core families is heard, or when the question names a subject of its kind (a portfolio
// company, a deal, a fund, a person) with a supporting cue or an "about" frame ("how is X doing?",
// "tell me about X"). Scores count the families heard plus the subject named; ties go to the more
// specific intent. All matching is on the normalised, folded question (contractions expanded).

export type ReadIntent =
  | "going_stale"
  | "reach_candidates"
  | "research_status"
  | "founder_analysis"
  | "fund_positions"
  | "who_knows"
  | "contact_warmth"
  | "portfolio_company"
  | "deal_status"
  | "list_deals";

/** The kind of subject each intent is about (its "entity"), if any. */
export type SubjectKind = "holding" | "deal" | "fund" | "person" | "company" | "founder" | "research";

/** `about`: an "about" frame naming a subject of its kind means this intent (not so for who-knows: "how is Acme doing?" is no request for an intro). */
type Cues = { core: RegExp[]; support?: RegExp[]; subject?: SubjectKind[]; about?: boolean };

const HOW_WARM = /\bhow (?:warm|close|strong|good|well)\b|\bwarmth\b|\bstrength of\b|\bhow well do (?:i|we) know\b/;

export const CUES: Record<ReadIntent, Cues> = {
  going_stale: {
    core: [
      /\bstale\b|\b(?:been|gone|went|going|most|the most) (?:quiet|silent)\b|\b(?:quietest|most silent)\b|\b(?:going|gone|grown|growing|gotten) cold\b|\b(?:lost|lose|losing|out of) touch\b|\boverdue\b|\bneglect/,
      /\bhave not (?:\w+ ){0,2}(?:talked|spoken|written|emailed|met|seen|contacted|been in touch|caught up)\b|\bin a (?:while|long time)\b|\bfor (?:ages|a while)\b/,
      /\breconnect|\bkeep(?:ing)? in touch\b|\b(?:catch up|follow up) with\b|\bshould (?:i |we )?(?:ping|email|call|write to)\b|\b(?:ping|email|call|write to) again\b/,
    ],
  },
  reach_candidates: {
    core: [
      /\breach candidates?\b|\breachable\b|\b(?:can|could) (?:i|we) reach\b|\bfounders? (?:i|we) (?:can|could|should|might) (?:reach|meet|contact|get)\b|\bwho should (?:i|we) (?:reach out to|meet)\b/,
    ],
    support: [/\bfounders?\b.*\b(?:through|via|in) (?:my|our) (?:network|contacts|friends)\b/],
  },
  research_status: {
    core: [/\bresearch(?:es|ed)?\b|\bdeep dive\b|\binvestigation\b/],
    support: [/\bstatus\b|\bprogress\b|\bdone\b|\bfinished\b|\bready\b|\bresults?\b|\bfind\b|\bfound\b|\bsummary\b|\bhow far\b|\bcome back\b|\bsay\b/],
    subject: ["research"],
    about: true,
  },
  founder_analysis: {
    core: [/\b(?:co )?founders?\b|\bceo\b/],
    support: [/\bscore[ds]?\b|\banaly[sz](?:is|ed|e)\b|\bassess(?:ment|ed)?\b|\bresults?\b|\brating\b|\brated\b|\bevaluation\b|\bstrengths?\b|\brisks?\b|\bhow good\b/],
    subject: ["founder"],
    about: true,
  },
  fund_positions: {
    core: [
      /\btvpi\b|\bdpi\b|\birr\b|\brvpi\b|\bnav\b|\bdistributions?\b|\bdistributed\b|\bcalled capital\b|\bcapital calls?\b|\bunfunded\b|\bmultiples?\b/,
      /\blp (?:book|positions?|commitments?|portfolio)\b|\bfunds?\b|\bcommitments?\b|\bfund performance\b/,
    ],
    subject: ["fund"],
    about: true,
  },
  who_knows: {
    core: [
      /\bwho (?:else )?(?:knows|do (?:we|i|you) know|does (?:anyone|anybody) know|can (?:intro|introduce|connect)|(?:has|have) (?:a |any )?(?:contacts?|connections?|relationships?|lines?|paths?|ins?))\b|\b(?:know|knows) (?:anyone|anybody|someone|somebody|people|folks)\b|\bany(?:one|body) (?:\w+ ){0,3}(?:connected|linked|close|knows?)\b|\bwho (?:\w+ ){1,4}knows\b|\bwho (?:s|is|has|have) got (?:the |a |any )?(?:best |strongest |warmest |closest |good )?(?:lines?|paths?|connections?|ins?|intros?|relationships?|ways?) (?:in|into|to|with|at)\b|\b(?:do|does|did) (?:we|i|you|anyone|anybody) know (?:\w+ ){0,2}(?:at|from|in|inside)\b/,
      /\bwho (?:is|are|works?) (?:\w+ ){0,3}(?:at|from)\b|\b(?:people|someone|anyone|somebody|folks) (?:at|from|inside)\b|\bintro(?:duce|duction|ductions|s)?\b|\bwarm (?:path|intro|introduction|lead)s?\b|\bpaths? (?:to|into)\b|\bget (?:me )?(?:to|into|in front of)\b|\bconnect(?:ed|ion|ions)? (?:to|with|at|into)\b|\bcontacts? (?:at|in|inside)\b/,
    ],
    subject: ["company", "person"],
  },
  contact_warmth: {
    core: [HOW_WARM, /\brelationship (?:with|to)\b|\bwhen did (?:i|we) last (?:talk|speak|meet|email|write)\b|\blast (?:touch|contact)\b/],
    subject: ["person"],
    about: true,
  },
  portfolio_company: {
    core: [
      /\brunway\b|\barr\b|\bmrr\b|\brevenue\b|\bburn\b|\bcash\b|\bmetrics?\b|\bkpis?\b|\bheadcount\b/,
      /\bmargins?\b|\bemployees\b|\bstaff\b|\bcustomers?\b|\bchurn\b|\bretention\b|\bnps\b|\bcac\b|\bltv\b|\bebitda\b|\bprofit(?:s|able|ability)?\b/,
    ],
    support: [/\bportfolio\b|\bownership\b|\binvested\b|\bpositions?\b|\bstake\b|\bvaluation\b|\bvalued\b/],
    subject: ["holding"],
    about: true,
  },
  deal_status: {
    core: [/\bdeals?\b|\bpipeline stage\b/, /\bstatus\b|\bscore[ds]?\b|\brating\b|\banaly[sz](?:is|ed|e)\b|\bevaluat(?:e|ed|ion)\b|\bassess(?:ed|ment)?\b|\bround\b|\braising\b|\bstage\b/],
    subject: ["deal"],
    about: true,
  },
  list_deals: {
    core: [/\bpipeline\b|\bdeal ?flow\b/, /\b(?:show|list|what|which|latest|newest|recent|all|our|my|any) (?:\w+ )?deals\b|\bdeals (?:do we have|are there|in)\b/],
  },
};

/** Ties go to the first: the more specific intents come first. */
export const PRIORITY = Object.keys(CUES) as ReadIntent[];

/** "How is X doing?", "tell me about X": which function answers depends on what X is. */
export const ABOUT =
  /^how (?:is|are)\b|\bhow (?:is|are) .+ (?:doing|going|performing|getting on|coming along|looking)\b|^who (?:is|are)\b|\bhow (?:is|are) things (?:at|with)\b|\btell me (?:more )?about\b|\bwhat about\b|\bupdate on\b|\bnews (?:on|about|from)\b|\bwhat do (?:we|you) (?:know|have) (?:on|about)\b|\boverview of\b|\bsummar(?:y|ize|ise) (?:of|for)?\b|\bwhat is (?:up|new|happening) with\b/;

export const PERSON_PRONOUN = /\b(?:she|he|her|him|this person|that person)\b/;
export const THING_PRONOUN = /\b(?:it|its|they|their|them|that company|this company|that deal|this deal|that fund|this fund|there)\b/;

/** Words that say what is asked, never who or what it is about. */
export const CUE_WORDS = new Set(
  `runway arr mrr revenue burn cash metrics metric kpi kpis headcount portfolio ownership invested position positions stake valuation valued
   tvpi dpi irr rvpi nav distributions distribution distributed called capital calls unfunded multiple multiples lp book commitments commitment
   performance fund funds deal deals pipeline stage status score scores scored rating rated analysis analyse analyze analysed analyzed
   assessment assess assessed evaluation evaluate result results round raising founder founders cofounder ceo research researched report
   progress finished ready summary warm warmth close strong strength relationship relationships intro introduce introduction introductions
   path paths connected connection connections contact contacts know knows knew talked spoken touch stale cold overdue reconnect reach
   reachable candidates candidate doing going performing happening growing someone anyone somebody people folks who network
   review look see check find found started start run kick off launch begin compare versus vs`
    .split(/\s+/)
    .filter(Boolean),
);

export type Heard = { intent: ReadIntent; score: number };

/**
 * The candidate intents, best first. `has` says which kinds of subject the question names (resolved
 * against the firm's data by the caller).
 */
export function hear(folded: string, has: (kind: SubjectKind) => boolean): Heard[] {
  const aboutFrame = ABOUT.test(folded);
  const heard: Heard[] = [];
  for (const intent of PRIORITY) {
    const cues = CUES[intent];
    const about = aboutFrame && cues.about === true;
    const core = cues.core.filter((re) => re.test(folded)).length;
    const support = (cues.support ?? []).filter((re) => re.test(folded)).length;
    if (core === 0 && support === 0 && !about) continue;
    // Resolving a subject may query the database: only for intents that are heard at all.
    const named = (cues.subject ?? []).some(has);
    if (core === 0 && !(named && (support > 0 || about))) continue;
    heard.push({ intent, score: core + support + (named ? 1 : 0) + (named && about ? 1 : 0) });
  }
  return heard.sort((a, b) => b.score - a.score || PRIORITY.indexOf(a.intent) - PRIORITY.indexOf(b.intent));
}
