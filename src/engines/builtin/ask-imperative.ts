// Starting an action takes an explicit request to start one: an imperative at the start of the
// question ("analyze ...", "research ...", "can you evaluate ...", "kick off an analysis of ...").
// A question about a subject ("what score did ...", "what's the status of the deal for ...") never
// starts anything. When the subject of a requested action cannot be read cleanly (no founder
// name, no website), the answer asks for it instead of starting something.
import { hostFamily } from "../../documents/hosts.ts";
import { CUE_WORDS } from "./ask-intents.ts";
import { STOP, type Normalised, type Token } from "./ask-text.ts";

export type ActionIntent =
  | { fn: "start_research" | "start_founder_analysis" | "start_deal_analysis"; args: Record<string, unknown> }
  /** `readFirst`: a question may still be answered as a read ("evaluate how our funds are doing"); ask only if it is none. */
  | { clarify: string; readFirst?: boolean };

const LEAD = String.raw`(?:(?:please|pls|kindly|ok|okay|hey|hi|so|now|then|and|also|dealgraph|quickly) )*`;
const ASK = String.raw`(?:(?:can|could|would|will) you (?:please )?|i (?:want|need|would like) (?:you )?to |let us |go ahead and |please )?`;
const DIRECT = String.raw`analy[sz]e|assess|evaluate|research|investigate|dig into|deep dive (?:on|into)|screen|diligence`;
const GENERIC = String.raw`run|start|kick off|launch|begin|do|trigger|queue|perform|get|i (?:want|need|would like)|give me`;
const OBJECT = String.raw`(?:(?:a|an|the|some|new|another|me|us|full|quick|fresh) )*(?:(deal|company|startup|founder|website|deck) )?(analysis|assessment|evaluation|research run|research|review|diligence|deep dive|investigation|screening)\b`;
const IMPERATIVE = new RegExp(`^${LEAD}${ASK}(?:(${DIRECT})\\b|(?:${GENERIC}) ${OBJECT})`);

const RESEARCH_VERBS = /^(?:research|investigate|dig into|deep dive)/;
const RESEARCH_OBJECTS = /^(?:research run|research|deep dive|investigation)$/;
const FOUNDER = /^(?:co|founders?|cofounders?|ceo|cto)$/;
const ARTICLES = new Set(["a", "an", "the", "this", "that", "our", "my", "their", "its"]);
const CONNECTORS = new Set(["on", "into", "about", "of", "for", "regarding", "re", "at"]);
/** A file's own link, whatever the host: read as a document, not a website. */
const DOCUMENT_FILE = /\.(?:pdf|pptx?|docx?)$/i;

/** A link to a deck: on a document host the deal analysis knows (documents/hosts.ts), or to a PDF/Office file. */
const isDocumentLink = (url: URL) => hostFamily(url) !== "other" || DOCUMENT_FILE.test(url.pathname);

/** The index of the first token after the first `words` folded words. */
function tokenAfterWords(tokens: Token[], words: number): number {
  let seen = 0;
  for (let i = 0; i < tokens.length; i++) {
    if (seen >= words) return i;
    seen += tokens[i].f.split(" ").length;
  }
  return tokens.length;
}

const cleanName = (ts: Token[]) => ts.length >= 2 && ts.length <= 4 && ts.every((t) => /^\p{L}[\p{L}'’.-]*$/u.test(t.raw) && !STOP.has(t.f) && !CUE_WORDS.has(t.f));

/** The action the question asks to start, a question back when its subject is unclear, or null (not a request to start anything). */
export function actionRequested(n: Normalised, knownCompany: (phrase: string) => string | null): ActionIntent | null {
  const m = IMPERATIVE.exec(n.folded);
  if (!m) return null;
  const [prefix, direct, objectKind, object] = m;
  let rest = n.tokens.slice(tokenAfterWords(n.tokens, prefix.split(" ").length));
  while (rest.length && (ARTICLES.has(rest[0].f) || CONNECTORS.has(rest[0].f))) rest = rest.slice(1);

  // "Research status?" and "research results for ..." ask about a run; they do not start one.
  if (direct && RESEARCH_VERBS.test(direct) && /^(?:status|progress|results?|report|update|runs?)$/.test(rest[0]?.f ?? "")) return null;
  if ((direct && RESEARCH_VERBS.test(direct)) || (object && RESEARCH_OBJECTS.test(object))) {
    // The topic as the partner wrote it, from its first word on.
    const query = rest.length ? n.raw.slice(rest[0].at).replace(/[\s?!.]+$/, "").trim() : "";
    if (!query) return { clarify: 'What should I research? Say it in a sentence, for example "research payroll APIs in Europe". Nothing was started.' };
    return { fn: "start_research", args: { query } };
  }

  const founderAsked = objectKind === "founder" || rest.some((t) => FOUNDER.test(t.f)) || n.linkedin !== null || n.github !== null;
  if (founderAsked) {
    const words = rest.filter((t) => !FOUNDER.test(t.f) && !ARTICLES.has(t.f) && !/^(?:analysis|assessment|evaluation|review)$/.test(t.f));
    const split = words.findIndex((t) => ["of", "at", "from", "with"].includes(t.f));
    let nameTokens = split < 0 ? words : words.slice(0, split);
    while (nameTokens.length && CONNECTORS.has(nameTokens[0].f)) nameTokens = nameTokens.slice(1);
    const companyTokens = split < 0 ? [] : words.slice(split + 1).filter((t) => !ARTICLES.has(t.f));
    const end = companyTokens.findIndex((t) => t.end);
    const companyRaw = (end < 0 ? companyTokens.slice(0, 6) : companyTokens.slice(0, end + 1)).map((t) => t.raw).join(" ") || undefined;
    const company = companyRaw ? (knownCompany(companyRaw) ?? companyRaw) : undefined;
    const name = cleanName(nameTokens) ? nameTokens.map((t) => t.raw).join(" ") : undefined;
    if (!name && !n.linkedin && !n.github) {
      return {
        clarify: `Which founder${company ? ` of ${company}` : ""}? I start a founder analysis only for a named person: say "analyze founder <full name>${company ? ` of ${company}` : " of <company>"}", or give their LinkedIn or GitHub profile URL. Nothing was started.`,
      };
    }
    return { fn: "start_founder_analysis", args: { name, linkedin_url: n.linkedin ?? undefined, github_url: n.github ?? undefined, company } };
  }

  const url = n.urls.find((u) => !/linkedin\.com|github\.com/i.test(u)) ?? (n.domains[0] ? `https://${n.domains[0]}` : undefined);
  if (!url) {
    return {
      clarify:
        'To start a deal analysis I need the company\'s website (https://...) or a link to its deck, for example "analyze https://ledgerly.io"; for a founder, "analyze founder <full name> of <company>"; for research, "research <topic>". Nothing was started.',
      readFirst: true,
    };
  }
  const parsed = new URL(url);
  const key = isDocumentLink(parsed) ? "document_url" : "website_url";
  const nameTokens = rest.filter((t) => !/[.@]/.test(t.f) && !ARTICLES.has(t.f) && !CONNECTORS.has(t.f) && !/^(?:deal|company|startup|deck|website|site|called|named|from|https?)$/.test(t.f));
  const company_name = cleanName(nameTokens) || (nameTokens.length === 1 && /^\p{Lu}/u.test(nameTokens[0].raw) && !STOP.has(nameTokens[0].f) && !CUE_WORDS.has(nameTokens[0].f))
    ? nameTokens.map((t) => t.raw).join(" ")
    : undefined;
  return { fn: "start_deal_analysis", args: { [key]: url, company_name } };
}
