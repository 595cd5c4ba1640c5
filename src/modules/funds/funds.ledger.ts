// GET /funds/cashflows at 100,000 rows. Two things cost more than reading the rows: SQLite sorting
// them into date order across commitments (a temp B-tree over a join), and building a row object
// each for JSON.stringify. So the rows are read in index order (commitment, date, type, amount),
// put in date order by one numeric sort, and written as JSON text by hand.
import { money } from "../../lib/figures.ts";
import type { fundCommitments } from "./funds.tables.ts";

/** A ledger row in index order: id, commitment, date, its day number, type, amount. */
export type LedgerRow = [cashflowId: string, commitmentId: string, cashflowDate: string, day: number, type: string, amount: number];
/** Commitments in fund-name order: the tie-break between cashflows of one date. */
export type LedgerCommitment = Pick<typeof fundCommitments.$inferSelect, "id" | "fundName" | "currency">;

const text = JSON.stringify;

/**
 * Row indexes in published order: date, then fund name, then (within one commitment's date) the
 * index order of type and amount. Packed into one float per row (day, fund rank, read position)
 * for a native numeric sort; a comparator when the packing would not fit in 53 bits.
 */
export function publishedOrder(commitments: LedgerCommitment[], rows: LedgerRow[]): ArrayLike<number> {
  const rank = new Map(commitments.map((c, i) => [c.id, i]));
  let first = Infinity;
  let last = -Infinity;
  for (const r of rows) {
    first = Math.min(first, r[3]);
    last = Math.max(last, r[3]);
  }
  const n = rows.length;
  const perDay = commitments.length * n;
  if (n === 0 || (last - first + 1) * perDay > Number.MAX_SAFE_INTEGER) {
    const keyOf = (i: number) => rows[i][3] * commitments.length + rank.get(rows[i][1])!;
    return Array.from({ length: n }, (_, i) => i).sort((a, b) => keyOf(a) - keyOf(b) || a - b);
  }
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = (rows[i][3] - first) * perDay + rank.get(rows[i][1])! * n + i;
  keys.sort();
  const order = new Uint32Array(n);
  for (let k = 0; k < n; k++) order[k] = keys[k] % n;
  return order;
}

// Ids and dates are plain (UUIDs, YYYY-MM-DD): quoted as they are; anything else goes through
// JSON.stringify, so a row written past the importer still makes valid JSON.
const PLAIN = /^[0-9A-Za-z-]*$/;
const quote = (s: string) => (PLAIN.test(s) ? `"${s}"` : text(s));
const number = (n: number | null) => (n !== null && Number.isFinite(n) ? String(n) : "null");

/** The `cashflows[]` array as JSON text, in published order; each row's commitment must be listed. */
export function cashflowsJson(commitments: LedgerCommitment[], rows: LedgerRow[]): string {
  // The per-commitment parts are escaped once, not once a row.
  const middle = new Map<string, string>();
  const tail = new Map<string, string>();
  for (const c of commitments) {
    middle.set(c.id, `,"commitment_id":${text(c.id)},"fund_name":${text(c.fundName)},"cashflow_date":`);
    tail.set(c.id, `,"currency":${text(c.currency)}}`);
  }
  const order = publishedOrder(commitments, rows);
  // Appending to one string (a rope) measured faster than an array of parts joined.
  let out = "[";
  for (let k = 0; k < rows.length; k++) {
    const [id, commitmentId, date, , type, amount] = rows[order[k]];
    out += `${k ? "," : ""}{"cashflow_id":${quote(id)}${middle.get(commitmentId)}${quote(date)},"type":${quote(type)},"amount":${number(money(amount))}${tail.get(commitmentId)}`;
  }
  return out + "]";
}
