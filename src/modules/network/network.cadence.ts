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

/** Days a relationship's bitmap covers from the start of the history: the two years, and a margin for touches dated ahead. */
const BITMAP_DAYS = 1024;
const BITMAP_BYTES = BITMAP_DAYS / 8;
/** Relationships whose bitmaps one pass over the touches holds: 64 MB of them at most. */
export const RELATIONSHIPS_PER_PASS = 512 * 1024;

/**
 * The touches of the history, read in the table's own order (one sequential pass over its pages,
 * `NOT INDEXED`), each relationship's days in touch kept as a bitmap of days since the start of
 * the history. Reading them in relationship order instead (through the primary key's index) looks
 * up every touch's row at random: on a firm whose touches outgrow the cache that costs more per
 * touch the bigger the firm. The bitmaps take 128 bytes a relationship; beyond
 * RELATIONSHIPS_PER_PASS relationships the table is read once per block of them.
 */
export function learnCadences(deps: Deps, opts: { relationshipsPerPass?: number } = {}): { relationships: number; learned: number; cleared: number; changed: number } {
  const sqlite = deps.db.$client;
  const sinceMs = deps.clock.now().getTime() - HISTORY_DAYS * DAY_MS;
  const since = new Date(sinceMs).toISOString();
  const firstDay = Math.floor(sinceMs / DAY_MS);
  const perPass = Math.max(1, opts.relationshipsPerPass ?? RELATIONSHIPS_PER_PASS);
  const learned = new Map<number, number>();
  let relationships = 0;
  const range = sqlite.query<{ lo: number | null; hi: number | null }, []>("SELECT min(seq) AS lo, max(seq) AS hi FROM relationships");
  const read = sqlite.query<{ seq: number; at: string }, [string, number, number]>(
    "SELECT relationship_seq AS seq, occurred_at AS at FROM touches NOT INDEXED WHERE occurred_at >= ? AND relationship_seq BETWEEN ? AND ?",
  );
  const { lo, hi } = range.get()!;
  if (lo !== null && hi !== null) {
    const bitmaps = new Uint8Array(Math.min(perPass, hi - lo + 1) * BITMAP_BYTES);
    for (let from = lo; from <= hi; from += perPass) {
      const to = Math.min(hi, from + perPass - 1);
      bitmaps.fill(0);
      const seen = new Uint8Array(to - from + 1);
      // A day past the bitmap (a touch dated years ahead) is kept aside, so nothing is lost.
      const beyond = new Map<number, number[]>();
      for (const row of read.iterate(since, from, to)) {
        const slot = row.seq - from;
        seen[slot] = 1;
        const day = Math.floor(Date.parse(row.at) / DAY_MS) - firstDay;
        if (day >= 0 && day < BITMAP_DAYS) bitmaps[slot * BITMAP_BYTES + (day >> 3)] |= 1 << (day & 7);
        else {
          const list = beyond.get(slot);
          if (list) list.push(day);
          else beyond.set(slot, [day]);
        }
      }
      for (let slot = 0; slot < seen.length; slot++) {
        if (!seen[slot]) continue;
        relationships++;
        const days: number[] = [];
        const base = slot * BITMAP_BYTES;
        for (let b = 0; b < BITMAP_BYTES; b++) {
          const byte = bitmaps[base + b];
          if (byte) for (let bit = 0; bit < 8; bit++) if (byte & (1 << bit)) days.push(b * 8 + bit);
        }
        const extra = beyond.get(slot);
        const distinct = extra ? [...new Set([...days, ...extra])].sort((x, y) => x - y) : days;
        const cadence = cadenceOf(distinct);
        if (cadence !== null) learned.set(from + slot, cadence);
      }
    }
  }

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
