// How figures are published: money to the cent, multiples to 4 decimals. Inputs that are missing
// stay missing: a ratio with a null or zero denominator is null, never 0 or Infinity.

/** Rounds half away from zero at `digits` decimals (money: 2). */
export function round(value: number, digits: number): number {
  const f = 10 ** digits;
  const r = Math.round(Math.abs(value) * f + Number.EPSILON * f) / f;
  return value < 0 && r !== 0 ? -r : r;
}

export const money = (value: number | null): number | null => (value === null ? null : round(value, 2));

/** numerator / denominator at 4 decimals; null when either is missing or the denominator is 0. */
export function multiple(numerator: number | null, denominator: number | null): number | null {
  if (numerator === null || denominator === null || denominator === 0) return null;
  return round(numerator / denominator, 4);
}
