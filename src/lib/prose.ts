// Text as people write it and figures as people read them: folding a phrase for comparison
// ("Échelle's ARR?" -> "echelle s arr"), money with its currency, multiples, percentages, and
// "a, b and c". The `ask` tool's operations and engines write every answer with these.

/** Lower case, accents off, punctuation to spaces: "Échelle's ARR?" -> "echelle s arr". */
export function fold(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9@.]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

export function money(value: number | null, currency: string | null): string | null {
  if (value === null) return null;
  return `${integer.format(value)}${currency ? ` ${currency}` : ""}`;
}

export const num = (value: number | null) => (value === null ? null : decimal.format(value));
export const times = (value: number | null) => (value === null ? null : `${decimal.format(value)}x`);
export const percent = (value: number | null) => (value === null ? null : `${decimal.format(value * 100)}%`);

/** "a, b and c" */
export function listing(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** "1 deal", "3 deals". */
export const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** "Acme's", "Bolt Payments'". */
export const possessive = (name: string) => (/s$/i.test(name) ? `${name}'` : `${name}'s`);
