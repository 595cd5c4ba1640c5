// HTML from the internet read in one forward pass: tags with their attributes, the text between
// them, comments and the raw text of script/style skipped the way a browser skips them, every
// boundary found with indexOf. The regular expressions this replaces (`<form\b([^>]*)>([\s\S]*?)<\/form>`,
// `<input[^>]+type=...`, `<[^>]+>`) backtrack quadratically on hostile input (a page of `<input`
// without `>`, or of `<form>` without `</form>`): a 5 MB page blocked the server's event loop for
// minutes. Here each character is looked at a bounded number of times, whatever the input.
//
// Hand-written rather than htmlparser2 (issue 13 weighed it: scripts/bench/html-scan.ts measures,
// and the commit "HTML on htmlparser2's Tokenizer (a candidate ...)" holds the candidate): its
// Parser keeps an element stack and searches it for each end tag, which is quadratic on deep
// nesting (80,000 nested divs then stray end tags: 16 s), and a token stream built on its
// Tokenizer (no stack) read pages at about half this reader's speed (tokens 1.9x, links 2.3x,
// page text 1.2-1.5x slower; DOCX text alike). Its decoder of character references is used.
import { Tokenizer, type TokenizerCallbacks } from "htmlparser2";

const ignore = () => {};
// One decoding tokenizer, reset and fed a string at a time; decoding is synchronous and never
// nested, so the string being decoded and its result live here.
const decoding = { input: "", out: "" };
const decoded: TokenizerCallbacks = {
  ontext: (start, end) => void (decoding.out += decoding.input.slice(start, end)),
  ontextentity: (cp) => void (decoding.out += String.fromCodePoint(cp)),
  onattribdata: (start, end) => void (decoding.out += decoding.input.slice(start, end)),
  onattribentity: (cp) => void (decoding.out += String.fromCodePoint(cp)),
  onattribend: ignore,
  onattribname: ignore,
  oncdata: ignore,
  onclosetag: ignore,
  oncomment: ignore,
  ondeclaration: ignore,
  onend: ignore,
  onopentagend: ignore,
  onopentagname: ignore,
  onprocessinginstruction: ignore,
  onselfclosingtag: ignore,
};
const decoder = new Tokenizer({ decodeEntities: true }, decoded);

/**
 * Character references decoded as a browser decodes them (htmlparser2's decoder: every named
 * reference, numeric ones, the legacy forms without ";"). In an attribute value (`attribute`), a
 * legacy reference before "=" or a letter stays as written, so `?a=1&copy=2` keeps its parameter.
 * (The 16-name table this replaced left "Z&uuml;rich" as written; page text costs ~15% more.)
 */
export function decodeEntities(s: string, o: { attribute?: boolean } = {}): string {
  const first = s.indexOf("&");
  if (first < 0) return s;
  // Only what follows the first "&" goes through the decoder, written so that nothing in it can
  // end the text, or the value, it is read as.
  const rest = s.slice(first);
  decoding.input = o.attribute ? `<a v="${rest.replaceAll('"', "&quot;")}">` : rest.replaceAll("<", "&lt;");
  decoding.out = s.slice(0, first);
  decoder.reset();
  decoder.write(decoding.input);
  decoder.end();
  return decoding.out;
}

/** Attribute names lower-cased; the first of a repeated name wins (as in browsers); values entity-decoded. */
export type Attributes = Record<string, string>;

export type HtmlToken =
  | { kind: "tag"; name: string; closing: boolean; selfClosing: boolean; attrs: Attributes }
  | { kind: "text"; text: string }
  /** The content of a raw-text element (script, style, title, ...): never markup. */
  | { kind: "raw"; name: string; text: string };

/** Elements whose content is text up to their end tag, not markup. */
const RAW_TEXT = new Set(["script", "style", "title", "textarea", "xmp", "iframe", "noembed", "noframes", "noscript"]);

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 12 || c === 13;
const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** Where `</name` (any case, then a space, `/` or `>`) starts at or after `from`, or -1. */
function endTagAt(html: string, name: string, from: number): number {
  for (let at = html.indexOf("</", from); at >= 0; at = html.indexOf("</", at + 2)) {
    if (html.slice(at + 2, at + 2 + name.length).toLowerCase() !== name) continue;
    const after = html.charCodeAt(at + 2 + name.length);
    if (Number.isNaN(after) || isSpace(after) || after === 47 || after === 62) return at;
  }
  return -1;
}

/**
 * The tokens of a page, in order. A tag (or comment) the input ends inside is not a tag, and
 * nothing after it is read, as a browser drops it at the end of the file.
 */
export function* htmlTokens(html: string): Generator<HtmlToken> {
  const end = html.length;
  let i = 0;
  // Text runs from here up to the next markup (a "<" that starts no markup is text too).
  let textStart = 0;
  const text = (upTo: number): HtmlToken | null => (upTo > textStart ? { kind: "text", text: html.slice(textStart, upTo) } : null);
  while (i < end) {
    const lt = html.indexOf("<", i);
    if (lt < 0) break;
    const next = html.charCodeAt(lt + 1);
    const closing = next === 47; // "/"
    if (!isLetter(closing ? html.charCodeAt(lt + 2) : next)) {
      if (next !== 33 && next !== 63 && !closing) {
        i = lt + 1; // "a < b": a less-than sign in text
        continue;
      }
      // <!-- comment -->, <!doctype>, <?xml ?>, </ bogus>: skipped whole
      const comment = html.startsWith("<!--", lt);
      const stop = comment ? html.indexOf("-->", lt + 4) : html.indexOf(">", lt + 2);
      const before = text(lt);
      if (before) yield before;
      if (stop < 0) return;
      i = textStart = stop + (comment ? 3 : 1);
      continue;
    }
    let p = lt + (closing ? 2 : 1);
    const nameStart = p;
    while (p < end) {
      const c = html.charCodeAt(p);
      if (isSpace(c) || c === 47 || c === 62) break;
      p++;
    }
    const name = html.slice(nameStart, p).toLowerCase();
    const attrs: Attributes = Object.create(null);
    let closed = false;
    let selfClosing = false;
    while (p < end) {
      const c = html.charCodeAt(p);
      if (c === 62) {
        closed = true;
        selfClosing = html.charCodeAt(p - 1) === 47;
        p++;
        break;
      }
      if (isSpace(c) || c === 47) {
        p++;
        continue;
      }
      const attrStart = p;
      p++; // a name's first character may be anything but space, "/" and ">" (even "=")
      while (p < end) {
        const d = html.charCodeAt(p);
        if (isSpace(d) || d === 47 || d === 62 || d === 61) break;
        p++;
      }
      const attrName = html.slice(attrStart, p).toLowerCase();
      let q = p;
      while (q < end && isSpace(html.charCodeAt(q))) q++;
      let value = "";
      if (html.charCodeAt(q) === 61) {
        q++;
        while (q < end && isSpace(html.charCodeAt(q))) q++;
        const quote = html.charCodeAt(q);
        if (quote === 34 || quote === 39) {
          const close = html.indexOf(quote === 34 ? '"' : "'", q + 1);
          if (close < 0) q = end; // the input ends inside a quoted value
          else {
            value = html.slice(q + 1, close);
            q = close + 1;
          }
        } else {
          const valueStart = q;
          while (q < end) {
            const d = html.charCodeAt(q);
            if (isSpace(d) || d === 62) break;
            q++;
          }
          value = html.slice(valueStart, q);
        }
      }
      p = q;
      if (!(attrName in attrs)) attrs[attrName] = decodeEntities(value, { attribute: true });
    }
    const before = text(lt);
    if (before) yield before;
    if (!closed) return; // the input ends inside a tag: a browser drops it, and there is nothing after it
    yield { kind: "tag", name, closing, selfClosing, attrs };
    i = textStart = p;
    if (!closing && !selfClosing && RAW_TEXT.has(name)) {
      const stop = endTagAt(html, name, i);
      yield { kind: "raw", name, text: html.slice(i, stop < 0 ? end : stop) };
      if (stop < 0) return;
      i = textStart = stop;
    }
  }
  const rest = text(end);
  if (rest) yield rest;
}

export type HtmlForm = { attrs: Attributes; inputs: Attributes[] };

/**
 * The forms of a page with their input fields, as a browser groups them: a form start tag inside
 * an open form is ignored, and a form the page never closes still holds its inputs.
 */
export function* htmlForms(html: string): Generator<HtmlForm> {
  let open: HtmlForm | null = null;
  for (const t of htmlTokens(html)) {
    if (t.kind !== "tag") continue;
    if (t.name === "form") {
      if (!t.closing) open ??= { attrs: t.attrs, inputs: [] };
      else if (open) {
        yield open;
        open = null;
      }
    } else if (t.name === "input" && !t.closing && open) open.inputs.push(t.attrs);
  }
  if (open) yield open;
}

export type Anchor = { href: string; label: string };

/** The links of a page (`<a href>`), each with the text of its label (tags inside it dropped). */
export function* htmlAnchors(html: string): Generator<Anchor> {
  let open: { href: string; label: string[] } | null = null;
  const close = (a: { href: string; label: string[] }): Anchor => ({ href: a.href, label: a.label.join(" ").replace(/\s+/g, " ").trim() });
  for (const t of htmlTokens(html)) {
    if (t.kind === "text") open?.label.push(t.text);
    else if (t.kind === "tag" && t.name === "a") {
      // A new anchor closes the one before it, as browsers do.
      if (open) yield close(open);
      open = !t.closing && t.attrs.href !== undefined ? { href: t.attrs.href.trim(), label: [] } : null;
    }
  }
  if (open) yield close(open);
}

/** The first link of a page whose href passes `wanted`, resolved against `base`; null when none does (or it is no URL). */
export function firstLink(html: string, base: string | URL, wanted: (href: string) => boolean): URL | null {
  for (const a of htmlAnchors(html)) {
    if (!wanted(a.href)) continue;
    return URL.canParse(a.href, String(base)) ? new URL(a.href, base) : null;
  }
  return null;
}
