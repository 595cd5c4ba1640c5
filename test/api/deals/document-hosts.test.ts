// Document links of the file hosts (Google Docs/Slides/Drive, Dropbox, OneDrive, Box), submitted
// under their real names against loopback servers that behave like those hosts' public links,
// with private networks NOT allowed (safe-fetch checks every hop as in production). Each link
// ends in a succeeded analysis of the document's text, or a failed run naming host and reason.
import { afterEach, describe, expect, test } from "bun:test";
import { analyseAll, documentHostApp, type DocumentHostApp } from "../../helpers/document-hosts.ts";

let h: DocumentHostApp;
afterEach(() => h?.close());


async function expectDeckAnalysed(dealId: string, filename: string) {
  expect((await h.status(dealId)).status).toBe("succeeded");
  expect(await h.documents(dealId)).toMatchObject([{ filename, content_type: "application/pdf", page_count: 5, status: "extracted", kind: "primary_upload" }]);
  const deal = await h.deal(dealId);
  expect(deal).toMatchObject({ source: "document", round: { amount: 4_000_000, currency: "USD" } });
  expect(deal.analysis!.sections.find((s) => s.key === "traction")!.evidence[0]).toMatchObject({ page: 3, document_id: expect.any(String) });
}

describe("Google Docs, Slides and Drive", () => {
  test("a Docs link is fetched as its PDF export; a Slides export redirects to googleusercontent; a published page is read as text", async () => {
    h = await documentHostApp(["google"]);
    const [docs, slides, published] = await analyseAll(h, [
      "https://docs.google.com/document/d/DOC_PUBLIC/edit?usp=sharing",
      "https://docs.google.com/presentation/d/SLIDES_PUBLIC/edit#slide=id.p1",
      "https://docs.google.com/document/d/e/2PACX-PUB/pub",
    ]);
    await expectDeckAnalysed(docs.id, "Ledgerly memo.pdf");
    await expectDeckAnalysed(slides.id, "Ledgerly slides.pdf");
    expect(published.status).toBe("succeeded");
    expect(await h.documents(published.id)).toEqual([]);
    const evidence = (await h.deal(published.id)).analysis!.sections.find((s) => s.key === "team")!.evidence[0];
    expect(evidence).toMatchObject({ url: "https://docs.google.com/document/d/e/2PACX-PUB/pub", page: null });
    // The editor pages a browser would open were never fetched: the export URLs were.
    expect(h.world.hits).toContain("docs.google.com /document/d/DOC_PUBLIC/export?format=pdf");
    expect(h.world.hits).toContain("doc-04-docs.googleusercontent.com /export/x1/SLIDES_PUBLIC.pdf");
    expect(h.world.hits.filter((x) => x.includes("/edit"))).toEqual([]);
  });

  test("Drive: uc?export=download, through the virus-scan confirmation of a large file", async () => {
    h = await documentHostApp(["google"]);
    const [small, large, byId] = await analyseAll(h, [
      "https://drive.google.com/file/d/FILE_SMALL/view?usp=sharing",
      "https://drive.google.com/file/d/FILE_LARGE/view",
      "https://drive.google.com/open?id=FILE_SMALL",
    ]);
    await expectDeckAnalysed(small.id, "Ledgerly deck.pdf");
    await expectDeckAnalysed(large.id, "Ledgerly big deck.pdf");
    await expectDeckAnalysed(byId.id, "Ledgerly deck.pdf");
    expect(h.world.hits).toContain("drive.usercontent.google.com /download?id=FILE_LARGE&export=download&confirm=t&uuid=u-123");
  });

  test("a private Doc or Drive file (sign-in wall), a download quota and a folder fail, naming the host and the reason", async () => {
    h = await documentHostApp(["google"]);
    const [doc, file, quota, folder, missing] = await analyseAll(h, [
      "https://docs.google.com/document/d/DOC_PRIVATE/edit",
      "https://drive.google.com/file/d/FILE_PRIVATE/view",
      "https://drive.google.com/file/d/FILE_QUOTA/view",
      "https://drive.google.com/drive/folders/FOLDER1",
      "https://docs.google.com/document/d/NO_SUCH_DOC/edit",
    ]);
    const signIn = "the link is not shared publicly (it leads to a sign-in page); share it so that anyone with the link can view it, or upload the file";
    expect(doc).toMatchObject({ status: "failed", error: `Google Docs: ${signIn}` });
    expect(file).toMatchObject({ status: "failed", error: `Google Drive: ${signIn}` });
    expect(quota.error).toMatch(/^Google Drive: the file's download limit is reached for now .*try again later or upload the file$/);
    expect(folder.error).toBe("Google Drive: the link is a folder, not a file; share the deck itself");
    expect(missing.error).toBe("Google Docs says the link does not exist (HTTP 404)");
    expect(h.world.hits.some((x) => x.includes("FOLDER1"))).toBe(false);
  });
});

describe("Dropbox", () => {
  test("a dl=0 link is fetched with dl=1 (redirected to dropboxusercontent); raw=1 is kept", async () => {
    h = await documentHostApp(["dropbox"]);
    const [shared, raw] = await analyseAll(h, [
      "https://www.dropbox.com/scl/fi/k1abc/Ledgerly-deck.pdf?rlkey=r1&dl=0",
      "https://www.dropbox.com/scl/fi/k1abc/Ledgerly-deck.pdf?rlkey=r1&raw=1",
    ]);
    await expectDeckAnalysed(shared.id, "Ledgerly deck.pdf");
    await expectDeckAnalysed(raw.id, "Ledgerly deck.pdf");
    expect(h.world.hits).toContain("www.dropbox.com /scl/fi/k1abc/Ledgerly-deck.pdf?rlkey=r1&dl=1");
    expect(h.world.hits).toContain("www.dropbox.com /scl/fi/k1abc/Ledgerly-deck.pdf?rlkey=r1&raw=1");
  });

  test("an expired link, a deleted one and a folder fail precisely", async () => {
    h = await documentHostApp(["dropbox"]);
    const [expired, deleted, folder] = await analyseAll(h, [
      "https://www.dropbox.com/s/expired/deck.pdf?dl=0",
      "https://www.dropbox.com/s/deleted/deck.pdf?dl=0",
      "https://www.dropbox.com/scl/fo/f0lder/AAA?rlkey=r2&dl=0",
    ]);
    expect(expired.error).toBe(
      'Dropbox showed a page instead of the file at its download link (dl=1) ("Dropbox - Link expired"): the link may have expired or be disabled; share the file again or upload it',
    );
    expect(deleted.error).toBe("Dropbox says the link does not exist (HTTP 404)");
    expect(folder.error).toBe("Dropbox: the link is a folder, not a file; share the deck itself");
  });
});

describe("OneDrive", () => {
  test("a 1drv.ms short link is followed, then rewritten to its download URL; a newer link goes through the shares API; SharePoint gets download=1", async () => {
    h = await documentHostApp(["onedrive"]);
    const [short, newer, sharepoint] = await analyseAll(h, [
      "https://1drv.ms/b/s!AbcPublic",
      "https://1drv.ms/b/c/cid9/IQBtoken",
      "https://acme-my.sharepoint.com/:b:/g/personal/sam_acme_com/EaBcD?e=x1",
    ]);
    await expectDeckAnalysed(short.id, "Ledgerly deck.pdf");
    await expectDeckAnalysed(newer.id, "Ledgerly deck.pdf");
    await expectDeckAnalysed(sharepoint.id, "Ledgerly deck.pdf");
    expect(h.world.hits).toContain("onedrive.live.com /download?cid=CID1&resid=CID1%21101&authkey=%21AKEY");
    // The viewer app a browser is redirected to is never fetched: it holds no file.
    expect(h.world.hits.some((x) => x.startsWith("onedrive.live.com /redir"))).toBe(false);
  });

  test("a link without its share key leads to Microsoft's sign-in: not shared publicly", async () => {
    h = await documentHostApp(["onedrive"]);
    const [priv, gone] = await analyseAll(h, ["https://1drv.ms/b/s!AbcPrivate", "https://1drv.ms/b/s!NoSuchLink"]);
    expect(priv.error).toBe("OneDrive: the link is not shared publicly (it leads to a sign-in page); share it so that anyone with the link can view it, or upload the file");
    expect(gone.error).toBe("OneDrive says the link does not exist (HTTP 404)");
  });
});

describe("Box", () => {
  test("/shared/static when offered, else the shared page's file id through the download URL", async () => {
    h = await documentHostApp(["box"]);
    const [direct, page] = await analyseAll(h, ["https://app.box.com/s/staticok", "https://app.box.com/s/pageonly"]);
    await expectDeckAnalysed(direct.id, "Ledgerly deck.pdf");
    await expectDeckAnalysed(page.id, "Ledgerly deck.pdf");
    expect(h.world.hits).toContain("app.box.com /index.php?rm=box_download_shared_file&shared_name=pageonly&file_id=f_998877");
  });

  test("a password-protected link: the password is submitted with the form's token; refused or missing, the run says so", async () => {
    h = await documentHostApp(["box"]);
    const ok = await h.analyze({ document_url: "https://app.box.com/s/locked", company_name: "Locked", document_password: "box-pass-1" });
    const wrong = await h.analyze({ document_url: "https://app.box.com/s/locked", company_name: "Wrong", document_password: "nope" });
    const none = await h.analyze({ document_url: "https://app.box.com/s/locked", company_name: "None" });
    await h.run();
    await expectDeckAnalysed(ok.json.deal_id, "Ledgerly deck.pdf");
    expect((await h.status(wrong.json.deal_id)).error).toBe("Box refused the password given in document_password");
    expect((await h.status(none.json.deal_id)).error).toBe("Box asks for a password before showing the document: resubmit with document_password");
  });

  test("a private link (sign-in wall) and a removed one fail precisely", async () => {
    h = await documentHostApp(["box"]);
    const [priv, gone] = await analyseAll(h, ["https://app.box.com/s/private", "https://app.box.com/s/gone"]);
    expect(priv.error).toBe("Box: the link is not shared publicly (it leads to a sign-in page); share it so that anyone with the link can view it, or upload the file");
    expect(gone.error).toBe("Box: the shared link was removed or is not shared with you");
  });
});

describe("redirects to private addresses", () => {
  test("an export that redirects to the intranet or to loopback fails the run, private networks not allowed", async () => {
    h = await documentHostApp(["google"], { resolve: { "intranet.docs.internal": ["10.0.0.8"] } });
    h.world.redirectTo = "https://intranet.docs.internal/export.pdf";
    const [intranet] = await analyseAll(h, ["https://docs.google.com/presentation/d/SLIDES_REDIRECTED/edit"]);
    h.world.redirectTo = "http://127.0.0.1:9/export.pdf";
    const [loopback] = await analyseAll(h, ["https://docs.google.com/presentation/d/SLIDES_REDIRECTED/edit?usp=sharing"]);
    const blocked = (url: string) => `Google Slides: ${url} could not be fetched: its host does not resolve to a public internet address`;
    expect(intranet.error).toBe(blocked("https://docs.google.com/presentation/d/SLIDES_REDIRECTED/edit"));
    expect(loopback.error).toBe(blocked("https://docs.google.com/presentation/d/SLIDES_REDIRECTED/edit?usp=sharing"));
  });
});

describe("unreachable hosts", () => {
  test("a host that refuses connections and one whose name does not resolve fail, naming the host", async () => {
    h = await documentHostApp([], { closed: ["www.dropbox.com"] });
    const [refused, unresolved] = await analyseAll(h, ["https://www.dropbox.com/scl/fi/k1abc/Ledgerly-deck.pdf?rlkey=r1&dl=0", "https://app.box.com/s/staticok"]);
    expect(refused.error).toBe(
      "Dropbox: https://www.dropbox.com/scl/fi/k1abc/Ledgerly-deck.pdf?rlkey=r1&dl=0 could not be fetched: the connection was refused or dropped",
    );
    expect(unresolved.error).toBe("Box: https://app.box.com/s/staticok could not be fetched: its host does not resolve to a public internet address");
  });
});
