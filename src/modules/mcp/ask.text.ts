// Reading a partner's question as text: folding for comparison, the phrases that may name
// something (a person, a company, a fund), and figures written for people.

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

/** Whether `name` occurs in `question` as whole words (both folded). */
export function mentions(question: string, name: string): boolean {
  const n = fold(name).replace(/\./g, " ").trim();
  if (!n) return false;
  return ` ${fold(question).replace(/\./g, " ")} `.includes(` ${n} `);
}

// Words that start a question or name a figure: capitalised, but never a name.
const NOT_NAMES = new Set(
  `who what whats what's when where which why how is are was does do did can could should would will tell show give list start
   run analyse analyze research find look please and or but the a an my our me i we you it its hi hey ok okay also then now
   tvpi dpi irr rvpi nav arr mrr burn runway deal deals fund funds portfolio company companies lp mcp api ceo cto founder
   let lets let's any some about for of at with in on to`
    .split(/\s+/)
    .filter(Boolean),
);

const ROMAN_OR_NUMBER = /^(?:[IVX]+|\d[\w.-]*)$/;

/**
 * Phrases that may name something, most specific first: quoted text, then runs of capitalised
 * words ("Acme Robotics", "Alpha Fund I"), then the words after "of/for/about/at/with/is" for
 * questions typed in lower case. Possessives are dropped.
 */
export function candidatePhrases(question: string): string[] {
  const out: string[] = [];
  const add = (p: string) => {
    const clean = p
      .replace(/['’]s\b/g, "")
      .replace(/[?!.,;:]+$/g, "")
      .trim();
    if (clean.length >= 2 && !out.includes(clean)) out.push(clean);
  };
  for (const m of question.matchAll(/["“”']([^"“”']{2,120})["“”']/g)) add(m[1]);
  const words = question.split(/\s+/).map((w) => w.replace(/^[("“]+|[)"”?!.,;:]+$/g, ""));
  let run: string[] = [];
  const flush = () => {
    while (run.length && NOT_NAMES.has(fold(run[0]))) run.shift();
    while (run.length && NOT_NAMES.has(fold(run[run.length - 1]))) run.pop();
    for (let len = run.length; len >= 1; len--) add(run.slice(0, len).join(" "));
    run = [];
  };
  for (const w of words) {
    const bare = w.replace(/['’]s$/, "");
    const capitalised = /^[A-ZÀ-Ý]/.test(bare) && !/^[A-Z]{2,5}$/.test(bare);
    if (capitalised || (run.length > 0 && ROMAN_OR_NUMBER.test(bare))) {
      run.push(bare);
      if (bare !== w) flush();
    } else flush();
  }
  flush();
  for (const m of question.matchAll(/\b(?:of|for|about|at|with|is|to|on)\s+(?:the\s+|our\s+|my\s+)?([\w@.'’&-]+(?:\s+[\w@.'’&-]+){0,3})/gi)) {
    const ws = m[1].split(/\s+/).filter((w) => !NOT_NAMES.has(fold(w)));
    for (let len = ws.length; len >= 1; len--) add(ws.slice(0, len).join(" "));
  }
  return out;
}

export const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
export const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"')]+/i;
/** A bare domain such as acme.com (not an email, not part of a URL). */
export const DOMAIN = /(?<![@/\w.-])((?:[a-z0-9-]+\.)+(?:[a-z]{2,24}))(?![\w@-])/i;

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
