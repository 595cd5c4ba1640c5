// A research report's Markdown as HTML, with `marked`. The report quotes documents and websites
// (hostile input), so raw HTML in it is shown as text, never rendered; links go out only to http(s)
// and mailto addresses (anything else stays text); images are not loaded (their alt text shows);
// and each citation marker [n] of a known citation links to that citation's entry on the page.
import { Marked, type Tokens } from "marked";
import { escapeHtml, raw, type Html } from "./html.ts";

const SAFE_LINK = /^(https?:|mailto:)/i;

type CiteToken = Tokens.Generic & { n: number };

function markedFor(citations: Set<number>): Marked {
  return new Marked({
    gfm: true,
    async: false,
    renderer: {
      html: ({ text }) => escapeHtml(text),
      link(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, { href, title, tokens }: Tokens.Link) {
        const inner = this.parser.parseInline(tokens);
        if (!SAFE_LINK.test(href.trim())) return inner;
        return `<a href="${escapeHtml(href.trim())}"${title ? ` title="${escapeHtml(title)}"` : ""} target="_blank" rel="noopener noreferrer nofollow">${inner}</a>`;
      },
      image: ({ text }) => `<span class="muted">[image: ${escapeHtml(text)}]</span>`,
    },
    extensions: [
      {
        name: "cite",
        level: "inline",
        start: (src: string) => src.match(/\[\d{1,4}\]/)?.index,
        tokenizer(src: string): CiteToken | undefined {
          const m = /^\[(\d{1,4})\](?![[(:])/.exec(src);
          if (!m || !citations.has(Number(m[1]))) return undefined;
          return { type: "cite", raw: m[0], n: Number(m[1]) };
        },
        renderer: (token) => `<a class="cite" href="#cite-${(token as CiteToken).n}">[${(token as CiteToken).n}]</a>`,
      },
    ],
  });
}

export function renderMarkdown(markdown: string, citationNumbers: number[] = []): Html {
  return raw(markedFor(new Set(citationNumbers)).parse(markdown, { async: false }) as string);
}
