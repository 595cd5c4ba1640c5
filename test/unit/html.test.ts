// The web app's template helper: every interpolated value is escaped unless it is markup the
// code made with `html` itself.
import { describe, expect, test } from "bun:test";
import { escapeHtml, html, join, raw, toString } from "../../src/modules/web/html.ts";

describe("html", () => {
  test("escapes every interpolated value, in text and in attributes", () => {
    const name = `<script>alert('x')</script>" onmouseover="y` + "`";
    const out = toString(html`<p title="${name}">${name}</p>`);
    expect(out).toBe(
      `<p title="&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot; onmouseover=&quot;y&#96;">&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot; onmouseover=&quot;y&#96;</p>`,
    );
    expect(escapeHtml("a & b")).toBe("a &amp; b");
  });

  test("nests fragments without escaping them twice; arrays join; null, undefined and false vanish", () => {
    const items = ["<a>", "b&c"].map((s) => html`<li>${s}</li>`);
    expect(toString(html`<ul>${items}</ul>${null}${undefined}${false}${0}`)).toBe("<ul><li>&lt;a&gt;</li><li>b&amp;c</li></ul>0");
    expect(toString(join(["<x>", html`<b>y</b>`], ", "))).toBe("&lt;x&gt;, <b>y</b>");
    expect(toString(raw("<br>"))).toBe("<br>");
  });

  test("an object that only looks like a fragment is escaped", () => {
    const forged = { text: "<script>", toString: () => "<script>" };
    expect(toString(html`${forged}`)).toBe("&lt;script&gt;");
  });
});
