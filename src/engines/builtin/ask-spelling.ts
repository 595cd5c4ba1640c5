// Misspellings of the words the reader knows ("protfolio", "runwya", "dilligence") and of the firm's
// own names ("Mosiac Treasury"), respelt before the question is read. A word is respelt only when
// it is not a known word itself and exactly one known word is within a small edit distance of it
// (one edit for short words, two for long ones), so an unknown name is left as it was written.

/** Optimal string alignment distance (a swap of two neighbours is one edit), or `max + 1` once beyond `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      row.push(v);
      best = Math.min(best, v);
    }
    if (best > max) return max + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length];
}

/**
 * Edits allowed for a word of this length: one, and for words under seven letters only a swap of
 * two neighbours ("runwya", "fnud"); none under four letters. Ordinary words a letter away from a
 * word of the firm's vocabulary are known words (COMMON), never respelt.
 */
const allowed = (word: string) => (word.length >= 4 ? 1 : 0);
const swapOnly = (word: string) => word.length < 7;

/** Ordinary words within one edit of a vocabulary word ("founded" is not a misspelt "founder"). */
export const COMMON = `startup startup's compared compares comparing founded funded founding fundraising excited exist exists existing started starting raised raises scoped scoping
  staged dated rated rates rater scored scorer dealt dealer trading traded burned burner earned earner learned leaner leaders leader
  managed manages marked market marketing marketed months mouths invests investor investors inverse holdings holder holders posted
  poster called caller caller costs coast cashed cashier earlier easier latest lately largely worth worthy north growth grown growing
  rounds rounded sounds bounds pounds founds mounts counts county account accounts amounts amount mounted counted fundings fundraise`
  .split(/\s+/)
  .filter(Boolean);

function swapped(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const diff = [...a].map((c, i) => (c === b[i] ? -1 : i)).filter((i) => i >= 0);
  return diff.length === 2 && diff[1] === diff[0] + 1 && a[diff[0]] === b[diff[1]] && a[diff[1]] === b[diff[0]];
}

/**
 * A respeller over two vocabularies (folded words): the reader's own words and the firm's names.
 * A word written with a capital is a name: it is respelt only to a name. Words neither knows and
 * none is near stay as written.
 */
export function speller(vocabulary: Iterable<string>, names: Iterable<string>, keep: (word: string) => boolean): (word: string, written: string) => string {
  const nameWords = new Set(names);
  const known = new Set([...vocabulary, ...nameWords]);
  const ordinary = new Set(COMMON);
  const byLength = new Map<number, string[]>();
  for (const w of known) byLength.set(w.length, [...(byLength.get(w.length) ?? []), w]);
  const memo = new Map<string, string>();
  return (word, written) => {
    if (known.has(word) || ordinary.has(word) || keep(word) || /\d/.test(word)) return word;
    const max = allowed(word);
    if (max === 0) return word;
    const capital = /^\p{Lu}/u.test(written);
    const key = `${capital ? "^" : ""}${word}`;
    const cached = memo.get(key);
    if (cached !== undefined) return cached;
    let best = max + 1;
    let hits: string[] = [];
    for (let len = word.length - max; len <= word.length + max; len++) {
      for (const candidate of byLength.get(len) ?? []) {
        // The first letter is rarely the misspelt one; requiring it keeps respelling to near-certain cases.
        if (candidate[0] !== word[0] || (capital && !nameWords.has(candidate))) continue;
        if (swapOnly(word) && !swapped(word, candidate)) continue;
        const d = editDistance(word, candidate, max);
        if (d < best) (best = d), (hits = [candidate]);
        else if (d === best && !hits.includes(candidate)) hits.push(candidate);
      }
    }
    const out = best <= max && hits.length === 1 ? hits[0] : word;
    memo.set(key, out);
    return out;
  };
}
