// Money and numbers as founders and GPs write them, per locale.
import type { Rand } from "./rng.ts";

export type Locale = "us" | "uk" | "de" | "ch" | "fr" | "nl";

const trim = (x: number, digits: number) => {
  const s = x.toFixed(digits);
  return s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s;
};
const group = (n: number, sep: string) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, sep);

/** One way of writing `amount` (units) in `currency`, in the locale's habits. */
export function money(r: Rand, amount: number, currency: string, locale: Locale): string {
  const b = amount / 1e9, m = amount / 1e6, k = amount / 1e3;
  const en = (s: string) => s;
  const de = (s: string) => s.replace(".", ",");
  if (amount >= 1e9) {
    const v = trim(b, 1);
    switch (currency) {
      case "USD": return r.pick([`$${v}B`, `$${v}bn`, `$${v} billion`, `USD ${v}bn`]);
      case "GBP": return r.pick([`£${v}bn`, `£${v} billion`]);
      case "CHF": return r.pick([`CHF ${v}bn`, `CHF ${v} Mrd.`, `${de(v)} Mrd. CHF`]);
      default:
        if (locale === "de") return r.pick([`${de(v)} Mrd. €`, `€${de(v)} Mrd.`, `EUR ${de(v)} Mrd.`]);
        if (locale === "fr") return r.pick([`${de(v)} Md€`, `${de(v)} milliards €`]);
        return r.pick([`€${v}B`, `€${v}bn`, `EUR ${v}bn`, `€${v} billion`]);
    }
  }
  if (amount >= 1e6) {
    const v = trim(m, 2);
    switch (currency) {
      case "USD": return r.pick([`$${v}M`, `$${v}M`, `$${v}m`, `$${group(amount, ",")}`, `USD ${v}M`, `$${v} million`, `US$${v}M`, `$${v}MM`]);
      case "GBP": return r.pick([`£${v}m`, `£${v}M`, `£${v} million`, `GBP ${v}m`, `£${group(amount, ",")}`]);
      case "CHF": return r.pick([`CHF ${v}M`, `CHF ${v} Mio.`, `CHF ${v} million`, `CHF ${group(amount, "'")}`, `${de(v)} Mio. CHF`]);
      default:
        if (locale === "de") return r.pick([`${de(v)} Mio. €`, `€${de(v)} Mio.`, `EUR ${de(v)} Mio.`, `${group(amount, ".")} €`, `${de(v)} Mio. EUR`]);
        if (locale === "fr") return r.pick([`${de(v)} M€`, `${de(v)} millions d'euros`, `EUR ${de(v)}M`]);
        return r.pick([`€${v}M`, `€${v}m`, `EUR ${v}M`, `€${v} million`, `€${group(amount, ",")}`]);
    }
  }
  const v = trim(k, 1);
  switch (currency) {
    case "USD": return r.pick([`$${v}K`, `$${v}k`, `$${group(amount, ",")}`, `USD ${v}k`]);
    case "GBP": return r.pick([`£${v}k`, `£${v}K`, `£${group(amount, ",")}`]);
    case "CHF": return r.pick([`CHF ${v}k`, `CHF ${group(amount, "'")}`, `CHF ${group(amount, "'")}.-`]);
    default:
      if (locale === "de") return r.pick([`${group(amount, ".")} €`, `${de(v)} T€`, `€${v}k`, `EUR ${group(amount, ".")}`]);
      if (locale === "fr") return r.pick([`${de(v)} k€`, `${group(amount, " ")} €`]);
      return r.pick([`€${v}k`, `€${v}K`, `EUR ${v}k`, `€${group(amount, ",")}`]);
  }
  void en;
}

/** A range of money: "$2-3M", "2–3 Mio. €", "£1.5m to £2m", "CHF 2-3M". */
export function moneyRange(r: Rand, lo: number, hi: number, currency: string, locale: Locale): string {
  const m = (x: number) => trim(x / 1e6, 1);
  const de = (s: string) => s.replace(".", ",");
  const sym = { USD: "$", EUR: "€", GBP: "£", CHF: "CHF " }[currency] ?? "";
  if (currency === "EUR" && (locale === "de" || locale === "fr")) return r.pick([`${de(m(lo))}–${de(m(hi))} Mio. €`, `${de(m(lo))} bis ${de(m(hi))} Mio. EUR`, `€${de(m(lo))}-${de(m(hi))} Mio.`]);
  if (currency === "CHF") return r.pick([`CHF ${m(lo)}-${m(hi)}M`, `CHF ${m(lo)}–${m(hi)} Mio.`]);
  if (currency === "GBP") return r.pick([`£${m(lo)}m to £${m(hi)}m`, `£${m(lo)}-${m(hi)}m`]);
  return r.pick([`${sym}${m(lo)}-${m(hi)}M`, `${sym}${m(lo)}M–${sym}${m(hi)}M`, `between ${sym}${m(lo)}M and ${sym}${m(hi)}M`]);
}

/** A round-ish amount between lo and hi (units). */
export function niceAmount(r: Rand, lo: number, hi: number): number {
  const x = lo + (hi - lo) * r.next();
  const step = x < 1e6 ? 50_000 : x < 3e6 ? r.pick([100_000, 250_000, 500_000]) : x < 10e6 ? r.pick([250_000, 500_000, 1e6]) : x < 100e6 ? 1e6 : x < 1e9 ? 5e6 : 1e8;
  return Math.max(step, Math.round(x / step) * step);
}

/** A plain number with the locale's thousands separator. */
export function num(n: number, locale: Locale): string {
  return group(n, locale === "de" ? "." : locale === "ch" ? "'" : locale === "fr" ? " " : ",");
}
