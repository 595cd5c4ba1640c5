// The pipeline as records: every deal with its stage, kind, score, when it came in, and what its
// analysis read of its company and round (sector, location, the round raised), through the deals
// service. Newest first unless asked otherwise.
import { nameForPhrase } from "../../lib/name-match.ts";
import { fold, listing, money } from "../../lib/prose.ts";
import { stageIn, stageName } from "../../lib/sectors.ts";
import { DEAL_STAGES } from "../deals/deals.model.ts";
import type { AskContext } from "./ask.context.ts";
import { cityOf, pipelineDeals } from "./ask.names.ts";
import { datesWords, FIELDS, inRange, inYears, yearsWords, periodsOf, sectorMatcher, type KindReader, type Loaded, type Rec } from "./ask.query.fields.ts";

type Deal = ReturnType<typeof pipelineDeals>[number];

const STAGE_WORDS: Record<string, string> = { ic: "IC", new: "new", screening: "screening", diligence: "diligence", invested: "invested", passed: "passed" };

/** How far along the pipeline each stage is; a deal passed on is not along at all. */
const PROGRESS: Record<string, number> = { new: 1, screening: 2, diligence: 3, ic: 4, invested: 5 };

function record(d: Deal): Rec {
  const name = d.company_name ?? d.domain ?? d.deal_id;
  const round = d.round_amount !== null ? `${d.round_stage ?? "round"} raising ${money(d.round_amount, d.round_currency)}` : d.round_stage;
  const about = [d.kind === "fund" ? "fund" : d.sector, round].filter(Boolean).join("; ") || null;
  return {
    name,
    about,
    values: {
      score: { value: d.score },
      created: { value: null, date: d.created_at },
      round_amount: { value: d.round_amount, currency: d.round_currency },
      pre_money: { value: d.round_pre_money, currency: d.round_currency },
      progress: { value: PROGRESS[d.stage] ?? null, unit: STAGE_WORDS[d.stage] ?? d.stage },
      founded: { value: d.founded_year },
    },
    groups: { stage: STAGE_WORDS[d.stage] ?? d.stage, sector: d.kind === "fund" ? "fund" : (d.sector ?? "sector unknown"), round: d.round_stage ?? (d.kind === "fund" ? "fund" : "round unknown"), kind: d.kind, currency: d.round_currency ?? "currency unknown", city: d.location ? cityOf(d.location) : "city unknown", founded: d.founded_year === null ? "founding year unknown" : String(d.founded_year), ...periodsOf(d.created_at) },
    facts: [`stage ${STAGE_WORDS[d.stage] ?? d.stage}`],
    entities: { deal: { id: d.deal_id, name }, company: { name, domain: d.domain } },
    data: d,
  };
}

export const DEALS: KindReader = {
  noun: ["deal", "deals"],
  field: (name) => FIELDS.deals[name] ?? null,
  show: [],
  always: ["score", "created"],
  order: { by: "created", dir: "desc" },
  load(ctx: AskContext, q): Loaded | { answer: string } {
    let list = pipelineDeals(ctx);
    if (list.length === 0) return { answer: "Your firm's pipeline has no deals yet." };
    const scope: string[] = [];
    const notes: string[] = [];
    const params = new URLSearchParams();
    if (q.type) {
      const kind = /fund|lp|manager|gp/.test(fold(q.type)) ? "fund" : "company";
      list = list.filter((d) => d.kind === kind);
      scope.push(kind === "fund" ? " of funds raising (LP decks)" : " of companies");
      params.set("kind", kind);
    }
    if (q.founded) {
      // The year founded, as each deal's analysis read it; a deal without one is not counted in.
      const range = q.founded;
      const unknown = list.filter((d) => d.founded_year === null).length;
      list = list.filter((d) => inYears(d.founded_year, range));
      scope.push(` of companies founded in ${yearsWords(range)}`);
      if (unknown) notes.push(`(${unknown} ${unknown === 1 ? "deal has" : "deals have"} no founding year in ${unknown === 1 ? "its" : "their"} analysis and ${unknown === 1 ? "is" : "are"} left out.)`);
    }
    if (q.stage?.length) {
      const wanted = q.stage.map((s) => fold(s).replace(/ /g, "_")).map((s) => (s === "investment_committee" ? "ic" : s));
      const unknown = wanted.filter((s) => !(DEAL_STAGES as readonly string[]).includes(s));
      if (unknown.length) return { answer: `${listing(unknown)} is not a pipeline stage. Your pipeline's stages: ${listing([...DEAL_STAGES])}.` };
      list = list.filter((d) => wanted.includes(d.stage));
      scope.push(` at ${listing(wanted.map((s) => STAGE_WORDS[s] ?? s))}`);
      if (wanted.length === 1) params.set("stage", wanted[0]);
    }
    if (q.status?.length) {
      const wanted = q.status.map((s) => fold(s));
      list = list.filter((d) => d.analysis_status !== null && wanted.includes(d.analysis_status));
      scope.push(` whose analysis is ${listing(wanted)}`);
    }
    if (q.sector) {
      const matches = sectorMatcher(list.map((d) => d.sector), q.sector);
      list = list.filter((d) => matches(d.sector));
      scope.push(` in ${q.sector}`);
    }
    if (q.round) {
      const wanted = stageIn(q.round.replaceAll("_", " ")) ?? fold(q.round);
      list = list.filter((d) => d.round_stage !== null && (stageIn(d.round_stage) ?? fold(d.round_stage)) === wanted);
      scope.push(` raising a ${stageName(wanted)} round`);
    }
    if (q.currency) {
      const c = q.currency.toUpperCase();
      list = list.filter((d) => d.round_currency === c);
      scope.push(` raising in ${c}`);
    }
    if (q.location) {
      const city = fold(q.location);
      list = list.filter((d) => d.location !== null && fold(cityOf(d.location)) === city);
      scope.push(` based in ${q.location}`);
    }
    if (q.name) {
      const m = nameForPhrase([...new Set(list.flatMap((d) => (d.company_name ? [d.company_name] : [])))], q.name);
      if (m.kind === "several") return { answer: `Several deals match ${q.name}: ${listing(m.names)}. Which one?` };
      if (m.kind === "none") return { answer: `There is no deal called ${q.name} in your firm's pipeline${scope.join("")}.` };
      list = list.filter((d) => d.company_name === m.name);
    }
    if (q.dates) {
      const range = q.dates;
      list = list.filter((d) => inRange(d.created_at, range));
      scope.push(` that came in ${datesWords(range)}`);
    }
    const query = params.toString();
    return {
      rows: list.map(record),
      scope: scope.join(""),
      source: `your pipeline (/api/v1/deals${query ? `?${query}` : ""}); sector and round as each deal's analysis read them from its material.`,
      links: [`/api/v1/deals${query ? `?${query}` : ""}`],
      notes,
    };
  },
};
