// The interface every deal engine implements: material in (pages of text, each with where it came
// from), structured facts and scored sections out. The built-in engine is deterministic and
// offline; the LLM engine (when DEALGRAPH_LLM_BASE_URL is set) sits behind the same interface.
// Both read only pages with usable text (readablePages) and say which they could not read.
import { pageList, textProblem } from "../lib/text-quality.ts";

/** `name`: the document's file name, when it has one (said when an analysis reads only part of it). */
export type SourcePage = { documentId: string | null; url: string | null; page: number | null; text: string; name?: string | null };

export type Evidence = { quote: string; document_id: string | null; page: number | null; url?: string };

export type Section = {
  key: string;
  title: string;
  /** 0-100, null with `unavailable_reason` when the material says nothing about it. */
  score: number | null;
  summary: string | null;
  evidence: Evidence[];
  unavailable_reason: string | null;
};

export type DealFacts = {
  company: {
    name: string | null;
    domain: string | null;
    website: string | null;
    description: string | null;
    sector: string | null;
    location: string | null;
    founded_year: number | null;
  };
  round: { stage: string | null; amount: number | null; currency: string | null; pre_money_valuation: number | null };
  team: { name: string; title: string | null; linkedin_url: string | null }[];
};

export type DealAnalysis = {
  engine: string;
  kind: "company" | "fund";
  facts: DealFacts;
  sections: Section[];
  /** Mean of the scored sections; null when none could be scored. */
  score: number | null;
  /** Share of sections with evidence, 0-1. */
  score_confidence: number;
  summary: string;
};

export type DealEngineInput = {
  pages: SourcePage[];
  /** `siteTitle`: the website's <title>, when the material is a website. */
  hints: { companyName?: string | null; website?: string | null; kind?: "company" | "fund" | null; siteTitle?: string | null };
  progress(stage: string): void;
};

export interface DealEngine {
  name: string;
  analyze(input: DealEngineInput): Promise<DealAnalysis>;
}

export const COMPANY_SECTIONS = [
  ["team", "Team"],
  ["market", "Market"],
  ["product", "Product"],
  ["traction", "Traction"],
  ["business_model", "Business model"],
  ["competition", "Competition"],
  ["financials", "Financials"],
  ["round", "Round"],
] as const;

export const FUND_SECTIONS = [
  ["team", "Team"],
  ["strategy", "Strategy"],
  ["fund_terms", "Fund terms"],
  ["portfolio_construction", "Portfolio construction"],
  ["track_record", "Track record"],
  ["lp_base", "LP base"],
] as const;

/**
 * The pages whose text can be read, and what to say of a document's pages that cannot be (page
 * images, fonts without a usable encoding) once OCR, where the server has it, did not recover
 * them. A page set in an unreadable font is always said; pages with no text at all are said when
 * they are most of their document (one photo slide is no news). Unreadable pages are never read.
 */
export function readablePages(material: SourcePage[]): { readable: SourcePage[]; note: string | null } {
  const { pages, note: cut } = withinReadBound(material);
  const { readable, note } = readableOf(pages);
  return { readable, note: [note, cut].filter(Boolean).join(" ") || null };
}

/**
 * What an analysis reads of one document (or one web page) at most: one upload of a page holding
 * 200,000 paragraphs must not cost a shared server minutes of processor time, and some reading
 * steps grow faster than the text on long runs of short lines (a page listing 10,000 names took
 * 120 s; 5,000, 30 s). A deck, a memorandum or a 60-page contract is within it (200,000
 * characters are some 4,000 lines of prose); a long list is cut, and the cut is said.
 */
export const READ_BOUND = { chars: 200_000, lines: 5_000 };

/** The material cut to READ_BOUND per document, and what to say of each document that was cut (never silently). */
export function withinReadBound(pages: SourcePage[], bound = READ_BOUND): { pages: SourcePage[]; note: string | null } {
  const used = new Map<string, { chars: number; lines: number; cutAt: SourcePage | null; partly: boolean; skipped: number }>();
  const kept: SourcePage[] = [];
  for (const page of pages) {
    const key = page.documentId ?? page.url ?? "";
    const doc = used.get(key) ?? used.set(key, { chars: 0, lines: 0, cutAt: null, partly: false, skipped: 0 }).get(key)!;
    if (doc.cutAt) {
      doc.skipped++;
      continue;
    }
    // Where the bound falls in this page: the characters left, or the line that is one too many.
    let end = doc.lines >= bound.lines ? 0 : Math.min(page.text.length, bound.chars - doc.chars);
    let lines = doc.lines;
    for (let at = page.text.indexOf("\n"); at !== -1 && at < end; at = page.text.indexOf("\n", at + 1)) {
      if (++lines >= bound.lines) end = at;
    }
    doc.chars += end;
    doc.lines = lines;
    if (!page.text.slice(end).trim()) {
      kept.push(page);
      continue;
    }
    // Cut at the last line break (or space) before the bound, so no word is read in half.
    const edge = Math.max(page.text.lastIndexOf("\n", end), page.text.lastIndexOf(" ", end));
    const text = page.text.slice(0, edge > 0 ? edge : end);
    doc.partly = !!text.trim();
    if (doc.partly) kept.push({ ...page, text });
    doc.cutAt = page;
  }
  const notes = [...used.values()]
    .filter((d) => d.cutAt)
    .map(({ cutAt: page, partly, skipped }) => {
      const what = page!.name ?? page!.url ?? "A document";
      const [first, last] = [page!.page! + (partly ? 1 : 0), page!.page! + skipped];
      const unread = first > last ? "" : first === last ? `page ${first} was not read` : `pages ${first}-${last} were not read`;
      const where =
        page!.page === null ? "it was read only in part" : [partly ? `page ${page!.page} was read only in part` : "", unread].filter(Boolean).join(" and ");
      return `${what} is longer than an analysis reads of one document (${bound.chars.toLocaleString("en-US")} characters or ${bound.lines.toLocaleString("en-US")} lines, a bound on the work one file costs): ${where}.`;
    });
  return { pages: kept, note: notes.length ? notes.join(" ") : null };
}

function readableOf(pages: SourcePage[]): { readable: SourcePage[]; note: string | null } {
  const problems = pages.map((p) => textProblem(p.text));
  const readable = pages.filter((_, i) => problems[i] === null);
  const said = pages.filter((p, i) => {
    if (problems[i] === null || p.documentId === null || p.page === null) return false;
    if (problems[i] === "scrambled") return true;
    const own = pages.filter((q) => q.documentId === p.documentId);
    return own.filter((q) => textProblem(q.text) === "no_text").length * 2 >= own.length;
  });
  if (readable.length === 0 && pages.length > 0) {
    const n = pages.length;
    return {
      readable,
      note: `${n === 1 ? "The material's only page has" : `None of the material's ${n} pages has`} usable text (page images, or a font without a usable text encoding), and OCR did not recover ${n === 1 ? "it" : "them"} (OCR needs Tesseract on the server; /readyz says whether it is installed), so nothing on ${n === 1 ? "it" : "them"} was read.`,
    };
  }
  if (said.length === 0) return { readable, note: null };
  const one = said.length === 1;
  return {
    readable,
    note: `${pageList(said.map((p) => p.page!)).replace(/^p/, "P")} ${one ? "has" : "have"} no usable text (an image, or a font without a usable text encoding), and OCR did not recover ${one ? "it" : "them"} (OCR needs Tesseract on the server; /readyz says whether it is installed), so nothing on ${one ? "it" : "them"} was read.`,
  };
}

/** The analysis of material with nothing readable: every section null for that reason, no facts but the hints. */
export function unreadableAnalysis(engine: string, kind: "company" | "fund", hints: DealEngineInput["hints"], note: string): DealAnalysis {
  const website = hints.website ? (/^https?:\/\//i.test(hints.website) ? hints.website : `https://${hints.website}`) : null;
  const domain = website && URL.canParse(website) ? new URL(website).hostname.replace(/^www\./, "") : null;
  const catalogue = kind === "fund" ? FUND_SECTIONS : COMPANY_SECTIONS;
  const name = hints.companyName?.trim() || null;
  return {
    engine,
    kind,
    facts: {
      company: { name, domain, website, description: null, sector: null, location: null, founded_year: null },
      round: { stage: null, amount: null, currency: null, pre_money_valuation: null },
      team: [],
    },
    sections: catalogue.map(([key, title]) => ({ key, title, score: null, summary: null, evidence: [], unavailable_reason: note })),
    score: null,
    score_confidence: 0,
    summary: `${name ?? "The deal"}: ${note[0].toLowerCase()}${note.slice(1)}`,
  };
}
