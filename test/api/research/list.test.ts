// researchService.list and searchDocuments, what the `ask` tool reads research and documents
// through: the org's runs newest first (summary view: no report, no citations) with their status,
// and the passages of the org's own documents that answer some words.
import { expect, test } from "bun:test";
import { actionsService } from "../../../src/modules/actions/actions.service.ts";
import { researchService } from "../../../src/modules/research/research.service.ts";
import { seededApp } from "../../helpers/app.ts";
import { TestClock } from "../../helpers/clock.ts";
import { principalOf } from "../../helpers/fixtures.ts";
import { LEDGERLY_PAGES, seedDocument } from "./seed.ts";

test("the org's research runs, newest first, with status and summary; another org's never", async () => {
  const clock = new TestClock("2026-11-20T12:00:00.000Z");
  const { t, f } = seededApp({ clock });
  const research = researchService(t.deps);
  const actions = actionsService(t.deps);
  const alice = principalOf(t.deps, f.keys.write.secret);
  const first = (await research.start(alice, { query: "payroll APIs in Europe", idempotency_key: "one" })).body.research_id;
  const run = actions.latestFor(alice.orgId, first)!;
  actions.start(run.id);
  research.storeReport(first, "builtin", { title: "Payroll", executive_summary: "Three vendors lead.", report_markdown: "# Payroll", citations: [] });
  actions.succeed(run.id);
  clock.advanceHours(1);
  const second = (await research.start(alice, { query: "robotics in logistics", idempotency_key: "two" })).body.research_id;
  await research.start(principalOf(t.deps, f.keys.otherOrgWrite.secret), { query: "globex only", idempotency_key: "three" });

  const runs = research.list(f.orgs.acme.id, 10);
  expect(runs.map((r) => [r.research_id, r.query, r.status, r.executive_summary])).toEqual([
    [second, "robotics in logistics", "queued", null],
    [first, "payroll APIs in Europe", "succeeded", "Three vendors lead."],
  ]);
  expect(runs[1]).toMatchObject({ report_markdown: null, citations: null, created_at: "2026-11-20T12:00:00.000Z" });
  expect(research.list(f.orgs.acme.id, 1).map((r) => r.research_id)).toEqual([second]);
});

test("searchDocuments: passages of the org's own documents that answer the words, with where they stand", () => {
  const { t, f } = seededApp();
  const { documentId } = seedDocument(t.deps, { orgId: f.orgs.acme.id, userId: f.users.alice.id, company: "Ledgerly", filename: "ledgerly.pdf", pages: LEDGERLY_PAGES });
  seedDocument(t.deps, { orgId: f.orgs.globex.id, userId: f.users.carol.id, company: "Initech", filename: "initech.pdf", pages: ["Net revenue retention of 135 percent at Initech."] });
  const research = researchService(t.deps);
  const found = research.searchDocuments(principalOf(t.deps, f.keys.read.secret), "net revenue retention");
  expect(found.length).toBe(1);
  expect(found[0]).toMatchObject({ source_type: "document", source_id: documentId, page: 2, title: "ledgerly.pdf" });
  expect(found[0].quote).toContain("net revenue retention of 135 percent");
  expect(research.searchDocuments(principalOf(t.deps, f.keys.read.secret), "quantum computing")).toEqual([]);
});
