// The corpus's templates: the same kind of content placed the ways real decks place it. Each
// template turns a DeckModel into pages of positioned text (and grey boxes where photos and logos
// go); render.ts writes them as PDF, PPTX or DOCX. Titles vary on purpose, and some decks use none.
import { displayName, type DeckModel, type Person, type Rng, type SectionKey } from "./model.ts";

export type Text = { text: string; x: number; y: number; size: number; bold?: boolean; serif?: boolean; width?: number; align?: "left" | "center" };
export type Box = { x: number; y: number; w: number; h: number };
export type Page = { texts: Text[]; boxes: Box[]; width: number; height: number };
/** A Word memo: headings, paragraphs and tables, laid out by LibreOffice. */
export type Memo = { blocks: ({ heading: string } | { paragraph: string } | { table: string[][] } | { pageBreak: true })[] };
export type Template = { name: string; format: "pdf" | "pptx" | "docx"; build(m: DeckModel, r: Rng): Page[] | Memo };

const W = 960;
const H = 540;
const page = (texts: Text[] = [], boxes: Box[] = [], width = W, height = H): Page => ({ texts, boxes, width, height });

const TITLES: Record<SectionKey | "problem" | "history" | "advisors", string[]> = {
  team: ["Team", "The Team", "Meet the team", "Founding team", "Who we are", "Our people", "Leadership"],
  market: ["Market", "Market opportunity", "Market size", "Why now", "The opportunity"],
  product: ["Product", "Solution", "Our solution", "How it works", "The platform"],
  traction: ["Traction", "Key metrics", "Progress so far", "Momentum", "Customers"],
  business_model: ["Business model", "Pricing", "Revenue model", "How we make money", "Unit economics"],
  competition: ["Competition", "Competitive landscape", "Why we win", "Alternatives"],
  financials: ["Financials", "Financial plan", "Projections", "5-year plan", "Financial overview"],
  round: ["The ask", "Investment", "Funding", "Round", "Financing", "Our raise", "Investment opportunity"],
  problem: ["Problem", "The problem", "Pain point"],
  history: ["Our journey", "Milestones", "Funding history"],
  advisors: ["Advisors", "Advisory board", "Board & advisors"],
};

type Part = { key: SectionKey | "problem" | "history"; title: string; lines: string[] };

/** The deck's content in slide order, with titles picked for this deck and the distractors placed. */
export function parts(m: DeckModel, r: Rng): Part[] {
  const t = (k: keyof typeof TITLES) => r.pick(TITLES[k]);
  const out: Part[] = [{ key: "problem", title: t("problem"), lines: [...m.problem] }];
  if (m.has.product) out.push({ key: "product", title: t("product"), lines: [...m.product] });
  if (m.has.market) out.push({ key: "market", title: t("market"), lines: [...m.market] });
  if (m.has.traction) out.push({ key: "traction", title: t("traction"), lines: [...m.traction, ...(m.testimonial ? [`${m.testimonial.quote} — ${m.testimonial.by}`] : [])] });
  if (m.has.business_model) out.push({ key: "business_model", title: t("business_model"), lines: [...m.model] });
  if (m.has.competition) out.push({ key: "competition", title: t("competition"), lines: [...m.competition.lines] });
  if (m.has.financials) out.push({ key: "financials", title: t("financials"), lines: [...m.financials.lines] });
  // Customers' stages and other people's money sit on a slide about something else.
  const host = out.find((p) => p.key === "traction") ?? out.find((p) => p.key === "market") ?? out[0];
  if (m.customersStage) host.lines.push(m.customersStage);
  if (m.has.round && m.round && r.chance(0.5)) out.push({ key: "round", title: t("round"), lines: [...m.round.lines, `Use of funds: ${m.round.useOfFunds.join(", ")}.`, ...m.history] });
  else {
    out.push({ key: "history", title: t("history"), lines: [...m.history] });
    if (m.has.round && m.round) out.push({ key: "round", title: t("round"), lines: [...m.round.lines, `Use of funds: ${m.round.useOfFunds.join(", ")}.`] });
  }
  return out;
}

/** The team as a line each, in one of the ways decks write it. */
function teamLines(people: Person[], style: number): string[] {
  return people.map((p) => {
    const n = displayName(p);
    return [`${n}, ${p.role} — ${p.bio}`, `${n} (${p.role}), ${p.bio}.`, `${p.role}: ${n}, ${p.bio}`, `${n} – ${p.role}. ${p.bio[0].toUpperCase()}${p.bio.slice(1)}.`][style % 4];
  });
}

const advisorLines = (m: DeckModel) => m.advisors.map((a) => `${displayName(a)}, ${a.role}`);
const investorLine = (m: DeckModel) => (m.investors.length ? [`Backed by ${m.investors.join(" and ")}.`] : []);

const cover = (m: DeckModel, r: Rng): Text[] => [
  ...(m.nameOnlyInProse ? [] : [{ text: m.company, x: 80, y: 200, size: r.pick([40, 48, 54]), bold: true }]),
  { text: m.tagline, x: 80, y: 260, size: 20 },
  ...(r.chance(0.5) ? [{ text: r.pick(["Investor presentation", "Seed deck", "Confidential", "Pitch deck 2025", "March 2025"]), x: 80, y: 470, size: 12 }] : []),
];
/** A deck: its cover, the pages `each` makes of every part in turn, what `after` adds, its closing page. */
function deckOf(m: DeckModel, r: Rng, each: (p: Part, pages: Page[]) => void, after?: (pages: Page[]) => void): Page[] {
  const pages = [page(cover(m, r))];
  for (const p of parts(m, r)) each(p, pages);
  after?.(pages);
  pages.push(closing(m));
  return pages;
}

const closing = (m: DeckModel): Page => page([{ text: "Thank you", x: 80, y: 220, size: 36, bold: true }, { text: `hello@${m.domain} · www.${m.domain}`, x: 80, y: 280, size: 16 }]);

/** Words wrapped to lines of at most `chars` characters (the renderer wraps by width; this is for placing). */
const estimateLines = (text: string, size: number, width: number) => Math.max(1, Math.ceil((text.length * size * 0.5) / width));

/** Lines stacked down from y, each wrapped at the width; returns the texts and where the next line would go. */
function stack(lines: string[], x: number, y: number, size: number, width: number, gap = 0.6, bullet = ""): { texts: Text[]; y: number } {
  const texts: Text[] = [];
  for (const line of lines) {
    texts.push({ text: `${bullet}${line}`, x, y, size, width });
    y += estimateLines(`${bullet}${line}`, size, width) * size * 1.25 + size * gap;
  }
  return { texts, y };
}

// ---- the templates ----

const classic: Template = {
  name: "classic",
  format: "pdf",
  build(m, r) {
    const pages = [page(cover(m, r))];
    const footer = (n: number): Text[] => [{ text: `${m.nameOnlyInProse ? "" : `${m.company} · `}Confidential`, x: 60, y: 522, size: 9 }, { text: String(n), x: 900, y: 522, size: 9 }];
    for (const p of parts(m, r)) {
      const body = stack(p.lines, 60, 150, 18, 840, 0.6, "• ");
      pages.push(page([{ text: p.title, x: 60, y: 80, size: 30, bold: true }, ...body.texts, ...footer(pages.length + 1)]));
      if (p.key === "problem" && m.has.team) {
        const style = r.int(0, 3);
        const team = stack([...teamLines(m.team, style), ...investorLine(m)], 60, 150, 16, 840, 0.8);
        const adv = m.advisors.length ? [{ text: "Advisors", x: 60, y: team.y + 20, size: 20, bold: true }, ...stack(advisorLines(m), 60, team.y + 60, 14, 840).texts] : [];
        pages.push(page([{ text: r.pick(TITLES.team), x: 60, y: 80, size: 30, bold: true }, ...team.texts, ...adv, ...footer(pages.length + 1)]));
      }
    }
    pages.push(closing(m));
    return pages;
  },
};

/** Title-only slides: one statement per slide, large, no section titles at all. */
const statements: Template = {
  name: "statements",
  format: "pdf",
  build(m, r) {
    return deckOf(
      m,
      r,
      (p, pages) => {
        for (const [i, line] of p.lines.entries()) pages.push(page([{ text: line, x: 100, y: 200, size: i === 0 ? 30 : 26, bold: i === 0, width: 760 }]));
        if (p.key === "product" && m.has.team) {
          const [a, b, ...rest] = m.team;
          const more = rest.map((x) => `${displayName(x)} (${x.role})`);
          pages.push(page([{ text: `Founded by ${displayName(a)} (${a.role}) and ${displayName(b)} (${b.role}).`, x: 100, y: 200, size: 28, width: 760 }, ...(more.length ? [{ text: `With ${more.join(", ")}.`, x: 100, y: 330, size: 20, width: 760 }] : [])]));
        }
      },
      (pages) => {
        if (m.has.team && !m.has.product) pages.push(page([{ text: `Founded by ${m.team.map((x) => `${displayName(x)} (${x.role})`).join(", ")}.`, x: 100, y: 200, size: 28, width: 760 }]));
      },
    );
  },
};

/** Two columns side by side under one title. */
const twoColumns: Template = {
  name: "two-columns",
  format: "pdf",
  build(m, r) {
    const pages = [page(cover(m, r))];
    const all = parts(m, r);
    for (const p of all) {
      const half = Math.ceil(p.lines.length / 2);
      const left = stack(p.lines.slice(0, half), 60, 150, 16, 400);
      const right = stack(p.lines.slice(half), 510, 150, 16, 400);
      pages.push(page([{ text: p.title, x: 60, y: 80, size: 28, bold: true }, ...left.texts, ...right.texts]));
    }
    if (m.has.team) {
      const left = stack(teamLines(m.team, r.int(0, 3)), 60, 190, 15, 400, 1);
      const right = m.advisors.length ? [{ text: r.pick(TITLES.advisors), x: 510, y: 150, size: 18, bold: true }, ...stack(advisorLines(m), 510, 190, 15, 400, 1).texts] : [];
      pages.splice(2, 0, page([{ text: r.pick(TITLES.team), x: 60, y: 80, size: 28, bold: true }, { text: "Founders", x: 60, y: 150, size: 18, bold: true }, ...left.texts, ...right, ...stack(investorLine(m), 60, 470, 12, 840).texts]));
    }
    pages.push(closing(m));
    return pages;
  },
};

/** Tables: the team, the projections, the round's terms, the competitors, each as a grid of cells. */
function tablePage(title: string, rows: string[][], widths: number[], size = 14): Page {
  const texts: Text[] = [{ text: title, x: 60, y: 80, size: 28, bold: true }];
  rows.forEach((row, i) => {
    let x = 60;
    row.forEach((cell, j) => {
      if (cell) texts.push({ text: cell, x, y: 150 + i * size * 2.2, size, bold: i === 0 || j === 0 });
      x += widths[j];
    });
  });
  return page(texts);
}

const tables: Template = {
  name: "tables",
  format: "pdf",
  build(m, r) {
    return deckOf(m, r, (p, pages) => {
        if (p.key === "financials") {
          pages.push(tablePage(p.title, m.financials.table, [200, 160, 160, 160, 160]));
          pages.push(page([{ text: p.title, x: 60, y: 80, size: 28, bold: true }, ...stack(p.lines, 60, 150, 16, 840).texts]));
        } else if (p.key === "round" && m.round) {
          pages.push(tablePage(p.title, [["Term", "Details"], ...m.round.kv], [260, 400], 16));
          pages.push(page([{ text: "Use of funds", x: 60, y: 80, size: 28, bold: true }, ...stack(m.round.useOfFunds, 60, 150, 16, 840).texts, ...stack(p.lines.filter((l) => !m.round!.lines.includes(l)), 60, 330, 14, 840).texts]));
        } else if (p.key === "competition") {
          const [a, b] = m.competition.rivals;
          const cap = (s: string) => s[0].toUpperCase() + s.slice(1);
          pages.push(tablePage(p.title, [["", m.company, cap(a), cap(b)], ["Real-time data", "yes", "no", "no"], ["Setup in days", "yes", "partly", "no"], ["Built for mid-market", "yes", "no", "partly"]], [260, 200, 200, 200]));
        } else pages.push(page([{ text: p.title, x: 60, y: 80, size: 28, bold: true }, ...stack(p.lines, 60, 150, 18, 840).texts]));
        if (p.key === "problem" && m.has.team) {
          pages.push(tablePage(r.pick(TITLES.team), [["Name", "Role", "Background"], ...m.team.map((x) => [displayName(x), x.role, x.bio])], [250, 280, 340], 13));
        }
    });
  },
};

/** Separately placed text boxes: KPI tiles, a round told in three boxes on one line, captions. */
const boxes: Template = {
  name: "boxes",
  format: "pdf",
  build(m, r) {
    return deckOf(m, r, (p, pages) => {
        const title: Text = { text: p.title, x: 60, y: 70, size: 26, bold: true };
        if (p.key === "traction" || p.key === "market") {
          // Each line as a tile: the figure large, the rest beneath it, tiles side by side.
          const tiles = p.lines.slice(0, 3).map((line, i): Text[] => [{ text: line, x: 60 + i * 300, y: 200, size: 15, width: 260 }]);
          pages.push(page([title, ...tiles.flat(), ...stack(p.lines.slice(3), 60, 380, 14, 840).texts], p.lines.slice(0, 3).map((_, i) => ({ x: 50 + i * 300, y: 150, w: 280, h: 160 }))));
        } else if (p.key === "round" && m.round) {
          const kv = m.round.kv;
          const texts: Text[] = [title];
          kv.forEach(([k, v], i) => {
            texts.push({ text: k, x: 60 + i * 220, y: 170, size: 13 });
            texts.push({ text: v, x: 60 + i * 220, y: 205, size: 22, bold: true });
          });
          texts.push(...stack(p.lines.slice(1), 60, 300, 14, 840).texts);
          pages.push(page(texts));
        } else pages.push(page([title, ...stack(p.lines, 60, 140, 17, 560).texts], [{ x: 660, y: 140, w: 240, h: 300 }]));
        if (p.key === "problem" && m.has.team) {
          const texts: Text[] = [{ text: r.pick(TITLES.team), x: 60, y: 70, size: 26, bold: true }];
          m.team.forEach((x, i) => {
            texts.push({ text: displayName(x), x: 60 + i * 220, y: 330, size: 15, bold: true });
            texts.push({ text: x.role, x: 60 + i * 220, y: 352, size: 12 });
          });
          pages.push(page(texts, m.team.map((_, i) => ({ x: 60, y: 150, w: 180, h: 160 })).map((b, i) => ({ ...b, x: 60 + i * 220 }))));
        }
    });
  },
};

/** A team of photo cards: photo, name, role and a two-line bio per card, in a grid. */
const photoGrid: Template = {
  name: "photo-grid",
  format: "pdf",
  build(m, r) {
    return deckOf(m, r, (p, pages) => {
        pages.push(page([{ text: p.title, x: 60, y: 80, size: 28, bold: true }, ...stack(p.lines, 60, 150, 17, 560).texts], [{ x: 660, y: 120, w: 250, h: 330 }]));
        if (p.key === "product" || (p.key === "problem" && !m.has.product)) {
          if (!m.has.team) return;
          const texts: Text[] = [{ text: r.pick(TITLES.team), x: 60, y: 60, size: 26, bold: true }];
          const cards: Box[] = [];
          const people: (Person & { advisor?: true })[] = [...m.team, ...m.advisors.slice(0, 4 - Math.min(4, m.team.length)).map((a) => ({ ...a, advisor: true as const }))];
          people.forEach((x, i) => {
            const cx = 60 + i * 220;
            cards.push({ x: cx, y: 100, w: 170, h: 170 });
            texts.push({ text: displayName(x), x: cx, y: 300, size: 14, bold: true });
            texts.push({ text: x.advisor ? `Advisor · ${x.role}` : x.role, x: cx, y: 320, size: 11, width: 190 });
            texts.push({ text: `${x.bio[0].toUpperCase()}${x.bio.slice(1)}`, x: cx, y: 360, size: 10, width: 190 });
          });
          pages.push(page(texts, cards));
        }
    });
  },
};

/** A corporate template: a header bar and a heavy footer on every slide. */
const corporate: Template = {
  name: "corporate",
  format: "pdf",
  build(m, r) {
    const all = parts(m, r);
    const total = all.length + (m.has.team ? 3 : 2);
    const chrome = (n: number, section: string): Text[] => [
      { text: m.nameOnlyInProse ? m.tagline : m.company, x: 40, y: 30, size: 10 },
      { text: section.toUpperCase(), x: 780, y: 30, size: 10 },
      { text: `© 2025 ${m.company}${r.pick([" AG", " GmbH", " SAS", " Ltd", " Inc."])}`, x: 40, y: 525, size: 8 },
      { text: "Strictly confidential", x: 380, y: 525, size: 8 },
      { text: `${n} / ${total}`, x: 880, y: 525, size: 8 },
    ];
    const pages = [page(cover(m, r))];
    for (const p of all) {
      pages.push(page([...chrome(pages.length + 1, p.title), { text: p.title, x: 40, y: 100, size: 30, bold: true }, ...stack(p.lines, 40, 160, 17, 860, 0.8).texts]));
      if (p.key === "market" || (p.key === "problem" && !m.has.market)) {
        if (!m.has.team) continue;
        const blocks: Text[] = [];
        m.team.forEach((x, i) => {
          const y = 160 + i * 80;
          blocks.push({ text: displayName(x), x: 40, y, size: 16, bold: true }, { text: x.role, x: 40, y: y + 22, size: 13 }, { text: x.bio, x: 40, y: y + 42, size: 12 });
        });
        pages.push(page([...chrome(pages.length + 1, "Team"), { text: r.pick(TITLES.team), x: 40, y: 100, size: 30, bold: true }, ...blocks, ...stack(investorLine(m), 500, 160, 13, 400).texts]));
      }
    }
    pages.push(page([...chrome(pages.length + 1, "Contact"), ...closing(m).texts]));
    return pages;
  },
};

/** Numbered section titles ("01 — Team"), a coloured sidebar, European number styles from the model. */
const numbered: Template = {
  name: "numbered",
  format: "pdf",
  build(m, r) {
    const pages = [page(cover(m, r))];
    const sep = r.pick([" — ", " | ", ". ", " / "]);
    let n = 0;
    const title = (t: string): Text => ({ text: `${String(++n).padStart(2, "0")}${sep}${t}`, x: 150, y: 80, size: 26, bold: true });
    for (const p of parts(m, r)) {
      pages.push(page([title(p.title), ...stack(p.lines, 150, 150, 16, 760, 0.8, "– ").texts], [{ x: 0, y: 0, w: 110, h: 540 }]));
      if (p.key === "problem" && m.has.team) {
        const texts: Text[] = [title(r.pick(TITLES.team))];
        m.team.forEach((x, i) => {
          texts.push({ text: displayName(x), x: 150 + (i % 2) * 380, y: 160 + Math.floor(i / 2) * 120, size: 16, bold: true });
          texts.push({ text: `${x.role} · ${x.bio}`, x: 150 + (i % 2) * 380, y: 182 + Math.floor(i / 2) * 120, size: 12, width: 340 });
        });
        pages.push(page(texts, [{ x: 0, y: 0, w: 110, h: 540 }]));
      }
    }
    pages.push(closing(m));
    return pages;
  },
};

/** A one-pager on A4: two columns of paragraphs, each opened by an inline label. */
const onePager: Template = {
  name: "one-pager",
  format: "pdf",
  build(m, r) {
    const texts: Text[] = [
      ...(m.nameOnlyInProse ? [] : [{ text: m.company, x: 50, y: 60, size: 26, bold: true }]),
      { text: m.tagline, x: 50, y: 90, size: 13 },
      { text: `${m.city} · founded ${m.founded} · www.${m.domain}`, x: 50, y: 110, size: 10 },
    ];
    const paras: string[] = [];
    for (const p of parts(m, r)) paras.push(`${p.title}: ${p.lines.join(" ")}`);
    if (m.has.team) paras.splice(1, 0, `${r.pick(TITLES.team)}: ${teamLines(m.team, r.int(0, 3)).join(" ")}${m.advisors.length ? ` Advisors: ${advisorLines(m).join("; ")}.` : ""}`);
    const half = Math.ceil(paras.length / 2);
    const left = stack(paras.slice(0, half), 50, 150, 9.5, 235, 1.2);
    const right = stack(paras.slice(half), 310, 150, 9.5, 235, 1.2);
    return [page([...texts, ...left.texts, ...right.texts], [], 595, 842)];
  },
};

/** A label column: section names in small capitals on the left, the content on the right, several per page. */
const labelColumn: Template = {
  name: "label-column",
  format: "pdf",
  build(m, r) {
    const pages: Page[] = [page(cover(m, r))];
    let texts: Text[] = [];
    let y = 60;
    const add = (label: string, lines: string[]) => {
      const need = lines.reduce((s, l) => s + estimateLines(l, 12, 640) * 15 + 7, 0);
      if (y + need > 500) (pages.push(page(texts)), (texts = []), (y = 60));
      texts.push({ text: label.toUpperCase(), x: 50, y, size: 10, bold: true });
      const body = stack(lines, 250, y, 12, 640, 0.5);
      texts.push(...body.texts);
      y = body.y + 20;
    };
    for (const p of parts(m, r)) {
      add(p.title, p.lines);
      if (p.key === "problem" && m.has.team) {
        add(r.pick(TITLES.team), teamLines(m.team, r.int(0, 3)));
        if (m.advisors.length) add(r.pick(TITLES.advisors), advisorLines(m));
      }
    }
    pages.push(page(texts));
    return pages;
  },
};

/** A PowerPoint deck (title box, body box, tiles), converted by LibreOffice on upload. */
const pptx: Template = {
  name: "pptx",
  format: "pptx",
  build(m, r) {
    return deckOf(m, r, (p, pages) => {
        pages.push(page([{ text: p.title, x: 50, y: 60, size: 30, bold: true, width: 860 }, ...stack(p.lines, 50, 140, 18, 860, 0.5).texts]));
        if (p.key === "problem" && m.has.team) {
          const texts: Text[] = [{ text: r.pick(TITLES.team), x: 50, y: 60, size: 30, bold: true, width: 860 }];
          m.team.forEach((x, i) => {
            texts.push({ text: displayName(x), x: 50 + i * 220, y: 300, size: 16, bold: true, width: 200 });
            texts.push({ text: x.role, x: 50 + i * 220, y: 330, size: 12, width: 200 });
          });
          pages.push(page(texts));
        }
    });
  },
};

/** A Word memo: headings and paragraphs, the team and the projections as tables. */
const memo: Template = {
  name: "docx-memo",
  format: "docx",
  build(m, r) {
    const blocks: Memo["blocks"] = [];
    if (!m.nameOnlyInProse) blocks.push({ heading: `${m.company}: investment memorandum` });
    blocks.push({ paragraph: m.tagline });
    for (const p of parts(m, r)) {
      blocks.push({ heading: p.title });
      if (p.key === "financials") blocks.push({ table: m.financials.table.map((row) => row.map((c) => c || "Year")) });
      for (const l of p.lines) blocks.push({ paragraph: l });
      if (p.key === "problem" && m.has.team) {
        blocks.push({ heading: r.pick(TITLES.team) });
        blocks.push({ table: [["Name", "Role", "Background"], ...m.team.map((x) => [displayName(x), x.role, x.bio])] });
        if (m.advisors.length) blocks.push({ paragraph: `Advisors: ${advisorLines(m).join("; ")}.` });
      }
    }
    return { blocks };
  },
};

export const TEMPLATES: Template[] = [classic, statements, twoColumns, tables, boxes, photoGrid, corporate, numbered, onePager, labelColumn, pptx, memo];
