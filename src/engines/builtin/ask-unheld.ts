// Terms a venture firm uses that Dealgraph's records do not keep. Kept apart from the lexicon on
// purpose: the said-back check counts the lexicon's words as understood, and these must not be.
/**
 * Terms and facts a venture firm speaks of that Dealgraph's records do not keep: asked for, they
 * are said to be missing before whatever else the answer gives, never answered with another figure.
 */
/** `figure`: the term is a figure; asked without a figure the records hold, nothing else is totalled in its place. */
export const UNHELD: [RegExp, string, "figure"?][] = [
  [/\bwho (?:\w+ ){0,4}sourced\b|\bsourced by\b|\bsourcer\b|\bdeal lead\b|\bwho (?:is |s )?(?:leading|led|owns|owned) (?:the |this |that )?deal\b/, "who sourced or leads a deal"],
  [/\bboard (?:seats?|members?|observers?)\b|\bon the board\b/, "board seats"],
  [/\bvaluation caps?\b|\bcap table\b|\bdiscount rate\b|\bsafes?\b(?= (?:terms?|notes?|caps?|discount|round))|\b(?:on|of|in) (?:the|their|its|our|a) safe\b|\bpost ?money safe\b/, "SAFE and cap-table terms"],
  [/\bliquidation pref(?:erence)?s?\b|\bliq prefs?\b|\bpro ?rata rights?\b|\bvoting rights?\b|\banti ?dilution\b/, "share terms (preferences, pro-rata, voting)"],
  [/\b(?:mgmt|management) fees?\b|\bcarry\b|\bcarried interest\b|\bhurdle rate\b/, "fund fees and carry", "figure"],
  [/\blead investors?\b|\bwho (?:is |s )?leading (?:the|their|its) round\b|\bco-?investors?\b|\bsyndicate\b/, "the lead investor or co-investors of a round (who leads or joins it)"],
  [/\bgp commit(?:ment)?s?\b|\bgeneral partner(?:'s| s)? commit(?:ment)?s?\b/, "the GP's own commitment to a fund", "figure"],
  [/\bcapital accounts?\b/, "capital account statements", "figure"],
  [/\bnet (?:revenue|dollar) retention\b|\bnrr\b|\bndr\b|\b(?:logo|customer|gross) retention\b/, "revenue retention", "figure"],
  // (A period's revenue is not ARR: the ARR the records keep follows, named as ARR.)
  [/(?<!recurring |net )\brevenues?\b(?! run[- ]?rate| retention)/, "revenue for a period (the records keep ARR, given instead where asked)"],
];
