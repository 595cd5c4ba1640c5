// PPTX and DOCX decks written as OOXML by hand (fflate zips): what PowerPoint, Keynote's export and
// Word save, reduced to the parts LibreOffice needs to lay them out. Positioned text boxes (name and
// role in separate boxes), grey photo rectangles, rotated labels, real tables, bar charts as shapes.
import { strToU8, zipSync } from "fflate";
import type { Block, DeckDoc, Slide } from "./content.ts";
import type { Rand } from "./rng.ts";

export const PPTX_STYLES = ["pptx-boxes", "pptx-tables"] as const;
export const DOCX_STYLES = ["docx-memo", "docx-slides"] as const;
export type PptxStyle = (typeof PPTX_STYLES)[number];
export type DocxStyle = (typeof DOCX_STYLES)[number];

const MTIME = new Date(Date.UTC(2025, 9, 1));
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const XML = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n`;
const NS_A = "http://schemas.openxmlformats.org/drawingml/2006/main";
const NS_P = "http://schemas.openxmlformats.org/presentationml/2006/main";
const NS_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const rels = (items: [string, string, string][]) => `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items.map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`).join("")}</Relationships>`;

const THEME = `${XML}<a:theme xmlns:a="${NS_A}" name="Blind"><a:themeElements><a:clrScheme name="Blind"><a:dk1><a:srgbClr val="000000"/></a:dk1><a:lt1><a:srgbClr val="FFFFFF"/></a:lt1><a:dk2><a:srgbClr val="1F2937"/></a:dk2><a:lt2><a:srgbClr val="F3F4F6"/></a:lt2><a:accent1><a:srgbClr val="2563EB"/></a:accent1><a:accent2><a:srgbClr val="059669"/></a:accent2><a:accent3><a:srgbClr val="D97706"/></a:accent3><a:accent4><a:srgbClr val="DC2626"/></a:accent4><a:accent5><a:srgbClr val="7C3AED"/></a:accent5><a:accent6><a:srgbClr val="0891B2"/></a:accent6><a:hlink><a:srgbClr val="2563EB"/></a:hlink><a:folHlink><a:srgbClr val="7C3AED"/></a:folHlink></a:clrScheme><a:fontScheme name="Blind"><a:majorFont><a:latin typeface="DejaVu Sans"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont><a:minorFont><a:latin typeface="DejaVu Sans"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont></a:fontScheme><a:fmtScheme name="Blind"><a:fillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:fillStyleLst><a:lnStyleLst><a:ln w="6350"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="12700"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="19050"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln></a:lnStyleLst><a:effectStyleLst><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle></a:effectStyleLst><a:bgFillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:bgFillStyleLst></a:fmtScheme></a:themeElements></a:theme>`;

// ---------------------------------------------------------------- PPTX
const EMU = 12700; // per point
const SW = 960, SH = 540; // points

class SlideXml {
  private shapes: string[] = [];
  private n = 2;
  constructor(private font: string) {}
  text(x: number, y: number, w: number, h: number, paras: { text: string; size: number; bold?: boolean; italic?: boolean; color?: string; align?: "l" | "ctr" | "r" }[], rot = 0, name = "TextBox") {
    const id = this.n++;
    const ps = paras
      .map((p) => `<a:p><a:pPr algn="${p.align ?? "l"}"/><a:r><a:rPr lang="en-US" sz="${Math.round(p.size * 100)}"${p.bold ? ' b="1"' : ""}${p.italic ? ' i="1"' : ""} dirty="0"><a:solidFill><a:srgbClr val="${p.color ?? "111827"}"/></a:solidFill><a:latin typeface="${this.font}"/></a:rPr><a:t>${esc(p.text)}</a:t></a:r></a:p>`)
      .join("");
    this.shapes.push(`<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="${name} ${id}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm${rot ? ` rot="${rot * 60000}"` : ""}><a:off x="${Math.round(x * EMU)}" y="${Math.round(y * EMU)}"/><a:ext cx="${Math.round(w * EMU)}" cy="${Math.round(h * EMU)}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:noFill/></p:spPr><p:txBody><a:bodyPr wrap="square" lIns="0" tIns="0" rIns="0" bIns="0"><a:normAutofit/></a:bodyPr><a:lstStyle/>${ps}</p:txBody></p:sp>`);
  }
  rect(x: number, y: number, w: number, h: number, fill: string, geom = "rect") {
    const id = this.n++;
    this.shapes.push(`<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Picture Placeholder ${id}"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="${Math.round(x * EMU)}" y="${Math.round(y * EMU)}"/><a:ext cx="${Math.round(w * EMU)}" cy="${Math.round(h * EMU)}"/></a:xfrm><a:prstGeom prst="${geom}"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="${fill}"/></a:solidFill><a:ln><a:noFill/></a:ln></p:spPr></p:sp>`);
  }
  table(x: number, y: number, w: number, rows: string[][], size: number) {
    const id = this.n++;
    const cols = rows[0].length;
    const cw = Math.round((w * EMU) / cols);
    const rh = Math.round(size * 2 * EMU);
    const trs = rows
      .map((row, i) => `<a:tr h="${rh}">${row.map((c, j) => `<a:tc><a:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US" sz="${Math.round(size * 100)}"${i === 0 || j === 0 ? ' b="1"' : ""}><a:latin typeface="${this.font}"/></a:rPr><a:t>${esc(c)}</a:t></a:r></a:p></a:txBody><a:tcPr><a:lnB w="6350"><a:solidFill><a:srgbClr val="9CA3AF"/></a:solidFill></a:lnB>${i === 0 ? '<a:solidFill><a:srgbClr val="E5E7EB"/></a:solidFill>' : ""}</a:tcPr></a:tc>`).join("")}</a:tr>`)
      .join("");
    this.shapes.push(`<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="${id}" name="Table ${id}"/><p:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></p:cNvGraphicFramePr><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="${Math.round(x * EMU)}" y="${Math.round(y * EMU)}"/><a:ext cx="${cw * cols}" cy="${rh * rows.length}"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblPr firstRow="1"/><a:tblGrid>${Array.from({ length: cols }, () => `<a:gridCol w="${cw}"/>`).join("")}</a:tblGrid>${trs}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`);
    return (rh * rows.length) / EMU;
  }
  xml(bg: string) {
    return `${XML}<p:sld xmlns:a="${NS_A}" xmlns:r="${NS_R}" xmlns:p="${NS_P}"><p:cSld><p:bg><p:bgPr><a:solidFill><a:srgbClr val="${bg}"/></a:solidFill><a:effectLst/></p:bgPr></p:bg><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${this.shapes.join("")}</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>`;
  }
}

const lines = (text: string, size: number, width: number) => Math.max(1, Math.ceil((text.length * size * 0.55) / width));

function pptxBlock(s: SlideXml, b: Block, x: number, y: number, w: number, style: PptxStyle, accent: string): number {
  const body = 16;
  switch (b.t) {
    case "text": {
      const size = b.size === "lg" ? 22 : b.size === "sm" ? 12 : body;
      const h = lines(b.text, size, w) * size * 1.25 + 4;
      s.text(x, y, w, h, [{ text: b.text, size, bold: b.size === "lg", color: b.size === "sm" ? "6B7280" : "111827" }]);
      return h + 8;
    }
    case "bullets": {
      const h = b.items.reduce((a, i) => a + lines(i, body, w - 20) * body * 1.3, 0) + 6;
      s.text(x, y, w, h, b.items.map((i) => ({ text: `\u2022 ${i}`, size: body })));
      return h + 8;
    }
    case "people": {
      let used = 0;
      if (b.heading) {
        s.text(x, y, w, 20, [{ text: b.heading, size: 14, bold: true, color: accent }]);
        used += 24;
      }
      const cols = Math.max(1, b.columns);
      const cw = w / cols;
      const photo = b.photos ? Math.min(70, cw * 0.5) : 0;
      let rowH = 0;
      b.people.forEach((p, i) => {
        const col = i % cols;
        if (col === 0 && i > 0) (used += rowH), (rowH = 0);
        const cx = x + col * cw;
        let cy = y + used;
        if (photo) {
          s.rect(cx, cy, photo, photo, "BFBFBF", style === "pptx-boxes" ? "ellipse" : "rect");
          cy += photo + 4;
        }
        // name, role and bio in three separate text boxes
        s.text(cx, cy, cw - 8, 18, [{ text: p.name, size: 14, bold: true }], 0, "Name");
        s.text(cx, cy + 18, cw - 8, 16, [{ text: p.title, size: 12, color: accent }], 0, "Role");
        const bh = p.bio ? lines(p.bio, 10, cw - 8) * 13 : 0;
        if (p.bio) s.text(cx, cy + 35, cw - 8, bh, [{ text: p.bio, size: 10, color: "6B7280" }], 0, "Bio");
        rowH = Math.max(rowH, photo + 4 + 40 + bh);
      });
      return used + rowH + 8;
    }
    case "table": {
      let used = 0;
      if (b.title) {
        s.text(x, y, w, 20, [{ text: b.title, size: 14, bold: true, color: accent }]);
        used += 22;
      }
      if (style === "pptx-tables") return used + s.table(x, y + used, w, b.rows, 12) + 10;
      // boxes: every cell its own text box
      const cw = w / b.rows[0].length;
      b.rows.forEach((row, i) => row.forEach((c, j) => s.text(x + j * cw, y + used + i * 22, cw - 4, 20, [{ text: c, size: 12, bold: i === 0 || j === 0 }])));
      return used + b.rows.length * 22 + 10;
    }
    case "kv":
      if (style === "pptx-tables") return s.table(x, y, Math.min(w, 520), b.rows, 12) + 10;
      b.rows.forEach(([k, v], i) => {
        s.text(x, y + i * 22, 200, 20, [{ text: k, size: 13, bold: true }]);
        s.text(x + 210, y + i * 22, w - 210, 20, [{ text: v, size: 13 }]);
      });
      return b.rows.length * 22 + 10;
    case "chart": {
      const h = 150;
      s.text(x, y, w, 18, [{ text: b.title, size: 13, bold: true }]);
      const max = Math.max(...b.ys) * 1.15;
      const bw = (w - 60) / b.xs.length;
      b.yTicks.forEach((t, i) => s.text(x, y + 20 + h - (h * i) / (b.yTicks.length - 1) - 6, 50, 12, [{ text: t, size: 9, color: "6B7280" }]));
      s.text(x - 70, y + 20 + h / 2, 120, 12, [{ text: b.yLabel, size: 9, color: "6B7280" }], -90);
      b.ys.forEach((v, i) => {
        const bh = (v / max) * h;
        s.rect(x + 60 + i * bw + bw * 0.2, y + 20 + h - bh, bw * 0.6, bh, accent);
        s.text(x + 60 + i * bw, y + 20 + h - bh - 14, bw, 12, [{ text: b.labels[i], size: 9, align: "ctr" }]);
        s.text(x + 60 + i * bw, y + 24 + h, bw, 12, [{ text: b.xs[i], size: 9, align: "ctr", color: "6B7280" }]);
      });
      return h + 50;
    }
    case "quote": {
      const h = lines(b.text, 22, w) * 28;
      s.text(x + 20, y, w - 40, h, [{ text: `\u201c${b.text}\u201d`, size: 22, italic: true }]);
      s.text(x + 20, y + h + 6, w - 40, 18, [{ text: `\u2014 ${b.by}`, size: 13, color: "6B7280", align: "r" }]);
      return h + 34;
    }
    case "logos": {
      s.text(x, y, w, 16, [{ text: b.heading, size: 11, color: "6B7280" }]);
      const cw = w / b.names.length;
      b.names.forEach((n, i) => {
        s.rect(x + i * cw + 3, y + 20, cw - 6, 34, "E5E7EB");
        s.text(x + i * cw + 8, y + 28, cw - 16, 20, [{ text: n, size: 11, bold: true, color: "4B5563", align: "ctr" }]);
      });
      return 62;
    }
    case "kpis": {
      const cw = w / b.items.length;
      b.items.forEach((k, i) => {
        s.text(x + i * cw, y, cw - 10, 40, [{ text: k.value, size: 30, bold: true, color: accent }]);
        s.text(x + i * cw, y + 42, cw - 10, 18, [{ text: k.label, size: 12, color: "6B7280" }]);
      });
      return 70;
    }
  }
}

function pptxSlide(doc: DeckDoc, slide: Slide | null, n: number, total: number, style: PptxStyle, font: string, accent: string): string {
  const s = new SlideXml(font);
  const m = 48;
  if (!slide) {
    const c = doc.cover;
    if (c.logo === "none") s.rect(SW / 2 - 40, 140, 80, 80, accent, "ellipse");
    else s.text(m, 170, SW - 2 * m, 80, [{ text: c.logo === "letterspaced" ? c.name.toUpperCase().split("").join(" ") : c.name, size: 54, bold: true, align: "ctr" }], 0, "Title");
    s.text(m, 260, SW - 2 * m, 30, [{ text: c.tagline, size: 20, color: "4B5563", align: "ctr" }], 0, "Subtitle");
    c.lines.forEach((l, i) => s.text(m, 440 + i * 20, SW - 2 * m, 18, [{ text: l, size: 12, color: "6B7280", align: "ctr" }]));
    return s.xml("FFFFFF");
  }
  let x = m, w = SW - 2 * m, y = 36;
  if (style === "pptx-tables") {
    s.rect(0, 0, 40, SH, accent);
    s.text(-230, SH / 2 - 12, 500, 24, [{ text: slide.title.toUpperCase(), size: 14, bold: true, color: "FFFFFF", align: "ctr" }], -90, "Section");
    x = 70;
    w = SW - x - m;
  }
  s.text(x, y, w, 44, [{ text: slide.title, size: 32, bold: true }], 0, "Title");
  y += 60;
  const side = slide.key === "team" && style === "pptx-boxes" ? slide.blocks.filter((b) => b.t === "people" && b.heading) : [];
  let sy = y;
  for (const b of side) sy += pptxBlock(s, b.t === "people" ? { ...b, columns: 1, photos: false } : b, x + w * 0.7 + 10, sy, w * 0.3 - 10, style, accent);
  const mw = side.length ? w * 0.68 : w;
  for (const b of slide.blocks) if (!side.includes(b)) y += pptxBlock(s, b, x, y, mw, style, accent);
  if (doc.domain) s.text(m, SH - 26, 300, 14, [{ text: doc.domain, size: 9, color: "9CA3AF" }], 0, "Footer");
  s.text(SW - m - 60, SH - 26, 60, 14, [{ text: `${n}`, size: 9, color: "9CA3AF", align: "r" }], 0, "Slide Number");
  void total;
  return s.xml("FFFFFF");
}

export function renderPptx(doc: DeckDoc, style: PptxStyle, r: Rand): Uint8Array {
  const font = r.pick(["DejaVu Sans", "DejaVu Sans Condensed", "DejaVu Serif", "Liberation Sans", "Calibri"]);
  const accent = r.pick(["2563EB", "059669", "B45309", "7C3AED", "BE123C"]);
  const slides = [null, ...doc.slides];
  const files: Record<string, Uint8Array> = {};
  files["[Content_Types].xml"] = strToU8(
    `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/><Override PartName="/ppt/slideMasters/slideMaster1.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slideMaster+xml"/><Override PartName="/ppt/slideLayouts/slideLayout1.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slideLayout+xml"/><Override PartName="/ppt/theme/theme1.xml" ContentType="application/vnd.openxmlformats-officedocument.theme+xml"/>${slides.map((_, i) => `<Override PartName="/ppt/slides/slide${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slide+xml"/>`).join("")}<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>`,
  );
  files["_rels/.rels"] = strToU8(`${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="ppt/presentation.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>`);
  files["docProps/core.xml"] = strToU8(`${XML}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${esc(r.chance(0.5) ? "PowerPoint Presentation" : `${doc.cover.name} deck`)}</dc:title><dc:creator>${esc(r.pick(["Microsoft Office User", "Founder", "Keynote"]))}</dc:creator></cp:coreProperties>`);
  files["ppt/presentation.xml"] = strToU8(
    `${XML}<p:presentation xmlns:a="${NS_A}" xmlns:r="${NS_R}" xmlns:p="${NS_P}"><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst><p:sldIdLst>${slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 3}"/>`).join("")}</p:sldIdLst><p:sldSz cx="${SW * EMU}" cy="${SH * EMU}"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>`,
  );
  files["ppt/_rels/presentation.xml.rels"] = strToU8(rels([["rId1", "slideMaster", "slideMasters/slideMaster1.xml"], ["rId2", "theme", "theme/theme1.xml"], ...slides.map((_, i) => [`rId${i + 3}`, "slide", `slides/slide${i + 1}.xml`] as [string, string, string])]));
  const emptyTree = `<p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/></p:spTree></p:cSld>`;
  files["ppt/slideMasters/slideMaster1.xml"] = strToU8(`${XML}<p:sldMaster xmlns:a="${NS_A}" xmlns:r="${NS_R}" xmlns:p="${NS_P}">${emptyTree}<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/><p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst></p:sldMaster>`);
  files["ppt/slideMasters/_rels/slideMaster1.xml.rels"] = strToU8(rels([["rId1", "slideLayout", "../slideLayouts/slideLayout1.xml"], ["rId2", "theme", "../theme/theme1.xml"]]));
  files["ppt/slideLayouts/slideLayout1.xml"] = strToU8(`${XML}<p:sldLayout xmlns:a="${NS_A}" xmlns:r="${NS_R}" xmlns:p="${NS_P}" type="blank">${emptyTree}<p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>`);
  files["ppt/slideLayouts/_rels/slideLayout1.xml.rels"] = strToU8(rels([["rId1", "slideMaster", "../slideMasters/slideMaster1.xml"]]));
  files["ppt/theme/theme1.xml"] = strToU8(THEME);
  slides.forEach((slide, i) => {
    files[`ppt/slides/slide${i + 1}.xml`] = strToU8(pptxSlide(doc, slide, i + 1, slides.length, style, font, accent));
    files[`ppt/slides/_rels/slide${i + 1}.xml.rels`] = strToU8(rels([["rId1", "slideLayout", "../slideLayouts/slideLayout1.xml"]]));
  });
  return zipSync(files, { level: 6, mtime: MTIME });
}

// ---------------------------------------------------------------- DOCX
const NS_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const wr = (text: string, o: { b?: boolean; i?: boolean; sz?: number; color?: string } = {}) =>
  `<w:r><w:rPr>${o.b ? "<w:b/>" : ""}${o.i ? "<w:i/>" : ""}${o.color ? `<w:color w:val="${o.color}"/>` : ""}${o.sz ? `<w:sz w:val="${o.sz * 2}"/>` : ""}</w:rPr><w:t xml:space="preserve">${esc(text)}</w:t></w:r>`;
const wp = (runs: string, style?: string, align?: string) => `<w:p><w:pPr>${style ? `<w:pStyle w:val="${style}"/>` : ""}${align ? `<w:jc w:val="${align}"/>` : ""}</w:pPr>${runs}</w:p>`;
const cell = (content: string, width: number, shade?: string) => `<w:tc><w:tcPr><w:tcW w:w="${width}" w:type="dxa"/>${shade ? `<w:shd w:val="clear" w:color="auto" w:fill="${shade}"/>` : ""}</w:tcPr>${content}</w:tc>`;
function wtable(rows: string[][], width: number, grid = true): string {
  const cw = Math.floor(width / rows[0].length);
  const borders = grid ? `<w:tblBorders><w:top w:val="single" w:sz="4" w:color="999999"/><w:bottom w:val="single" w:sz="4" w:color="999999"/><w:insideH w:val="single" w:sz="4" w:color="999999"/><w:insideV w:val="single" w:sz="4" w:color="999999"/></w:tblBorders>` : "";
  return `<w:tbl><w:tblPr><w:tblW w:w="${width}" w:type="dxa"/>${borders}</w:tblPr><w:tblGrid>${rows[0].map(() => `<w:gridCol w:w="${cw}"/>`).join("")}</w:tblGrid>${rows.map((row, i) => `<w:tr>${row.map((c, j) => cell(wp(wr(c, { b: i === 0 || j === 0 })), cw, i === 0 && grid ? "E7E6E6" : undefined)).join("")}</w:tr>`).join("")}</w:tbl>${wp("")}`;
}

function docxBlock(b: Block, width: number, style: DocxStyle): string {
  switch (b.t) {
    case "text":
      return wp(wr(b.text, { b: b.size === "lg", sz: b.size === "lg" ? 14 : b.size === "sm" ? 9 : 11, color: b.size === "sm" ? "666666" : undefined }));
    case "bullets":
      return b.items.map((i) => wp(wr(`\u2022\t${i}`))).join("");
    case "people": {
      const head = b.heading ? wp(wr(b.heading, { b: true, color: "1F4E79" })) : "";
      if (style === "docx-memo" && !b.photos) return head + b.people.map((p) => wp(wr(p.name, { b: true }) + wr(` \u2013 ${p.title}${p.bio ? `. ${p.bio}` : ""}`))).join("");
      const cols = Math.min(3, Math.max(1, b.columns));
      const rows: string[] = [];
      for (let i = 0; i < b.people.length; i += cols) {
        const chunk = b.people.slice(i, i + cols);
        while (chunk.length < cols) chunk.push({ name: "", title: "", bio: "" });
        rows.push(`<w:tr>${chunk.map((p) => cell(p.name ? wp(wr("[photo]", { color: "AAAAAA", sz: 8 })) + wp(wr(p.name, { b: true })) + wp(wr(p.title, { i: true })) + (p.bio ? wp(wr(p.bio, { sz: 9, color: "666666" })) : "") : wp(""), Math.floor(width / cols))).join("")}</w:tr>`);
      }
      return `${head}<w:tbl><w:tblPr><w:tblW w:w="${width}" w:type="dxa"/></w:tblPr><w:tblGrid>${Array.from({ length: cols }, () => `<w:gridCol w:w="${Math.floor(width / cols)}"/>`).join("")}</w:tblGrid>${rows.join("")}</w:tbl>${wp("")}`;
    }
    case "table":
      return (b.title ? wp(wr(b.title, { b: true })) : "") + wtable(b.rows, width);
    case "kv":
      return wtable(b.rows, Math.min(width, 7000), style === "docx-slides");
    case "chart":
      return wp(wr(b.title, { b: true })) + wtable([["", ...b.xs], [b.yLabel, ...b.labels]], width);
    case "quote":
      return wp(wr(`\u201c${b.text}\u201d`, { i: true, sz: 13 })) + wp(wr(`\u2014 ${b.by}`, { color: "666666" }), undefined, "right");
    case "logos":
      return wp(wr(`${b.heading}: `, { b: true }) + wr(b.names.join("   |   ")));
    case "kpis":
      return wtable([b.items.map((k) => k.value), b.items.map((k) => k.label)], width, false);
  }
}

export function renderDocx(doc: DeckDoc, style: DocxStyle, r: Rand): Uint8Array {
  const landscape = style === "docx-slides";
  const [pw, ph] = landscape ? [16838, 11906] : [11906, 16838];
  const width = pw - 2 * 1200;
  const c = doc.cover;
  const brk = `<w:p><w:r><w:br w:type="page"/></w:r></w:p>`;
  const cover = [c.logo === "none" ? wp(wr("[logo]", { color: "AAAAAA" }), undefined, "center") : wp(wr(c.logo === "letterspaced" ? c.name.toUpperCase().split("").join(" ") : c.name), "Title", landscape ? "center" : undefined), wp(wr(c.tagline, { sz: 14, color: "555555" }), undefined, landscape ? "center" : undefined), ...c.lines.map((l) => wp(wr(l, { sz: 10, color: "777777" }), undefined, landscape ? "center" : undefined))].join("");
  const parts = [cover, landscape ? brk : wp("")];
  doc.slides.forEach((s, i) => {
    parts.push(wp(wr(style === "docx-memo" ? `${i + 1}. ${s.title}` : s.title), "Heading1"));
    for (const b of s.blocks) parts.push(docxBlock(b, width, style));
    if (landscape && i < doc.slides.length - 1) parts.push(brk);
  });
  const sect = `<w:sectPr><w:footerReference w:type="default" r:id="rId2"/><w:pgSz w:w="${pw}" w:h="${ph}"${landscape ? ' w:orient="landscape"' : ""}/><w:pgMar w:top="1000" w:right="1200" w:bottom="1000" w:left="1200" w:header="500" w:footer="500" w:gutter="0"/></w:sectPr>`;
  const font = r.pick(["DejaVu Serif", "DejaVu Sans", "Liberation Serif", "Cambria"]);
  const files: Record<string, Uint8Array> = {
    "[Content_Types].xml": strToU8(`${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/><Override PartName="/word/footer1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml"/></Types>`),
    "_rels/.rels": strToU8(`${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`),
    "word/_rels/document.xml.rels": strToU8(rels([["rId1", "styles", "styles.xml"], ["rId2", "footer", "footer1.xml"]])),
    "word/styles.xml": strToU8(
      `${XML}<w:styles xmlns:w="${NS_W}"><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="${font}" w:hAnsi="${font}" w:cs="${font}"/><w:sz w:val="22"/></w:rPr></w:rPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:pPr><w:spacing w:after="120"/></w:pPr></w:style><w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/><w:rPr><w:b/><w:sz w:val="64"/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:keepNext/><w:spacing w:before="240"/><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:color w:val="1F4E79"/><w:sz w:val="${landscape ? 48 : 28}"/></w:rPr></w:style></w:styles>`,
    ),
    "word/footer1.xml": strToU8(`${XML}<w:ftr xmlns:w="${NS_W}"><w:p><w:pPr><w:jc w:val="right"/></w:pPr>${doc.domain ? wr(`${doc.domain}    `, { sz: 8, color: "888888" }) : ""}<w:r><w:rPr><w:sz w:val="16"/></w:rPr><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>1</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p></w:ftr>`),
    "word/document.xml": strToU8(`${XML}<w:document xmlns:w="${NS_W}" xmlns:r="${NS_R}"><w:body>${parts.join("")}${sect}</w:body></w:document>`),
  };
  return zipSync(files, { level: 6, mtime: MTIME });
}
