// How fast pages from the internet are read (src/documents/html-scan.ts, html-text.ts and the
// readers on them), against a bare htmlparser2 parse of the same bytes in the same run:
//   1. bare: htmlparser2's Parser with no handlers (what the library's tree-aware API costs at the
//      least); and its Tokenizer with no-op callbacks and entity decoding off (the floor of any
//      reader built on htmlparser2: no element stack, no strings made).
//   2. tokens: every token of the page (tags with attributes, text, raw text).
//   3. page text, links, gate checks and embedded JSON: what a website or document-host run does.
//   4. Office XML: the text of a large DOCX (word/document.xml of about 5 MB).
//   5. hostile pages at 1 MB and 5 MB (the page cap): seconds to read each, to show the reading is
//      linear (the regular expressions once used took minutes on some of these).
// The pages are generated to look like real ones: a company site with navigation, inline scripts,
// a `__NEXT_DATA__` JSON blob, entities, lists and a footer; a document host's viewer page with a
// gate form. Alternating rounds; the median round is reported.
//
//   bun scripts/bench/html-scan.ts [--mb 10] [--rounds 5]
import { zipSync } from "fflate";
import { Parser, Tokenizer, type TokenizerCallbacks } from "htmlparser2";
import { parseArgs } from "node:util";
import { htmlAnchors, htmlForms, htmlTokens } from "../../src/documents/html-scan.ts";
import { htmlTitle, htmlToText, interestingLinks } from "../../src/documents/html-text.ts";
import { findGateForm, looksGated } from "../../src/documents/hosts.gates.ts";
import { embeddedText } from "../../src/documents/hosts.pages.ts";
import { docxPages } from "../../src/documents/office-text.ts";
import { rng } from "../../src/demo/rng.ts";

const { values: opts } = parseArgs({ options: { mb: { type: "string", default: "10" }, rounds: { type: "string", default: "5" } } });
const TARGET_BYTES = Number(opts.mb) * 1e6;
const ROUNDS = Number(opts.rounds);
const PAGE_CAP = 5 * 1024 * 1024;

const r = rng(11);
const WORDS = "payroll platform europe teams compliance customers revenue growth founders engineers series seed investors pricing contractors invoices ledger api global hiring".split(" ");
const sentence = (n: number) => Array.from({ length: n }, () => r.pick(WORDS)).join(" ");

function companyPage(sections: number): string {
  const nav = Array.from({ length: 20 }, (_, i) => `<li><a href="/${r.pick(["about", "team", "pricing", "blog", "careers"])}-${i}" class="nav-link">${r.pick(["About", "Team", "Pricing", "Blog", "Careers"])}</a></li>`).join("");
  const data = JSON.stringify({ props: { pageProps: { blocks: Array.from({ length: 60 }, () => ({ type: "paragraph", text: sentence(14), meta: { id: r.int(1, 1e6) } })) } } });
  const body = Array.from({ length: sections }, (_, i) =>
    [
      `<section id="s${i}" class="section section--${i % 3}" data-track='{"id":${i}}'>`,
      `<h2 class="title">${sentence(4)} &amp; ${sentence(2)}</h2>`,
      `<p>${sentence(30)}&nbsp;&mdash; we&rsquo;re ${sentence(10)}.</p>`,
      `<ul>${Array.from({ length: 5 }, () => `<li><strong>${sentence(2)}</strong> ${sentence(8)}</li>`).join("")}</ul>`,
      `<img src="/img/${i}.png" alt="${sentence(3)}" loading="lazy" width="640" height="480">`,
      `<p>Read <a href="https://blog.example.com/post/${i}?utm_source=site&amp;utm_medium=web">${sentence(3)}</a> or <a href="/team#${i}">meet the founders</a>.</p>`,
      `</section>`,
    ].join("\n"),
  );
  return [
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ledgerly &amp; Co &mdash; ${sentence(3)}</title>`,
    `<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="/app.css">`,
    `<style>.section{margin:0 auto;max-width:72rem}.title{font-size:2rem}a:hover{color:#333}</style>`,
    `<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}if(a<b&&c>d){gtag("js",new Date())}</script>`,
    `</head><body><header><nav><ul>${nav}</ul></nav></header><main>`,
    ...body,
    `</main><footer><p>&copy; 2026 Ledgerly</p><nav>${nav}</nav></footer>`,
    `<script id="__NEXT_DATA__" type="application/json">${data}</script></body></html>`,
  ].join("\n");
}

function viewerPage(): string {
  return `<!doctype html><html><head><title>Deck &ndash; DocSend</title><script src="/v.js"></script></head><body>
<div class="viewer"><h1>Ledgerly Series A deck</h1><p>${sentence(20)}</p>
<form method="post" action="/view/abc/auth" class="gate"><input type="hidden" name="authenticity_token" value="${"x".repeat(40)}">
<input type="email" name="link_auth_form[email]" placeholder="Enter your email"><input type="checkbox" name="remember" checked>
<button type="submit">Continue</button></form>${Array.from({ length: 40 }, () => `<div class="page"><img src="/p.png" alt=""><span>${sentence(12)}</span></div>`).join("")}</div></body></html>`;
}

// The corpus: site pages of 40 KB to 2 MB and viewer pages, about --mb in all.
const pages: string[] = [];
let total = 0;
for (let i = 0; total < TARGET_BYTES; i++) {
  const page = i % 5 === 4 ? viewerPage() : companyPage(i % 10 === 0 ? 1500 : 15 + (i % 7) * 10);
  pages.push(page);
  total += page.length;
}

const ignore = () => {};
const noCallbacks = Object.fromEntries(
  ["onattribdata", "onattribentity", "onattribend", "onattribname", "oncdata", "onclosetag", "oncomment", "ondeclaration", "onend", "onopentagend", "onopentagname", "onprocessinginstruction", "onselfclosingtag", "ontext", "ontextentity"].map((k) => [k, ignore]),
) as unknown as TokenizerCallbacks;
const readers: Record<string, (html: string) => unknown> = {
  bare: (html) => new Parser({}).end(html),
  "bare tokenizer": (html) => {
    const tokenizer = new Tokenizer({ decodeEntities: false }, noCallbacks);
    tokenizer.write(html);
    tokenizer.end();
  },
  tokens: (html) => {
    let n = 0;
    for (const _ of htmlTokens(html)) n++;
    return n;
  },
  "page text": (html) => [htmlTitle(html), htmlToText(html)],
  links: (html) => [interestingLinks(html, new URL("https://ledgerly.example/")), [...htmlAnchors(html)].length],
  "gate checks": (html) => [looksGated(html), findGateForm(html, new URL("https://docsend.com/view/abc"))],
  "embedded JSON": (html) => embeddedText(html),
};
const times: Record<string, number[]> = Object.fromEntries(Object.keys(readers).map((k) => [k, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, read] of Object.entries(readers)) {
    const started = performance.now();
    for (const page of pages) read(page);
    times[name].push(performance.now() - started);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mbps = (bytes: number, ms: number) => (bytes / 1e6 / (ms / 1000)).toFixed(1);
console.log(`sample: ${pages.length} pages, ${(total / 1e6).toFixed(1)} MB (chars); median of ${ROUNDS} alternating rounds`);
const bare = median(times.bare);
for (const name of Object.keys(readers)) {
  const ms = median(times[name]);
  console.log(`${name.padEnd(14)} ${mbps(total, ms).padStart(7)} MB/s  ${ms.toFixed(0).padStart(6)} ms  ${(bare / ms).toFixed(2)}x bare speed`);
}

// Office XML: a DOCX whose document.xml is about 5 MB of paragraphs, runs and properties.
const paragraphsXml = Array.from({ length: 20_000 }, (_, i) => `<w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr><w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">${sentence(12)} &amp; ${i}</w:t></w:r><w:r><w:tab/><w:t>${sentence(6)}</w:t></w:r></w:p>`).join("");
const documentXml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraphsXml}</w:body></w:document>`;
const docx = zipSync({ "word/document.xml": new TextEncoder().encode(documentXml), "[Content_Types].xml": new TextEncoder().encode("<Types/>") });
const xmlTimes = { bare: [] as number[], docx: [] as number[] };
for (let round = 0; round < ROUNDS; round++) {
  let started = performance.now();
  new Parser({}, { xmlMode: true }).end(documentXml);
  xmlTimes.bare.push(performance.now() - started);
  started = performance.now();
  docxPages(docx);
  xmlTimes.docx.push(performance.now() - started);
}
const xmlBare = median(xmlTimes.bare);
console.log(`Office XML: word/document.xml of ${(documentXml.length / 1e6).toFixed(1)} MB`);
console.log(`bare (xmlMode) ${mbps(documentXml.length, xmlBare).padStart(7)} MB/s  ${xmlBare.toFixed(0).padStart(6)} ms`);
console.log(`docx text      ${mbps(documentXml.length, median(xmlTimes.docx)).padStart(7)} MB/s  ${median(xmlTimes.docx).toFixed(0).padStart(6)} ms  ${(xmlBare / median(xmlTimes.docx)).toFixed(2)}x bare speed (unzip included)`);

// Hostile pages at the page cap, and at a fifth of it: each read by everything a run reads a page
// with. Linear reading takes about five times as long for five times the page. (htmlparser2's
// Parser, which keeps an element stack, is not linear on some of these: see html-scan.ts.)
const hostile: Record<string, (bytes: number) => string> = {
  "unclosed inputs": (n) => "<input a=b ".repeat(n / 11),
  "unclosed forms": (n) => `<form><input type=password name=p>${"<form><input ".repeat(n / 13)}`,
  "nested divs": (n) => "<div>".repeat(n / 5),
  "divs, stray ends": (n) => `${"<div>".repeat(n / 10)}${"</x>".repeat(n / 8)}`,
  "nested svg": (n) => `<svg>${"<g>".repeat(n / 6)}${"</foreignobject>".repeat(n / 32)}`,
  "nested anchors": (n) => '<a href="/team">'.repeat(n / 16),
  "one huge tag": (n) => `<p ${"a=b ".repeat(n / 4)}>`,
  "less-thans": (n) => "a < b ".repeat(n / 6),
  entities: (n) => "&amp;&#x1F600;&bogus;&".repeat(n / 22),
  "unclosed comment": (n) => `<p>x</p><!--${"<p>".repeat(n / 3)}`,
  "script never ends": (n) => `<script>${"</scrip ".repeat(n / 8)}`,
};
const readAll = (html: string) => {
  const started = performance.now();
  htmlToText(html);
  interestingLinks(html, new URL("https://ledgerly.example/"));
  looksGated(html);
  for (const _ of htmlForms(html));
  embeddedText(html);
  return (performance.now() - started) / 1000;
};
console.log(`hostile pages (text, links, gates, forms, embedded JSON), seconds at 1 MB and at ${(PAGE_CAP / 1e6).toFixed(1)} MB:`);
for (const [name, make] of Object.entries(hostile)) {
  const small = readAll(make(Math.floor(PAGE_CAP / 5)));
  const big = readAll(make(PAGE_CAP));
  console.log(`  ${name.padEnd(18)} ${small.toFixed(2).padStart(6)} s ${big.toFixed(2).padStart(6)} s  (x${(big / small).toFixed(1)})`);
}
