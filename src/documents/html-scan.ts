// HTML from the internet read in one forward pass by htmlparser2's tokenizer (the browser's
// tokenization rules: raw text of script/style/title/textarea/..., comments, every named character
// reference), turned into a stream of tags with their attributes, text and raw text. The
// regular expressions this once replaced backtracked quadratically on hostile input (a 5 MB page
// blocked the event loop for minutes). htmlparser2's Parser is not used: it keeps an element stack
// and searches it for each end tag, which is quadratic on deep nesting (80,000 nested divs then
// stray end tags: 16 s, measured); its Tokenizer keeps no stack, so each character is looked at a
// bounded number of times whatever the input. What nesting means (forms, anchors, dropped
// elements) is decided by the readers below, each in one pass.
import { Tokenizer, type TokenizerCallbacks } from "htmlparser2";

/** Attribute names lower-cased; the first of a repeated name wins (as in browsers); values entity-decoded. */
export type Attributes = Record<string, string>;

export type HtmlToken =
  | { kind: "tag"; name: string; closing: boolean; selfClosing: boolean; attrs: Attributes }
  /** Text between tags, character references decoded. */
  | { kind: "text"; text: string }
  /** The content of a raw-text element (script, style, title, ...): never markup (title's references decoded). */
  | { kind: "raw"; name: string; text: string };

/** Elements whose content htmlparser2's tokenizer reads as text up to their end tag, as browsers do. */
const RAW_TEXT = new Set(["script", "style", "title", "textarea", "xmp", "iframe", "noembed", "noframes", "plaintext"]);
/** Raw-text elements whose character references are decoded all the same (RCDATA). */
const DECODED_RAW = new Set(["title", "textarea"]);
const NO_ATTRIBUTES: Attributes = Object.freeze(Object.create(null));
/** Tokens handed on at a time: the tokenizer pauses between batches, so a reader that stops early stops the reading. */
const BATCH = 64;

const ignore = () => {};
const IGNORED: TokenizerCallbacks = {
  onattribdata: ignore,
  onattribentity: ignore,
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
  ontext: ignore,
  ontextentity: ignore,
};

/**
 * The character references of a text (or of an attribute value: a reference without its ";"
 * before "=" or a letter stays as written there) decoded by htmlparser2's own decoder. The page is
 * tokenized without decoding, which lets the tokenizer skip ahead to the next "<" (more than twice
 * as fast, measured), and only the few texts with a "&" come here.
 */
function decodeReferences(s: string, o: { attribute?: boolean; xml?: boolean }): string {
  // Written so that nothing in `s` can end the text or the value it is read as.
  decoding.input = o.attribute ? `<a v="${s.replaceAll('"', "&quot;")}">` : s.replaceAll("<", "&lt;");
  decoding.out = "";
  const tokenizer = o.xml ? decoders.xml : decoders.html;
  tokenizer.reset();
  tokenizer.write(decoding.input);
  tokenizer.end();
  return decoding.out;
}

// One decoding tokenizer per mode, reset for each use (decoding is synchronous and never nested).
const decoding = { input: "", out: "" };
const decoderCallbacks: TokenizerCallbacks = {
  ...IGNORED,
  ontext: (start, end) => void (decoding.out += decoding.input.slice(start, end)),
  ontextentity: (cp) => void (decoding.out += String.fromCodePoint(cp)),
  onattribdata: (start, end) => void (decoding.out += decoding.input.slice(start, end)),
  onattribentity: (cp) => void (decoding.out += String.fromCodePoint(cp)),
};
const decoders = { html: new Tokenizer({ decodeEntities: true }, decoderCallbacks), xml: new Tokenizer({ xmlMode: true, decodeEntities: true }, decoderCallbacks) };

/** Character references decoded as in the text of a page (every named reference); the rest is left as it is. */
export function decodeEntities(s: string, o: { xml?: boolean } = {}): string {
  return s.includes("&") ? decodeReferences(s, o) : s;
}

/**
 * The tokenizer's events turned into tokens, queued until the reader takes them. A class, so the
 * tokenizer calls the same methods for every page (one shape: measured faster than closures).
 */
class TokenQueue implements TokenizerCallbacks {
  readonly queue: HtmlToken[] = [];
  readonly tokenizer: Tokenizer;
  ended = false;
  // The text being read: decoded so far (up to a CDATA section), and as written since.
  private text = "";
  private written = "";
  // The raw-text element whose content is being read (its token is due even when it is empty).
  private raw: string | null = null;
  private name = "";
  private attrs: Attributes = NO_ATTRIBUTES;
  private attrName = "";
  private attrValue = "";

  constructor(
    private readonly html: string,
    private readonly xml: boolean,
  ) {
    this.tokenizer = new Tokenizer({ xmlMode: xml, decodeEntities: false }, this);
  }

  private push(token: HtmlToken) {
    this.queue.push(token);
    if (this.queue.length >= BATCH) this.tokenizer.pause();
  }

  private endText() {
    const { raw, text, written } = this;
    if (raw !== null) this.push({ kind: "raw", name: raw, text: DECODED_RAW.has(raw) ? decodeEntities(written) : written });
    else if (text || written) this.push({ kind: "text", text: text + decodeEntities(written, { xml: this.xml }) });
    this.text = this.written = "";
    this.raw = null;
  }

  ontext(start: number, end: number) {
    this.written += this.html.slice(start, end);
  }
  onopentagname(start: number, end: number) {
    this.endText();
    this.name = this.html.slice(start, end).toLowerCase();
    this.attrs = Object.create(null);
  }
  onattribname(start: number, end: number) {
    this.attrName = this.html.slice(start, end).toLowerCase();
    this.attrValue = "";
  }
  onattribdata(start: number, end: number) {
    this.attrValue += this.html.slice(start, end);
  }
  onattribend() {
    const { attrs, attrName, attrValue } = this;
    if (!(attrName in attrs)) attrs[attrName] = attrValue.includes("&") ? decodeReferences(attrValue, { attribute: true, xml: this.xml }) : attrValue;
  }
  onopentagend() {
    this.push({ kind: "tag", name: this.name, closing: false, selfClosing: false, attrs: this.attrs });
    if (!this.xml && RAW_TEXT.has(this.name)) this.raw = this.name;
  }
  onselfclosingtag() {
    this.push({ kind: "tag", name: this.name, closing: false, selfClosing: true, attrs: this.attrs });
    // In HTML a "/>" does not end a raw-text element: its content follows all the same.
    if (!this.xml && RAW_TEXT.has(this.name)) this.raw = this.name;
  }
  onclosetag(start: number, end: number) {
    this.endText();
    this.push({ kind: "tag", name: this.html.slice(start, end).toLowerCase(), closing: true, selfClosing: false, attrs: NO_ATTRIBUTES });
  }
  oncdata(start: number, end: number, offset: number) {
    if (!this.xml) return this.endText(); // in HTML, a comment
    this.text += decodeEntities(this.written, { xml: true }) + this.html.slice(start, end - offset);
    this.written = "";
  }
  oncomment() {
    this.endText();
  }
  ondeclaration() {
    this.endText();
  }
  onprocessinginstruction() {
    this.endText();
  }
  onend() {
    this.endText();
    this.ended = true;
  }
  // Decoding is left to decodeReferences (the tokenizer runs with decodeEntities off).
  ontextentity() {}
  onattribentity() {}
}

/**
 * The tokens of a page, in order. A tag the input ends inside is not a tag, and nothing after it
 * is read, as a browser drops it at the end of the file. `xml`: an XML part (Office files): XML's
 * five references only, no raw-text elements, CDATA as text; names are lower-cased either way.
 */
export function* htmlTokens(html: string, o: { xml?: boolean } = {}): Generator<HtmlToken> {
  const q = new TokenQueue(html, o.xml ?? false);
  q.tokenizer.write(html);
  for (;;) {
    yield* q.queue;
    q.queue.length = 0;
    if (q.ended) return;
    if (q.tokenizer.running) q.tokenizer.end(); // the whole input is read: what is left of it, then the end
    else q.tokenizer.resume();
  }
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
