// Whether a page's extracted text is text at all. A page exported as an image has none; a page set
// in a font without a usable encoding (a subset font with no ToUnicode map, a Type 3 font) gives
// control characters, private-use code points or letters in an order no language writes. Extraction
// OCRs such pages when it can, and the engines never read, score or quote them.

export type TextProblem = "no_text" | "scrambled";

const CONTROL_OR_PRIVATE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ue000-\uf8ff\ufffd]/gu;
const LETTER = /\p{L}/gu;
// Latin-script words in any language the firm reads carry vowels: about two letters in five.
const LOWER_WORD = /\b[a-zà-ÿ]{3,}\b/g;
const VOWEL = /[aeiouyàáâãäåèéêëìíîïòóôõöùúûüýÿæø]/g;

/** Why a page's text cannot be read as text, or null when it can. */
export function textProblem(text: string): TextProblem | null {
  const visible = text.replace(/\s+/g, "");
  const letters = visible.match(LETTER)?.length ?? 0;
  const digits = visible.match(/\d/g)?.length ?? 0;
  const odd = visible.match(CONTROL_OR_PRIVATE)?.length ?? 0;
  if (odd >= Math.max(3, 0.1 * visible.length)) return "scrambled";
  // Mostly punctuation: glyph codes read as "!\"#$%&'()" (a table of figures is digits, not this).
  if (visible.length >= 20 && letters + digits < 0.5 * visible.length) return "scrambled";
  if (letters < 3 && digits < 3) return "no_text";
  const words = text.match(LOWER_WORD) ?? [];
  const wordLetters = words.reduce((n, w) => n + w.length, 0);
  if (wordLetters >= 60) {
    const vowels = words.join("").match(VOWEL)?.length ?? 0;
    if (vowels < 0.25 * wordLetters) return "scrambled";
  }
  return null;
}

/** "pages 2, 3 and 7" */
export function pageList(pages: number[]): string {
  if (pages.length === 1) return `page ${pages[0]}`;
  return `pages ${pages.slice(0, -1).join(", ")} and ${pages[pages.length - 1]}`;
}
