// The linear HTML tokenizer that every page from the internet is read with (gates, page text,
// links, embedded JSON, Office XML): what a browser would see, including the markup a hostile page
// leaves unfinished.
import { describe, expect, test } from "bun:test";
import { decodeEntities, htmlAnchors, htmlForms, htmlTokens } from "../../src/documents/html-scan.ts";
import { findGateForm, gateTargetAllowed, looksGated } from "../../src/documents/hosts.gates.ts";
import { embeddedText } from "../../src/documents/hosts.pages.ts";
import { recognizeHost } from "../../src/documents/hosts.ts";
import { htmlTitle, htmlToText, interestingLinks } from "../../src/documents/html-text.ts";

const tags = (html: string) => [...htmlTokens(html)].filter((t) => t.kind === "tag").map((t) => (t.kind === "tag" ? `${t.closing ? "/" : ""}${t.name}` : ""));

describe("tokens", () => {
  test("attributes in every quoting, names lower-cased, the first of a repeated name kept, values entity-decoded", () => {
    const [tag] = [...htmlTokens(`<INPUT Type=Password name="a&amp;b" value='x > y' disabled name="second">`)];
    expect(tag).toEqual({ kind: "tag", name: "input", closing: false, selfClosing: false, attrs: Object.assign(Object.create(null), { type: "Password", name: "a&b", value: "x > y", disabled: "" }) });
  });

  test("comments, doctype and a less-than sign in text are not tags; script content is raw text", () => {
    expect(tags(`<!doctype html><!-- <form> --><p>a < b</p><script>if (a<b) document.write("<form>")</script><br/>`)).toEqual(["p", "/p", "script", "/script", "br"]);
    const raw = [...htmlTokens("<script>x<y</script>")].find((t) => t.kind === "raw");
    expect(raw).toEqual({ kind: "raw", name: "script", text: "x<y" });
  });

  test("character references as a browser reads them: every named one, numeric ones, the legacy forms without ';'", () => {
    expect(htmlToText(`<p>Z&uuml;rich &eacute;t&eacute; &copy 2026 &#x1F600; &bogus; &amp;amp;</p>`)).toBe("Zürich été © 2026 😀 &bogus; &amp;.");
    expect(htmlTitle("<title>Caf&eacute; &amp; Co</title>")).toBe("Café & Co");
    // In an attribute value a legacy reference before "=" or a letter is a URL's parameter, not a character.
    expect([...htmlAnchors('<a href="/x?a=1&copy=2&amp;b=3&not;">x</a>')]).toEqual([{ href: "/x?a=1&copy=2&b=3¬", label: "x" }]);
    // A "<" in decoded text is text, not markup.
    expect(decodeEntities("a < b &lt; c <p>&AMP;")).toBe("a < b < c <p>&");
  });

  test("a tag, quoted value or comment the input ends inside is dropped with everything after it", () => {
    expect(tags(`<p>ok</p><input a=b <input c=d`)).toEqual(["p", "/p"]);
    expect(tags(`<p>ok</p><a href="never closed>text`)).toEqual(["p", "/p"]);
    expect(tags(`<p>ok</p><!-- open comment <form>`)).toEqual(["p", "/p"]);
  });
});

describe("forms and links", () => {
  test("a form start inside an open form is ignored (as browsers do); an unclosed form keeps its inputs", () => {
    const forms = [...htmlForms(`<form action="/a"><input name="x"><form action="/b"><input name="y"></form><form action="/c"><input name="z">`)];
    expect(forms.map((f) => [f.attrs.action, f.inputs.map((i) => i.name)])).toEqual([
      ["/a", ["x", "y"]],
      ["/c", ["z"]],
    ]);
  });

  test("anchors with their label text; a new anchor closes the one before it", () => {
    expect([...htmlAnchors(`<a href="/team">Our <b>team</b></a><a href='/x?a=1&amp;b=2'>one<a href="/y">two</a>`)]).toEqual([
      { href: "/team", label: "Our team" },
      { href: "/x?a=1&b=2", label: "one" },
      { href: "/y", label: "two" },
    ]);
  });

  test("gate checks read the page's first 512 KB: a password field there is found, one after it is not", () => {
    const padding = "<p>filler</p>".repeat(60_000); // ~780 KB
    expect(looksGated(`<input type="password" name="pw">${padding}`)).toBe("password");
    expect(looksGated(`${padding}<input type="password" name="pw">`)).toBeNull();
    expect(findGateForm(`<form method=post action="/gate"><input type=hidden name=t value=1><input type=email name=e></form>`, new URL("https://docsend.com/view/x"))).toEqual({
      action: new URL("https://docsend.com/gate"),
      method: "POST",
      fields: [["t", "1"]],
      emailField: "e",
      passwordField: null,
    });
  });

  test("a gate's form may post only to the link's own host family (or, for an unknown host, its own host name)", () => {
    const docsend = recognizeHost("https://docsend.com/view/abc");
    expect(gateTargetAllowed(new URL("https://docsend.com/view/abc/gate"), docsend)).toBe(true);
    expect(gateTargetAllowed(new URL("https://evil.example/steal"), docsend)).toBe(false);
    const other = recognizeHost("https://files.example.net/deck");
    expect(gateTargetAllowed(new URL("https://files.example.net/unlock"), other)).toBe(true);
    expect(gateTargetAllowed(new URL("https://cdn.example.net/unlock"), other)).toBe(false);
    expect(gateTargetAllowed(new URL("javascript:alert(1)"), other)).toBe(false);
  });
});

describe("page text", () => {
  test("scripts, styles, svg, nav and footer dropped; blocks end sentences; entities decoded; a nested nav ends at its own end", () => {
    const html = `<html><head><title>Ledgerly &amp; Co</title><style>p{}</style></head><body><nav>Home <nav>Sub</nav> About</nav>
      <h1>Ledgerly</h1><p>Payroll APIs for Europe</p><svg><text>chart</text></svg><p>ARR&nbsp;$1.2M</p><footer>© 2026</footer></body></html>`;
    expect(htmlToText(html)).toBe("Ledgerly & Co Ledgerly. Payroll APIs for Europe. ARR $1.2M.");
    expect(htmlTitle(html)).toBe("Ledgerly & Co");
  });

  test("same-site links about the company, by path or label", () => {
    const links = interestingLinks(`<a href="/about-us">About</a><a href="https://other.com/team">Team</a><a href="/blog/x">Meet the founders</a><a href="#top">Team</a>`, new URL("https://www.ledgerly.io/"));
    expect(links.map((u) => u.href)).toEqual(["https://www.ledgerly.io/about-us", "https://www.ledgerly.io/blog/x"]);
  });
});

describe("pages built to be slow to read", () => {
  // Each is 2 MB (pages may be 5 MB): deep nesting, stray end tags, one tag of half a million
  // attributes, floods of references and less-than signs. A reader that kept an element stack and
  // searched it per end tag (htmlparser2's Parser) takes many seconds on some of these; read in one
  // pass, each finishes in well under one (scripts/bench/html-scan.ts measures them at 1 and 5 MB).
  const MB2 = 2 * 1024 * 1024;
  const fill = (unit: string) => unit.repeat(Math.floor(MB2 / unit.length));
  const pages: [name: string, html: string, text: (read: string) => void][] = [
    ["nested divs with text", fill("<div>x"), (read) => expect(read).toBe(Array(Math.floor(MB2 / 6)).fill("x").join(" "))],
    ["nested divs, then stray end tags", `${"<div>".repeat(MB2 / 10)}${"</span>".repeat(MB2 / 14)}`, (read) => expect(read).toBe("")],
    ["nested svg (dropped) then text", `<svg>${fill("<g>")}</svg><p>after</p>`, (read) => expect(read).toBe("after.")],
    ["nested anchors", fill('<a href="/team">t'), (read) => expect(read).toStartWith("t t t")],
    ["one tag of half a million attributes", `<p ${fill("a=b ")}>end</p>`, (read) => expect(read).toBe("end.")],
    ["references and less-thans", fill("&amp;&#x1F600;&bogus;& < "), (read) => expect(read).toStartWith("&😀&bogus;& < &😀")],
  ];
  for (const [name, html, text] of pages) {
    test(`${name}: every reader gets to the end`, () => {
      text(htmlToText(html));
      expect(looksGated(html)).toBeNull();
      expect([...htmlForms(html)]).toEqual([]);
      expect(embeddedText(html)).toBe("");
      const anchors = [...htmlAnchors(html)];
      if (name === "nested anchors") expect(anchors).toHaveLength(Math.floor(MB2 / 17));
      else expect(anchors).toEqual([]);
    }, 60_000);
  }
});
