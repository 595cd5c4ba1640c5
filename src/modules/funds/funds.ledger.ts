// GET /funds/cashflows at 100,000 rows (22 MB of JSON). Reading the rows is the floor; what cost
// more than the reading was everything around it: SQLite sorting them into date order across
// commitments, a JS string per value read, a row object or a string piece per row, and encoding
// the finished text as UTF-8. So the rows are read commitment by commitment in fund-name order
// (no sort in SQL), each as three values (its day number, the bytes of its id, date and type, its
// amount), put in date order by one numeric sort, and written straight into the response bytes
// around pieces encoded once per commitment.
import { money } from "../../lib/figures.ts";

/** A commitment of the ledger, in fund-name order, with the number of its rows that follow in the read. */
export type LedgerGroup = [commitmentId: string, fundName: string, currency: string | null, rows: number];
/**
 * A ledger row as read: its day number, the UTF-8 bytes of its id, date and type one after the
 * other, its amount, and the byte lengths of the id and the date.
 */
export type LedgerRow = [day: number, text: Uint8Array, amount: number, idBytes: number, dateBytes: number];

const text = JSON.stringify;
const utf8 = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Row indexes in published order: date, then fund name, then (within one commitment's date) type
 * and amount. The rows come grouped by commitment in fund-name order, each group in (date, type,
 * amount) order, so a stable sort by day is the published order: packed into one float per row
 * (day, read position) for a native numeric sort; a comparator when that would not fit in 53 bits.
 */
export function publishedOrder(rows: LedgerRow[]): ArrayLike<number> {
  const n = rows.length;
  let first = Infinity;
  let last = -Infinity;
  for (let i = 0; i < n; i++) {
    first = Math.min(first, rows[i][0]);
    last = Math.max(last, rows[i][0]);
  }
  if (n === 0 || (last - first + 1) * n > Number.MAX_SAFE_INTEGER) {
    return Array.from({ length: n }, (_, i) => i).sort((a, b) => rows[a][0] - rows[b][0] || a - b);
  }
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = (rows[i][0] - first) * n + i;
  keys.sort();
  const order = new Uint32Array(n);
  for (let k = 0; k < n; k++) order[k] = keys[k] % n;
  return order;
}

/** Whether bytes[from, to) can be written between quotes as they are: printable ASCII without `"` or `\`. */
function plain(bytes: Uint8Array, from: number, to: number): boolean {
  for (let j = from; j < to; j++) {
    const c = bytes[j];
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

const OPEN = utf8.encode('{"cashflow_id":"');
const TYPE = utf8.encode('","type":"');
const AMOUNT = utf8.encode('","amount":');

/**
 * `head` + the `cashflows[]` array as JSON + `tail`, as UTF-8 bytes, in published order. The
 * groups must list the read's commitments in its order, with their row counts.
 */
export function cashflowsJson(groups: LedgerGroup[], rows: LedgerRow[], envelope: { head: string; tail: string } = { head: "", tail: "" }): Uint8Array {
  const n = rows.length;
  // Each row's commitment, and the commitment's pieces, escaped and encoded once.
  const groupOf = new Uint32Array(n);
  const middles: Uint8Array[] = [];
  const tails: Uint8Array[] = [];
  let at = 0;
  groups.forEach(([id, fundName, currency, count], g) => {
    middles.push(utf8.encode(`","commitment_id":${text(id)},"fund_name":${text(fundName)},"cashflow_date":"`));
    tails.push(utf8.encode(`,"currency":${text(currency)}}`));
    groupOf.fill(g, at, at + count);
    at += count;
  });
  if (at !== n) throw new Error(`the ledger's groups count ${at} rows, the read ${n}`);

  // Sizes first: amounts as published, and a row whose strings need escaping (not written past
  // the importer, but possible) written whole through JSON.stringify.
  const amounts = new Array<string>(n);
  const escaped = new Map<number, Uint8Array>();
  const head = utf8.encode(`${envelope.head}[`);
  const tail = utf8.encode(`]${envelope.tail}`);
  let size = head.length + tail.length + Math.max(0, n - 1);
  for (let i = 0; i < n; i++) {
    const [, bytes, amount, idBytes, dateBytes] = rows[i];
    const a = money(amount);
    const shown = a !== null && Number.isFinite(a) ? String(a) : "null";
    amounts[i] = shown;
    const g = groupOf[i];
    if (plain(bytes, 0, bytes.length)) {
      size += OPEN.length + idBytes + middles[g].length + dateBytes + TYPE.length + (bytes.length - idBytes - dateBytes) + AMOUNT.length + shown.length + tails[g].length;
    } else {
      const [id, date, type] = [bytes.subarray(0, idBytes), bytes.subarray(idBytes, idBytes + dateBytes), bytes.subarray(idBytes + dateBytes)].map((b) => decoder.decode(b));
      const [commitmentId, fundName, currency] = groups[g];
      const row = utf8.encode(
        `{"cashflow_id":${text(id)},"commitment_id":${text(commitmentId)},"fund_name":${text(fundName)},"cashflow_date":${text(date)},"type":${text(type)},"amount":${shown},"currency":${text(currency)}}`,
      );
      escaped.set(i, row);
      size += row.length;
    }
  }

  const out = new Uint8Array(size);
  out.set(head, 0);
  let pos = head.length;
  const order = publishedOrder(rows);
  for (let k = 0; k < n; k++) {
    const i = order[k];
    if (k) out[pos++] = 0x2c;
    const whole = escaped.size ? escaped.get(i) : undefined;
    if (whole) {
      out.set(whole, pos);
      pos += whole.length;
      continue;
    }
    const [, bytes, , idBytes, dateBytes] = rows[i];
    const dateEnd = idBytes + dateBytes;
    const g = groupOf[i];
    out.set(OPEN, pos);
    pos += OPEN.length;
    for (let j = 0; j < idBytes; j++) out[pos++] = bytes[j];
    out.set(middles[g], pos);
    pos += middles[g].length;
    for (let j = idBytes; j < dateEnd; j++) out[pos++] = bytes[j];
    out.set(TYPE, pos);
    pos += TYPE.length;
    for (let j = dateEnd; j < bytes.length; j++) out[pos++] = bytes[j];
    out.set(AMOUNT, pos);
    pos += AMOUNT.length;
    const shown = amounts[i];
    for (let j = 0; j < shown.length; j++) out[pos++] = shown.charCodeAt(j);
    out.set(tails[g], pos);
    pos += tails[g].length;
  }
  out.set(tail, pos);
  return out;
}
