// Per-deck verdicts of the blind corpus: the labels held against what the API returned for the deck
// (GET /api/v1/deals/{id}?view=full), and their aggregate. Pure functions, unit-tested.
import type { BlindLabels } from "./labels.ts";

/** What this scorer reads of a deal detail (view=full); everything else is ignored. */
export type DealView = {
  analysis_status?: string;
  kind?: string | null;
  company_name?: string | null;
  company?: { name?: string | null } | null;
  round?: { stage?: string | null; amount?: number | null; currency?: string | null; pre_money_valuation?: number | null } | null;
  team?: { name: string; title?: string | null }[] | null;
  analysis?: { sections?: { key: string; score: number | null; evidence?: { quote?: string | null }[] | null }[] | null } | null;
};

export type Verdict = {
  id: string;
  /** The analysis did not succeed: every field below counts as missed. */
  failed: boolean;
  company: { ok: boolean; got: string | null; want: string };
  kind: { ok: boolean; got: string | null; want: string };
  stage: { ok: boolean; got: string | null; want: string | null };
  amount: { ok: boolean; wrong: boolean; missed: boolean; got: string; want: string };
  pre_money: { ok: boolean; wrong: boolean; missed: boolean; got: number | null; want: number | null };
  team: { tp: number; fp: number; fn: number; extra: string[]; missed: string[]; notTeam: string[] };
  /** Sections given a score that the deck does not address. */
  scoredWithoutEvidence: string[];
  /** The quotes the reader gave for those sections, for the dev report. */
  unsupportedQuotes: Record<string, string[]>;
  /** Sections the deck addresses that got no score (reported, not a failure). */
  addressedUnscored: string[];
};

const fold = (s: string) => s.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
const LEGAL = /\b(gmbh|ug \(haftungsbeschrankt\)|ug|ag|sa|sas|sarl|s\.a\.|inc|incorporated|corp|corporation|ltd|limited|llc|plc|b\.?v\.?|n\.?v\.?|oy|ab|as|aps|srl|spa|co)\.?$/;

/** Company names compared without case, accents, punctuation, spacing, or a trailing legal form. */
export function normCompany(s: string | null | undefined): string {
  if (!s) return "";
  let t = fold(s).replace(/[,.]\s*$/, "").trim();
  for (let i = 0; i < 2; i++) t = t.replace(/[\s,]+$/, "").replace(LEGAL, "").trim();
  return t.replace(/[^\p{L}\p{N}]/gu, "");
}

/** Stages compared by letters and digits only: "Series A" = "series-a"; "Pre-Series A" stays apart. */
export function normStage(s: string | null | undefined): string | null {
  if (!s) return null;
  const t = fold(s).replace(/\b(round|runde|financing|funding)\b/g, "").replace(/[^\p{L}\p{N}]/gu, "");
  return t.replace(/^serie([a-z])$/, "series$1").replace(/^preserie([a-z])$/, "preseries$1") || null;
}

/** Person names compared without honorifics, degrees, case, accents or punctuation. */
export function normPerson(s: string): string {
  return fold(s)
    .replace(/^((prof|dr|dipl\.?-ing|mr|mrs|ms|sir)\.?\s+)+/g, "")
    .replace(/,?\s+(phd|ph\.d\.|mba|md|msc|dphil)\.?$/g, "")
    .replace(/[^\p{L}\p{N} ]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

const moneyText = (amount: number | null | undefined, currency: string | null | undefined) => (amount === null || amount === undefined ? "null" : `${amount} ${currency ?? "?"}`);
const sameMoney = (a: number | null | undefined, b: number | null) => a !== null && a !== undefined && b !== null && Math.abs(a - b) < 0.5;

export function scoreDeck(labels: BlindLabels, deal: DealView): Verdict {
  const failed = deal.analysis_status !== undefined && deal.analysis_status !== "succeeded";
  const round = deal.round ?? {};
  const company = deal.company?.name ?? deal.company_name ?? null;
  const names = [labels.company_name, ...labels.company_aliases].map(normCompany);
  const companyOk = !failed && company !== null && names.includes(normCompany(company));

  const gotStage = round.stage ?? null;
  const stageOk = !failed && normStage(gotStage) === normStage(labels.round.stage);

  const want = labels.round;
  const gotAmount = round.amount ?? null;
  const gotCurrency = round.currency ? round.currency.toUpperCase() : null;
  const amountRight = want.amount === null ? gotAmount === null : sameMoney(gotAmount, want.amount) && gotCurrency === want.currency;
  const amountWrong = gotAmount !== null && !amountRight;
  const gotPre = round.pre_money_valuation ?? null;
  const preRight = want.pre_money === null ? gotPre === null : sameMoney(gotPre, want.pre_money);

  const got = new Map<string, string>();
  for (const m of deal.team ?? []) if (m?.name) got.set(normPerson(m.name), m.name);
  const truth = new Set(labels.team.map((m) => normPerson(m.name)));
  const notTeam = new Set(labels.not_team.map(normPerson));
  const extra = [...got.keys()].filter((n) => !truth.has(n));
  const missed = [...truth].filter((n) => !got.has(n));

  const allowed = new Set<string>([...labels.sections_addressed, ...labels.sections_optional]);
  const sections = (deal.analysis?.sections ?? []).filter((s) => s.score !== null && s.score !== undefined);
  const scored = sections.map((s) => s.key);
  const unsupported = failed ? [] : scored.filter((k) => !allowed.has(k));
  return {
    id: labels.id,
    failed,
    company: { ok: companyOk, got: company, want: labels.company_name },
    kind: { ok: !failed && deal.kind === labels.kind, got: deal.kind ?? null, want: labels.kind },
    stage: { ok: stageOk && !failed, got: gotStage, want: labels.round.stage },
    amount: { ok: amountRight && !failed, wrong: amountWrong, missed: failed || (want.amount !== null && gotAmount === null), got: moneyText(gotAmount, gotCurrency), want: moneyText(want.amount, want.currency) },
    pre_money: { ok: preRight && !failed, wrong: gotPre !== null && !preRight, missed: failed || (want.pre_money !== null && gotPre === null), got: gotPre, want: want.pre_money },
    team: {
      tp: truth.size - missed.length,
      fp: extra.length,
      fn: missed.length,
      extra: extra.map((n) => got.get(n)!),
      missed: labels.team.filter((m) => missed.includes(normPerson(m.name))).map((m) => m.name),
      notTeam: extra.filter((n) => notTeam.has(n)).map((n) => got.get(n)!),
    },
    scoredWithoutEvidence: unsupported,
    unsupportedQuotes: Object.fromEntries(sections.filter((s) => unsupported.includes(s.key)).map((s) => [s.key, (s.evidence ?? []).map((e) => e?.quote ?? "").filter(Boolean)])),
    addressedUnscored: failed ? [...labels.sections_addressed] : labels.sections_addressed.filter((k) => !scored.includes(k)),
  };
}

export type Summary = {
  decks: number;
  failed: number;
  company: number;
  kind: number;
  stage: number;
  /** Decks whose amount is right (a null label answered null counts), over all decks. */
  amountRight: number;
  /** Of the decks that state an amount, those answered with the exact value and currency. */
  amountExact: number;
  amountStated: number;
  wrongAmounts: number;
  wrongPreMoney: number;
  preMoneyExact: number;
  preMoneyStated: number;
  team: { tp: number; fp: number; fn: number; precision: number; recall: number; f1: number };
  notTeamInTeam: number;
  scoredWithoutEvidence: number;
  decksScoredWithoutEvidence: number;
  addressedUnscored: number;
};

export function summarize(pairs: { labels: BlindLabels; verdict: Verdict }[]): Summary {
  const s: Summary = { decks: pairs.length, failed: 0, company: 0, kind: 0, stage: 0, amountRight: 0, amountExact: 0, amountStated: 0, wrongAmounts: 0, wrongPreMoney: 0, preMoneyExact: 0, preMoneyStated: 0, team: { tp: 0, fp: 0, fn: 0, precision: 0, recall: 0, f1: 0 }, notTeamInTeam: 0, scoredWithoutEvidence: 0, decksScoredWithoutEvidence: 0, addressedUnscored: 0 };
  for (const { labels, verdict: v } of pairs) {
    if (v.failed) s.failed++;
    if (v.company.ok) s.company++;
    if (v.kind.ok) s.kind++;
    if (v.stage.ok) s.stage++;
    if (v.amount.ok) s.amountRight++;
    if (labels.round.amount !== null) {
      s.amountStated++;
      if (v.amount.ok) s.amountExact++;
    }
    if (v.amount.wrong) s.wrongAmounts++;
    if (v.pre_money.wrong) s.wrongPreMoney++;
    if (labels.round.pre_money !== null) {
      s.preMoneyStated++;
      if (v.pre_money.ok) s.preMoneyExact++;
    }
    s.team.tp += v.team.tp;
    s.team.fp += v.team.fp;
    s.team.fn += v.team.fn;
    s.notTeamInTeam += v.team.notTeam.length;
    s.scoredWithoutEvidence += v.scoredWithoutEvidence.length;
    if (v.scoredWithoutEvidence.length) s.decksScoredWithoutEvidence++;
    s.addressedUnscored += v.addressedUnscored.length;
  }
  const t = s.team;
  t.precision = t.tp + t.fp ? t.tp / (t.tp + t.fp) : 1;
  t.recall = t.tp + t.fn ? t.tp / (t.tp + t.fn) : 1;
  t.f1 = t.precision + t.recall ? (2 * t.precision * t.recall) / (t.precision + t.recall) : 0;
  return s;
}

/** What differed, one line per field, for a dev deck's failure report. */
export function describe(v: Verdict): string[] {
  const out: string[] = [];
  if (v.failed) return ["analysis did not succeed"];
  if (!v.company.ok) out.push(`company ${JSON.stringify(v.company.got)} (label ${JSON.stringify(v.company.want)})`);
  if (!v.kind.ok) out.push(`kind ${JSON.stringify(v.kind.got)} (label ${v.kind.want})`);
  if (!v.stage.ok) out.push(`stage ${JSON.stringify(v.stage.got)} (label ${JSON.stringify(v.stage.want)})`);
  if (v.amount.wrong) out.push(`WRONG amount ${v.amount.got} (label ${v.amount.want})`);
  else if (v.amount.missed) out.push(`amount missed (label ${v.amount.want})`);
  if (v.pre_money.wrong) out.push(`WRONG pre-money ${v.pre_money.got} (label ${v.pre_money.want})`);
  else if (v.pre_money.missed) out.push(`pre-money missed (label ${v.pre_money.want})`);
  if (v.team.extra.length || v.team.missed.length) out.push(`team extra ${JSON.stringify(v.team.extra)}${v.team.notTeam.length ? ` (not team: ${JSON.stringify(v.team.notTeam)})` : ""} missed ${JSON.stringify(v.team.missed)}`);
  for (const k of v.scoredWithoutEvidence) out.push(`scored without evidence: ${k}${v.unsupportedQuotes[k]?.length ? ` (quotes ${v.unsupportedQuotes[k].map((q) => JSON.stringify(q.slice(0, 120))).join(" ")})` : ""}`);
  if (v.addressedUnscored.length) out.push(`addressed but not scored: ${v.addressedUnscored.join(", ")}`);
  return out;
}
