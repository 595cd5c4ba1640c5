// Which data-room category a document belongs to, from its name (and folder) and its text. Each
// category has weighted keywords for names and for content; the scores add up, and every point is
// kept as a reason, so a category can always be explained. A name scores less than a document that
// is about something, so content wins over a vague name; nothing convincing is `other`.

export const CATEGORIES = ["pitch_deck", "financials", "cap_table", "legal", "customers", "product", "team", "other"] as const;
export type Category = (typeof CATEGORIES)[number];

export type Classification = { category: Category; score: number; reasons: string[] };

type Keyword = [RegExp, number];

// Names: a strong, specific word is worth more than a generic one ("deck" vs "overview").
const NAME: Record<Exclude<Category, "other">, Keyword[]> = {
  pitch_deck: [[/\b(pitch|deck|investor[ _-]?presentation|teaser|one[ _-]?pager)\b/i, 6], [/\b(presentation|overview|intro)\b/i, 3]],
  financials: [
    [/\b(financial[ _-]?model|financials?|finance|p&l|pnl|p[ _-]?l|income[ _-]?statement|balance[ _-]?sheet|cash[ _-]?flow|budget|forecast|projections?|burn)\b/i, 6],
    [/\b(model|kpis?|metrics|accounts|audit(ed)?)\b/i, 3],
  ],
  cap_table: [[/\b(cap[ _-]?table|captable|capitali[sz]ation|shareholders?[ _-]?(register|list)|esop|option[ _-]?pool)\b/i, 8], [/\b(shareholders?|ownership|equity)\b/i, 3]],
  legal: [
    [/\b(sha|spa|ssa|nda|lpa|msa|agreement|contract|articles|bylaws|incorporation|certificate|term[ _-]?sheet|side[ _-]?letter|ip[ _-]?assignment|legal|subscription[ _-]?docs?)\b/i, 6],
    [/\b(policy|terms|license|licence|signed)\b/i, 3],
  ],
  customers: [[/\b(customers?|clients?|customer[ _-]?list|pipeline|references|case[ _-]?stud(y|ies)|testimonials|cohorts?|churn|crm|logos)\b/i, 6], [/\b(sales|accounts|users)\b/i, 3]],
  product: [[/\b(product|roadmap|architecture|technical|tech|spec|prd|whitepaper|demo|features?|api|security)\b/i, 6], [/\b(design|platform|docs?)\b/i, 2]],
  team: [[/\b(team|org[ _-]?chart|founders?|bios?|cvs?|resumes?|management|headcount|hiring|people)\b/i, 6]],
};

// Content: what a document of that kind talks about. Each keyword counts up to three times.
const CONTENT: Record<Exclude<Category, "other">, Keyword[]> = {
  pitch_deck: [
    [/\b(the problem|problem|solution|why now|our vision|vision)\b/gi, 1],
    [/\b(use of funds|the ask|we are raising|raising \$|investment opportunity)\b/gi, 3],
    [/\b(TAM|SAM|SOM|market size)\b/g, 2],
    [/\b(traction|competition|go-to-market)\b/gi, 1],
  ],
  financials: [
    [/\b(revenue|ebitda|gross margin|net income|operating expenses|opex|cogs|cost of goods)\b/gi, 2],
    [/\b(burn( rate)?|runway|cash flow|balance sheet|income statement|p&l|forecast|projections?)\b/gi, 2],
    [/\b(fy ?\d{2,4}|q[1-4] ?\d{2,4}|ytd|total assets|liabilities)\b/gi, 1],
  ],
  cap_table: [
    [/\b(fully[ -]diluted|option pool|esop|cap table|capitali[sz]ation table)\b/gi, 4],
    [/\b(preferred (shares|stock)|common (shares|stock)|ordinary shares|series (seed|a|b|c) preferred|warrants?)\b/gi, 3],
    [/\b(shareholders?|stockholders?|shares|ownership|% owned|dilution)\b/gi, 1],
  ],
  legal: [
    [/\b(hereby|whereas|hereinafter|hereto|indemnif\w*|governing law|jurisdiction)\b/gi, 3],
    [/\b(this agreement|the parties|party|shall|terminat\w+|confidential\w*|warrant(y|ies)|representations)\b/gi, 1],
  ],
  customers: [
    [/\b(customer (list|references?)|case stud(y|ies)|testimonials?|logo(s)?|nps|net promoter)\b/gi, 3],
    [/\b(churn|renewals?|retention|cohorts?|acv|contract value|pipeline|pilots?)\b/gi, 2],
    [/\b(customers?|clients?|accounts)\b/gi, 1],
  ],
  product: [
    [/\b(roadmap|architecture|api|sdk|backlog|release notes?|sprint)\b/gi, 2],
    [/\b(features?|integrations?|platform|infrastructure|latency|deployment|user interface|ux|security|encryption)\b/gi, 1],
  ],
  team: [
    [/\b(co-?founder|founder|ceo|cto|coo|cfo|vp of \w+|head of \w+)\b/gi, 2],
    [/\b(previously|formerly|years of experience|joined|hired|headcount|org chart|linkedin|phd|mba|university|alumn\w*)\b/gi, 1],
  ],
};

/** Below this no category is convincing, and the document is `other`. */
const MIN_SCORE = 4;

/**
 * Content keywords are looked for in the first 256 KB of text: enough to tell what a document is
 * about (each keyword counts up to three times anyway), and it keeps classifying a 16 MB file
 * from holding the server's event loop (this runs in the server, after the file is read).
 */
const CONTENT_SAMPLE_CHARS = 256 * 1024;

export function classifyDocument(filename: string, folder: string | null, fullText: string): Classification {
  const text = fullText.length > CONTENT_SAMPLE_CHARS ? fullText.slice(0, CONTENT_SAMPLE_CHARS) : fullText;
  // Separators in names are spaces for the word boundaries: "Cap_Table-v3.xlsx" reads as "Cap Table v3".
  const name = `${folder ?? ""} ${filename.replace(/\.[a-z0-9]{1,5}$/i, "")}`.replace(/[_\-./\\]+/g, " ");
  const scores = new Map<Category, { score: number; reasons: string[] }>();
  for (const category of Object.keys(NAME) as Exclude<Category, "other">[]) {
    const s = { score: 0, reasons: [] as string[] };
    for (const [re, w] of NAME[category]) {
      // Each distinct word once: the folder and the file name may both say it.
      const words = new Set([...name.matchAll(new RegExp(re.source, "gi"))].map((m) => m[0].trim()));
      for (const word of words) (s.score += w), s.reasons.push(`name "${word}" +${w}`);
    }
    for (const [re, w] of CONTENT[category]) {
      const counts = new Map<string, number>();
      for (const m of text.matchAll(re)) counts.set(m[0].toLowerCase(), (counts.get(m[0].toLowerCase()) ?? 0) + 1);
      for (const [word, n] of counts) {
        const points = Math.min(3, n) * w;
        s.score += points;
        s.reasons.push(`text "${word}"${n > 1 ? ` x${n}` : ""} +${points}`);
      }
    }
    scores.set(category, s);
  }
  const [best, s] = [...scores.entries()].sort((a, b) => b[1].score - a[1].score)[0];
  if (s.score < MIN_SCORE) return { category: "other", score: s.score, reasons: [`no category reached ${MIN_SCORE} points`, ...s.reasons] };
  return { category: best, score: s.score, reasons: s.reasons };
}
