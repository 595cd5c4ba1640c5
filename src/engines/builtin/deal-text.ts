// The material as units a reader would see: slide titles apart from the sentences under them,
// wrapped lines joined back into sentences, list lines and table rows kept apart, a blank line (a
// separate box on the page) ending what came before it, and boilerplate (confidentiality notices,
// cover labels, page numbers, dates, cookie banners) marked so it is never a fact or a quote. A
// title sets the topic of what follows it on its page; a paragraph opened by a label ("Team: ...")
// has that label's topic.
import type { SourcePage } from "../deal-engine.ts";

/** What a slide or page heading says the sentences under it are about. */
export type Topic =
  | "team" | "advisors" | "investors" | "customers" | "market" | "product" | "traction" | "business_model" | "competition" | "financials" | "round" | "use_of_funds"
  | "problem" | "contact" | "roadmap"
  | "strategy" | "fund_terms" | "portfolio_construction" | "track_record" | "lp_base";

export type Unit = {
  text: string;
  page: SourcePage;
  pageIndex: number;
  /** Order across the whole material. */
  order: number;
  /** The topic of the heading this unit sits under on its page (null when none is known). */
  topic: Topic | null;
  /** The topic in force where the unit stands, a title-like line (a name on a card) included. */
  context: Topic | null;
  heading: boolean;
  boilerplate: boolean;
  /** A running header or footer: the same line on many pages (boilerplate too, kept apart because it may name the company). */
  running?: boolean;
  /** Where in `text` one line of the page ran on into the next (a wrapped line joined back). */
  breaks: number[];
};

// Joins wrapped lines inside a chunk until the unit's text is made: \s matches it, and it marks the join.
const WRAP = "\u2028";

const HEADINGS: [RegExp, Topic][] = [
  [/^(the |our |meet the |meet our |founding |management |leadership |core |investment |executive |key )?(team|founders?|founding team|leadership( team)?|management( team)?|people|who we are|partners|general partners|the gps?|team members|people)( (and|&) (advisors|advisers|board))?$/, "team"],
  [/^(our )?(advisors|advisers|advisory (board|team)|board( of directors)?|board (and|&) advisors|mentors)$/, "advisors"],
  // A team title in the deck's own words ("Our Super Team", "Meet the Dream Team", "Team Roles").
  [/^(the |our |meet (the |our )?)?([\p{L}-]+ ){0,2}team( members| roles)?$|^(roles|roles (and|&) responsibilities|who we are)$/u, "team"],
  [/^(our |existing |previous )?(investors|backers|backed by|cap table|funding history|previous rounds?|financing history)$/, "investors"],
  [/^(what (our )?(customers|clients|users|partners) (say|think|are saying)|testimonials?|customer (love|stories|quotes|voices|feedback)|in their (own )?words|reviews|kind words|voice of the customer)$/, "customers"],
  [/^(the )?(markets?|market (opportunity|size|sizing|analysis|overview)|(total )?addressable markets?|target markets?|opportunity|why now|tam)$/, "market"],
  [/^(the |our )?(products?|solutions?|technology|platform|how it works)$/, "product"],
  [/^(traction|customers|key metrics|metrics|progress|(progress|traction|results) (so far|to date)|results|kpis|momentum)$/, "traction"],
  [/^(business model|pricing|plans( (and|&) pricing)?|revenue model|unit economics|monetization|monetisation|how we make money)$/, "business_model"],
  [/^(competition|competitive landscape|competitors|alternatives|why us|why we win|positioning)$/, "competition"],
  [/^(financials|financial (plan|projections|overview|forecast)|projections|forecast|p&l|(\d+-year |business )plan)$/, "financials"],
  [/^(the |our )?(use of (funds|proceeds)|allocation( of funds)?|how we (will )?(use|spend) (the|it|the money|the funds))$/, "use_of_funds"],
  [/^(the |our )?((now )?raising|ask|round|raise|funding|investment|investment opportunity|fundraise|fundraising|financing|round terms|current round|the ask (and|&) use of funds|ask (and|&) use of funds|(pre-?seed|seed|series [a-e]) round|(funding|capital|investment|financing) (requirements?|needs?|request|required|sought)|investment ask)$/, "round"],
  [/^(the )?(problems?|pain( points?)?|challenges?)$/, "problem"],
  [/^(contact( us)?|thank you|get in touch)$/, "contact"],
  [/^((product |project |our )?roadmap|timeline|next steps|future (plans|development)|go[- ]to[- ]market( (plan|strategy))?|gtm( (plan|strategy))?)$/, "roadmap"],
  [/^(investment )?(strategy|thesis|focus)$/, "strategy"],
  [/^((key|fund|main) )?terms$|^(summary of terms|economics|fund economics|fund overview|fund structure)$/, "fund_terms"],
  [/^portfolio( construction| strategy)?$/, "portfolio_construction"],
  [/^(track record|prior funds|performance|returns|realizations)$/, "track_record"],
  [/^(lp base|lps|limited partners|our lps)$/, "lp_base"],
];

const BOILERPLATE: RegExp[] = [
  /^(strictly\s+)?(private\s*(and|&)\s*)?confidential\b/i,
  /^strictly (private|confidential)\b/i,
  /^(not for (distribution|circulation)|for discussion purposes( only)?|internal use only|draft)\b/i,
  /^(investors?'? (presentation|deck|update|memo)|((pre-?seed|seed|series [a-e]) )?(pitch )?deck( (19|20)\d{2})?|(company|corporate) (presentation|overview))$/i,
  /^(©|copyright\b|all rights reserved)/i,
  /^(page\s*)?\d{1,3}(\s*(\/|of)\s*\d{1,3})?$/i,
  /^((jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+)?(\d{1,2}(st|nd|rd|th)?,?\s+)?(19|20)\d{2}$/i,
  /^(q[1-4]|h[12])\s*(19|20)\d{2}$/i,
  /^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$/,
  /\bcookies?\b.*\b(use|accept|consent|preferences|policy|settings|experience)\b|\b(use|accept|consent to)\b.*\bcookies?\b/i,
  /^((accept|reject|decline|allow)( all)?( cookies)?\s*)+$/i,
  /^(manage (preferences|cookies|settings)|privacy policy|terms( of (service|use))?|imprint|impressum|skip to (main )?content|menu|log ?in|sign (in|up)|book a demo|request a demo|get started|contact( us)?|learn more|read more)$/i,
];

export function isBoilerplate(text: string): boolean {
  const t = text.replace(/[.:;!|–—-]+$/, "").trim();
  return t.length === 0 || BOILERPLATE.some((re) => re.test(t));
}

/** The topic a title names; a number before it ("01 — Team", "3. Market", "0 6 · Team") is not part of it. */
export function topicOfHeading(text: string): Topic | null {
  const t = text
    .toLowerCase()
    .replace(/^\d{1,2}(?:\s\d)?\s*(?:[.)|/—–·-]\s*)?(?=\p{L})/u, "")
    .replace(/[.:!]+$/, "")
    // A note in brackets after a title ("Who we are [photo]", "Financial projections (3-year)") is no part of it.
    .replace(/\s*\[[^\]]{1,20}\]\s*$|\s*\([^()]{1,20}\)\s*$/, "")
    // A title set between dashes or bullets ("— THE TEAM —") is the title.
    .replace(/^[\s—–•·|-]+|[\s—–•·|-]+$/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return HEADINGS.find(([re]) => re.test(t))?.[1] ?? null;
}

// "Team: Dr. <Name>, CEO ...": a paragraph opened by a label says what it is about.
const LABEL = /^([\p{L}&' -]{3,30}):\s/u;

/** A title line: short, starts with a capital, no figures, at most a closing period or colon; a section number may lead. */
function headingLike(text: string): boolean {
  const t = text
    .replace(/^[—–•·-]+\s*(?=\p{Lu})|\s*[—–•·-]+$/gu, "")
    .replace(/^\d{1,2}(?:\s\d)?\s*(?:[.)|/—–·-]\s*)?(?=\p{Lu})/u, "")
    // A note in brackets after a title of two words or more ("FINANCIAL PROJECTIONS (3-YEAR)") is no part of it.
    .replace(/^(\p{Lu}[\p{L}&'’-]*(?:\s+[\p{L}&'’-]+)+)\s*\([^()]{1,20}\)$/u, "$1");
  const words = t.split(/\s+/).length;
  return words <= 6 && t.length <= 50 && /^[\p{Lu}]/u.test(t) && !/[\d$€£,;|]/.test(t) && !/[.:!?].*[.:!?]$|[.!?:]\S/.test(t) && (!/[.:]$/.test(t) || words <= 3);
}

// "John K. Doe": an initial after a given name (not "Series A." or "Fund B.").
const MIDDLE_INITIAL = /(?:^|\s)(?!(?:Series|Class|Type|Phase|Round|Plan|Tier|Part|Fund|Appendix|Grade|Level|Option|Section|Stage)\s)\p{Lu}\p{Ll}+ \p{Lu}\.$/u;
const ABBREVIATIONS = /\b(e\.g|i\.e|vs|mr|ms|mrs|dr|st|no|approx|ca|mio|mrd|tsd|jr|sr|prof|dipl\.-ing|ing|inc|ltd|co|corp)\.$/i;

/** Sentences of a chunk of running text; a period after "e.g." or "Mio." ends nothing. */
export function sentencesIn(chunk: string): string[] {
  const out: string[] = [];
  let start = 0;
  // A short line of a few words set apart by dots is one label ("Co-founder · Device"), not a list.
  const label = !/[.!?]/.test(chunk) && chunk.split(/\s+/).filter((w) => !/^[•·▪●]$/.test(w)).length <= 4;
  for (const m of chunk.matchAll(label ? /(?!)/gu : /(?<=[.!?]["”’)]?)\s+(?=[\p{Lu}\d$€£"“(])|\s[•·▪●]\s/gu)) {
    const piece = chunk.slice(start, m.index);
    if (/[.]$/.test(piece) && (ABBREVIATIONS.test(piece) || MIDDLE_INITIAL.test(piece))) continue;
    out.push(piece.trim());
    start = m.index! + m[0].length;
  }
  out.push(chunk.slice(start).trim());
  return out.filter(Boolean);
}

// List markers as decks draw them: dots, dashes, squares and arrows (the geometric shapes and
// dingbats blocks), and the private-use glyphs of symbol fonts. A marker set apart as a table cell
// of its own ("■ | Original bill: ...") is a marker too, not a column.
const MARKS = "•·▪●◦‣*–\\-\\u25A0-\\u25FF\\u2794-\\u27BF\\u2713\\u2714\\u2756\\uF0A7\\uF0B7\\uF0D8\\uF0FC";
const BULLET = new RegExp(`^[${MARKS}](?:\\s*\\|)?\\s+`, "u");
// A line that ends in a web or mail address is not wrapped mid-sentence.
const ENDS_WITH_ADDRESS = /(?:https?:\/\/|www\.|@|linkedin\.com\/)\S*$|\b[\w-]+\.(?:com|io|ai|co|de|uk|org|net|vc|fund|capital|health|app|dev)$/i;
// A line that is an address and nothing else ("jane@acme.io" under "The team") starts afresh.
const LONE_ADDRESS = /^(?:[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:https?:\/\/|www\.)\S+)$/i;
// A name or a role alone on a line belongs to a list of people (a team or advisors slide laid
// out as blocks), not a new section title.
const NAME_LINE = /^\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)?(?:\s(?:\p{Lu}\.|\p{Lu}[\p{Ll}'’-]+|van|von|de|der|da|di|du|la|le)){1,3}$/u;
const ROLE_LINE = /^(?:[A-Z]{2,4}\b|.*\b(?:founder|partner|chief|head of|vp|director|engineer|advis[oe]r|officer|principal|president|chair)\b)/i;

// A table row as the PDF layout and the Office readers write one: cells joined by " | ".
const ROW = /\s\|\s/;

/**
 * A page's running text, in chunks: a line ends its chunk when it ends a sentence, when it is a
 * list or title line (no closing punctuation, short, and the next line starts afresh), when a
 * blank line follows it (the next box on the page) or when it is a table row; otherwise the next
 * line is its wrapped continuation.
 */
function chunksOf(text: string): string[] {
  const lines = text.split(/\r?\n|\t|[^\S\n]{2,}/).map((l) => l.trim());
  // A line is short or long against the lines of its own paragraph (up to a blank line).
  const longestAround = (i: number) => {
    let [from, to] = [i, i];
    while (from > 0 && lines[from - 1]) from--;
    while (to + 1 < lines.length && lines[to + 1]) to++;
    return Math.max(...lines.slice(from, to + 1).map((l) => l.length));
  };
  const chunks: string[] = [];
  let current = "";
  const end = () => {
    if (current) chunks.push(current);
    current = "";
  };
  lines.forEach((raw, i) => {
    if (!raw) return end();
    const bullet = BULLET.test(raw);
    const line = raw.replace(BULLET, "").replace(/^#{1,6}\s+/, "");
    if (bullet || ROW.test(line)) end();
    current = current ? `${current}${WRAP}${line}` : line;
    // (The next line with text, found without copying the rest of the page for every line.)
    let j = i + 1;
    while (j < lines.length && !lines[j]) j++;
    const next = lines[j];
    // A line that ends in a preposition, an article or a conjunction ("Verification in") goes on in the next.
    const standalone =
      next !== undefined &&
      !/[,;]$/.test(line) &&
      !/\s(?:in|of|for|to|the|a|an|and|or|with|at|by|from|on)$/i.test(line) &&
      (BULLET.test(next) || ROW.test(next) || /^[\p{Lu}\d$€£"“(]/u.test(next) || LONE_ADDRESS.test(next)) &&
      (line.split(/\s+/).length <= 6 || line.length < 0.75 * longestAround(i) || ENDS_WITH_ADDRESS.test(line));
    if (next === undefined || ROW.test(line) || /[.!?:]["”’)]?$/.test(line) || standalone) end();
  });
  end();
  return chunks;
}

/** Every unit of the material in reading order, with its heading context and its flags. */
export function readMaterial(pages: SourcePage[]): Unit[] {
  const itemsOf = pages.map((page) =>
    chunksOf(page.text).flatMap((chunk) => {
      const flat = chunk.replace(/\s*\u2028\s*/g, WRAP).replace(/[^\S\u2028]+/g, " ");
      const label = LABEL.exec(chunk);
      const labelled = label ? topicOfHeading(label[1]) : null;
      return (ROW.test(chunk) ? [flat] : sentencesIn(flat)).map((marked) => {
        const text = marked.replace(/\u2028/g, " ");
        return { marked, text, labelled, boilerplate: isBoilerplate(text), running: false };
      });
    }),
  );
  // A running header or footer ("<Name> | <Team> | Made with", a section tracker) says the same on
  // every page: evidence of no section, however the slide above it is titled, and no title.
  const pagesOf = new Map<string, Set<number>>();
  itemsOf.forEach((items, i) => items.forEach((it) => !it.boilerplate && pagesOf.set(it.text, (pagesOf.get(it.text) ?? new Set()).add(i))));
  const documents = new Map<string | null, number>();
  for (const p of pages) documents.set(p.documentId, (documents.get(p.documentId) ?? 0) + 1);
  itemsOf.forEach((items, i) => {
    for (const it of items) {
      const on = pagesOf.get(it.text)?.size ?? 0;
      if (!it.boilerplate && on >= 3 && on * 3 >= documents.get(pages[i].documentId)! && !topicOfHeading(it.text)) it.boilerplate = it.running = true;
    }
  });
  const units: Unit[] = [];
  pages.forEach((page, pageIndex) => {
    let topic: Topic | null = null;
    // The unit before: a name on its own line is captioned by the short title-like line under it
    // ("<Name>" over "PRODUCT & TECH"), which is part of the card, not a new section's title.
    let afterName = false;
    const items = itemsOf[pageIndex].map((it) => ({ ...it, heading: !it.boilerplate && headingLike(it.text) }));
    // Whether the page's title has set a topic yet: labels set in a row under it do not replace it.
    let titled = false;
    for (const [k, { marked, text, labelled, boilerplate, heading, running }] of items.entries()) {
      const breaks = [...marked.matchAll(/\u2028/g)].map((m) => m.index!);
      // A run of three or more short titles under the page's title, one after the other with nothing
      // between ("PROBLEMS" over "Technology", "Opportunity", "Fear"): the columns' labels, not new sections.
      const run = (from: number, step: number) => {
        let n = 0;
        for (let j = from; items[j]?.heading && items[j].text.split(/\s+/).length <= 2; j += step) n++;
        return n;
      };
      const columnLabel = titled && heading && run(k, -1) + run(k + 1, 1) >= 3 && text.split(/\s+/).length <= 2;
      // A title sets the context of what follows it on its page; an unknown title clears it, but a
      // name on its own line (a list of advisors) does not end the list.
      // A chart's or a table's caption with its unit in brackets ("ARR (EUR k)") is no new section.
      if (heading && !columnLabel && (topicOfHeading(text) || !(NAME_LINE.test(text) || NAME_LINE.test(text.split(/\s[–—-]\s|[;:]\s/)[0]) || ROLE_LINE.test(text) || afterName || /\([^()]+\)$/.test(text)))) {
        topic = topicOfHeading(text);
        titled ||= topic !== null;
      }
      afterName = heading && NAME_LINE.test(text);
      // A spreadsheet page opens with its sheet's name (office-text.ts): the name is its title.
      const sheet = /^Sheet: (.+?)\.?$/.exec(text);
      if (sheet) topic = topicOfHeading(sheet[1]);
      units.push({ text, page, pageIndex, order: units.length, topic: heading ? null : (labelled ?? topic), context: labelled ?? topic, heading, boilerplate, ...(running ? { running } : {}), breaks });
    }
  });
  return units;
}

/** The units that can be quoted as evidence: real sentences, neither titles nor boilerplate. */
export function quotable(units: Unit[]): Unit[] {
  return units.filter((u) => !u.heading && !u.boilerplate && u.text.length >= 20 && u.text.length <= 600);
}
