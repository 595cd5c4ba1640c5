// Readable text and same-site links out of an HTML page, without a browser: scripts, styles and
// navigation chrome dropped, block elements turned into sentence breaks, entities decoded.

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", mdash: "—", ndash: "–", hellip: "…", rsquo: "’", lsquo: "‘", rdquo: "”", ldquo: "“", euro: "€", pound: "£", copy: "©" };

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === "#") {
      const code = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

export function htmlTitle(html: string): string | null {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  return m ? decodeEntities(m[1]).replace(/\s+/g, " ").trim() || null : null;
}

export function htmlToText(html: string): string {
  return decodeEntities(
    html
      .replace(/<!--[\s\S]*?-->/g, " ")
      .replace(/<(script|style|noscript|svg|template|iframe)\b[\s\S]*?<\/\1>/gi, " ")
      .replace(/<(nav|footer)\b[\s\S]*?<\/\1>/gi, " ")
      .replace(/<(br|\/p|\/div|\/li|\/h[1-6]|\/section|\/article|\/tr|\/header)\b[^>]*>/gi, ". ")
      .replace(/<[^>]+>/g, " "),
  )
    .replace(/\s+([.,;:!?])/g, "$1")
    .replace(/(\.\s*){2,}/g, ". ")
    .replace(/\s+/g, " ")
    .replace(/^[.\s]+/, "")
    .trim();
}

const INTERESTING = /\b(about|team|company|founders?|people|pricing|plans|product|customers|careers|investors?)\b/i;

/** Same-site links whose path or label suggests about/team/pricing pages, best first, at most `max`. */
export function interestingLinks(html: string, base: URL, max = 4): URL[] {
  const out: URL[] = [];
  const seen = new Set<string>([base.pathname.replace(/\/$/, "")]);
  for (const m of html.matchAll(/<a\b[^>]*href\s*=\s*["']([^"'#]+)["'][^>]*>([\s\S]*?)<\/a>/gi)) {
    let url: URL;
    try {
      url = new URL(decodeEntities(m[1]), base);
    } catch {
      continue;
    }
    const sameSite = url.hostname.replace(/^www\./, "") === base.hostname.replace(/^www\./, "");
    const key = url.pathname.replace(/\/$/, "");
    if (!sameSite || !/^https?:$/.test(url.protocol) || seen.has(key)) continue;
    if (!INTERESTING.test(url.pathname) && !INTERESTING.test(m[2].replace(/<[^>]+>/g, ""))) continue;
    seen.add(key);
    url.hash = "";
    out.push(url);
    if (out.length >= max) break;
  }
  return out;
}
