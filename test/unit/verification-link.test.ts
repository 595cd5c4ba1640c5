// Which link of a host's verification mail completes a waiting document link: the one under the
// document's own path first; another link on the host only when it is the one candidate. The
// route (a pasted message) and the imported inbox both pick with this one function.
import { describe, expect, test } from "bun:test";
import { isUnderDocument, pickVerificationLink, type MailLink } from "../../src/modules/deals/deals.verification.service.ts";

const DOC = "https://docsend.com/view/ledgerly";
const link = (url: string, label = ""): MailLink => ({ url, label });

describe("pickVerificationLink", () => {
  test("a link under the document's path wins over another document's verification link listed first", () => {
    const links = [
      link("https://docsend.com/view/otherdeck/verify?token=aaa", "Verify email"),
      link(DOC, "Ledgerly deck"),
      link(`${DOC}/verify?token=bbb`, "Open"),
    ];
    expect(pickVerificationLink(links, DOC)).toBe(`${DOC}/verify?token=bbb`);
  });

  test("outside the document's path: taken only when it is the one candidate", () => {
    expect(pickVerificationLink([link(DOC), link("https://docsend.com/auth/confirm?t=1", "Confirm")], DOC)).toBe("https://docsend.com/auth/confirm?t=1");
    expect(pickVerificationLink([link("https://docsend.com/view/a/verify?token=1", "Verify"), link("https://docsend.com/view/b/verify?token=2", "Verify")], DOC)).toBeNull();
    expect(pickVerificationLink([link("https://docsend.com/help"), link("https://docsend.com/pricing")], DOC)).toBeNull();
    expect(pickVerificationLink([link("https://evil.example/view/ledgerly/verify?token=1", "Verify")], DOC)).toBeNull();
  });

  test("under the document: the document itself and pages below it, on its host family only", () => {
    expect(isUnderDocument(`${DOC}/verify?token=1`, DOC)).toBe(true);
    expect(isUnderDocument(`${DOC}/`, DOC)).toBe(true);
    expect(isUnderDocument("https://docsend.com/view/ledgerly-2/verify", DOC)).toBe(false);
    expect(isUnderDocument("https://evil.example/view/ledgerly/verify", DOC)).toBe(false);
  });
});
