// Learning each relationship's natural cadence from its touch history (the nightly
// `cadence-learning` job). The cadence is the gap the two usually stay within: the 75th
// percentile of the gaps between distinct days in touch over the last two years. Too thin a
// history (fewer than 4 distinct days, or under 3 weeks) teaches nothing: null, never a guess.
import type { Deps } from "../../deps.ts";

const DAY_MS = 86_400_000;
export const HISTORY_DAYS = 730;
export const MIN_DISTINCT_DAYS = 4;
export const MIN_SPAN_DAYS = 21;
export const CADENCE_BOUNDS = { min: 7, max: 365 };

/** The cadence a list of distinct, ascending day numbers shows; null when it shows none. */
export function cadenceOf(days: number[]): number | null {
  if (days.length < MIN_DISTINCT_DAYS || days[days.length - 1] - days[0] < MIN_SPAN_DAYS) return null;
  const gaps = days.slice(1).map((d, i) => d - days[i]).sort((a, b) => a - b);
  const p75 = gaps[Math.min(gaps.length - 1, Math.ceil(0.75 * gaps.length) - 1)];
  return Math.min(CADENCE_BOUNDS.max, Math.max(CADENCE_BOUNDS.min, p75));
}

export function learnCadences(deps: Deps): { relationships: number; learned: number; cleared: number; changed: number } {
  const sqlite = deps.db.$client;
  const since = new Date(deps.clock.now().getTime() - HISTORY_DAYS * DAY_MS).toISOString();
  const learned = new Map<number, number>();
  let relationships = 0;
  let current = -1;
  let days: number[] = [];
  const close = () => {
    if (current < 0) return;
    relationships++;
    const distinct = [...new Set(days)].sort((a, b) => a - b);
    const cadence = cadenceOf(distinct);
    if (cadence !== null) learned.set(current, cadence);
  };
  // Touches come in relationship order (the primary key's); each relationship's days are few.
  for (const row of sqlite
    .query<{ seq: number; at: string }, [string]>(
      "SELECT relationship_seq AS seq, occurred_at AS at FROM touches WHERE occurred_at >= ? ORDER BY relationship_seq",
    )
    .iterate(since)) {
    if (row.seq !== current) {
      close();
      current = row.seq;
      days = [];
    }
    days.push(Math.floor(Date.parse(row.at) / DAY_MS));
  }
  close();

  let changed = 0;
  let cleared = 0;
  sqlite.transaction(() => {
    const set = sqlite.query("UPDATE relationships SET learned_cadence_days = ? WHERE seq = ?");
    const before = sqlite.query<{ seq: number; c: number }, []>("SELECT seq, learned_cadence_days AS c FROM relationships WHERE learned_cadence_days IS NOT NULL").all();
    for (const { seq } of before) {
      if (!learned.has(seq)) {
        set.run(null, seq);
        cleared++;
      }
    }
    const previous = new Map(before.map((r) => [r.seq, r.c]));
    for (const [seq, cadence] of learned) {
      if (previous.get(seq) !== cadence) {
        set.run(cadence, seq);
        changed++;
      }
    }
  })();
  return { relationships, learned: learned.size, cleared, changed };
}
