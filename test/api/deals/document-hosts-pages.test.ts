// Document links of the page hosts (Notion, Figma, Pitch, DocSend without an email gate) under
// their real names against loopback imitations of their public pages, private networks NOT
// allowed: what a public link gives is analysed; what it cannot give fails saying why.
import { afterEach, describe, expect, test } from "bun:test";
import { analyseAll, documentHostApp, NOTION_BROKEN, NOTION_PRIVATE, NOTION_PUBLIC, type DocumentHostApp } from "../../helpers/document-hosts.ts";

let h: DocumentHostApp;
afterEach(() => h?.close());


const sectionsOf = async (id: string) => Object.fromEntries((await h.deal(id)).analysis!.sections.map((s) => [s.key, s]));

describe("Notion", () => {
  test("a public page (notion.so or notion.site) is read block by block through Notion's public page API", async () => {
    h = await documentHostApp(["notion"]);
    const [so, site] = await analyseAll(h, [`https://www.notion.so/acme/Ledgerly-investor-memo-${NOTION_PUBLIC}`, `https://acme.notion.site/Ledgerly-memo-${NOTION_PUBLIC}?pvs=4`]);
    for (const run of [so, site]) {
      expect(run.status).toBe("succeeded");
      const sections = await sectionsOf(run.id);
      // Nested blocks (a toggle's list items, rich text split by bold) are read in order.
      expect(sections.team.evidence[0].quote).toContain("Sam Founder, Co-founder & CEO: previously led payouts at Stripe");
      expect(sections.traction.evidence[0].quote).toContain("ARR $1.2M");
      expect((await h.deal(run.id)).round).toMatchObject({ amount: 4_000_000 });
    }
    expect(h.world.hits).toContain("www.notion.so /api/v3/loadPageChunk");
    expect(h.world.hits).toContain("acme.notion.site /api/v3/loadPageChunk");
  });

  test("a page not shared to the web, one the API will not give, and a link without a page id fail precisely", async () => {
    h = await documentHostApp(["notion"]);
    const [priv, broken, noId] = await analyseAll(h, [
      `https://www.notion.so/acme/Secret-${NOTION_PRIVATE}`,
      `https://www.notion.so/acme/Odd-${NOTION_BROKEN}`,
      "https://www.notion.so/acme/Just-a-title",
    ]);
    expect(priv.error).toBe(
      "Notion: the page is not shared to the web (Notion's public page API gives no content for it); share it to the web or export it as PDF and upload it",
    );
    expect(broken.error).toBe(
      "Notion: the page is drawn by JavaScript and Notion's public page API gave no content (HTTP 400), so its text could not be read; export it as PDF from Notion and upload it",
    );
    expect(noId.error).toBe("Notion: the link does not name a Notion page (no page id in it)");
  });
});

describe("Figma", () => {
  test("a public file fails saying Figma needs an API token for export; a private one says it is not shared", async () => {
    h = await documentHostApp(["figma"]);
    const [pub, deck, priv, missing] = await analyseAll(h, [
      "https://www.figma.com/file/KEYPUB123/Ledgerly-deck?node-id=0-1",
      "https://www.figma.com/deck/KEYPUB123/Ledgerly",
      "https://www.figma.com/design/KEYPRIV456/Secret",
      "https://www.figma.com/file/NOPE789/Gone",
    ]);
    const token =
      "Figma: a Figma file can only be exported through Figma's API with an access token, which this server does not have (the public link shows the file only in Figma's browser app); export it as PDF from Figma and upload it";
    expect(pub).toMatchObject({ status: "failed", error: token });
    expect(deck.error).toBe(token);
    expect(priv.error).toBe("Figma: the link is not shared publicly (it leads to a sign-in page); share it so that anyone with the link can view it, or upload the file");
    expect(missing.error).toBe("Figma says the link does not exist (HTTP 404)");
  });
});

describe("Pitch", () => {
  test("a presentation whose page carries its slide text is analysed; a page drawn only by JavaScript fails saying so", async () => {
    h = await documentHostApp(["pitch"]);
    const [ssr, jsOnly, priv] = await analyseAll(h, ["https://pitch.com/v/ledgerly-seed-ab12cd", "https://pitch.com/v/js-only-ef34gh", "https://pitch.com/v/private-deck"]);
    expect(ssr.status).toBe("succeeded");
    const sections = await sectionsOf(ssr.id);
    expect(sections.market.evidence[0]).toMatchObject({ url: "https://pitch.com/v/ledgerly-seed-ab12cd", quote: expect.stringContaining("$12B TAM") });
    expect(jsOnly.error).toBe("Pitch: the presentation page draws its slides in the browser and its HTML holds no slide text; export it as PDF from Pitch and upload it");
    expect(priv.error).toMatch(/^Pitch: the link is not shared publicly \(it leads to a sign-in page\)/);
  });
});

describe("DocSend without an email gate", () => {
  test("a passcode-only link: the password is submitted with the form's token and session cookie, then the viewer's download is read", async () => {
    h = await documentHostApp(["docsend"]);
    const ok = await h.analyze({ document_url: "https://docsend.com/view/dpass", company_name: "Ledgerly", document_password: "opensesame" });
    const wrong = await h.analyze({ document_url: "https://docsend.com/view/dpass", company_name: "Wrong", document_password: "guess" });
    const none = await h.analyze({ document_url: "https://docsend.com/view/dpass", company_name: "None" });
    expect(ok.json.email_verification_required).toBe(false);
    await h.run();
    expect((await h.status(ok.json.deal_id)).status).toBe("succeeded");
    expect(await h.documents(ok.json.deal_id)).toMatchObject([{ filename: "Ledgerly deck.pdf", page_count: 5 }]);
    expect((await h.status(wrong.json.deal_id)).error).toBe("DocSend refused the password given in document_password");
    expect((await h.status(none.json.deal_id)).error).toBe("DocSend asks for a password before showing the document: resubmit with document_password");
    expect(h.world.mails).toEqual([]);
  });

  test("an email-gated link submitted without document_email fails asking for it", async () => {
    h = await documentHostApp(["docsend"]);
    const [run] = await analyseAll(h, ["https://docsend.com/view/demail"]);
    expect(run.error).toBe("DocSend asks for an email address before showing the document: resubmit with document_email (and document_password if it has one)");
  });
});
