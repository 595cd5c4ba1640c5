// Research test material: a deal with a document whose page texts are written by direct SQL (the
// triggers index them into search_index, as the deal analysis does), and a runner driven by hand.
import type { Deps } from "../../../src/deps.ts";
import { newId } from "../../../src/lib/ids.ts";
import { actionsService } from "../../../src/modules/actions/actions.service.ts";
import { RESEARCH, researchService } from "../../../src/modules/research/research.service.ts";
import type { TestApp } from "../../helpers/app.ts";
import { principalOf } from "../../helpers/fixtures.ts";

export function seedDocument(deps: Deps, o: { orgId: string; userId: string; company: string; filename: string; pages: string[] }) {
  const now = deps.clock.now().toISOString();
  const dealId = newId();
  const documentId = newId();
  const sqlite = deps.db.$client;
  sqlite
    .query(
      `INSERT INTO deals (id, org_id, created_by, company_name, kind, stage, source, target_key, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'company', 'new', 'upload', ?, ?, ?)`,
    )
    .run(dealId, o.orgId, o.userId, o.company, `name:${o.company.toLowerCase()}-${dealId}`, now, now);
  sqlite
    .query(
      `INSERT INTO deal_documents (id, org_id, deal_id, filename, kind, content_type, size_bytes, sha256, page_count, status, pages, uploaded_at)
       VALUES (?, ?, ?, ?, 'primary_upload', 'application/pdf', 1000, ?, ?, 'extracted', ?, ?)`,
    )
    .run(documentId, o.orgId, dealId, o.filename, "0".repeat(64), o.pages.length, JSON.stringify(o.pages), now);
  return { dealId, documentId };
}

export { runAll } from "../../helpers/app.ts";

export const LEDGERLY_PAGES = [
  "Ledgerly builds accounting automation for mid-market finance teams. The product closes the books in two days instead of ten.",
  "Traction: Ledgerly reached 2.4 million ARR in March 2026, growing 12 percent month over month, with net revenue retention of 135 percent.",
  "Team: founded by Maya Lind (CEO, ex-Stripe) and Tomas Berg (CTO). The round: a 6 million seed at 24 million pre-money.",
];

/** A queued research run of the key's org, written the way start() writes it (sync, for auth scenario paths). */
export function seedResearch(t: TestApp, secret: string, o: { finished?: boolean } = {}): string {
  const principal = principalOf(t.deps, secret);
  researchService(t.deps); // registers the action kind
  const id = newId();
  const now = t.deps.clock.now().toISOString();
  t.deps.db.$client.transaction(() => {
    t.deps.db.$client
      .query(`INSERT INTO research_runs (id, org_id, created_by, idempotency_key, query, plan, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(id, principal.orgId, principal.userId, `seed-${id}`, "What is seeded?", JSON.stringify({ sub_questions: ["What is seeded?", "Who knows it?"] }), now, now);
    const { run } = actionsService(t.deps).dispatch(principal, RESEARCH, id, {});
    // A finished run: its event stream sends the terminal state and closes.
    if (o.finished) (actionsService(t.deps).start(run.id), actionsService(t.deps).succeed(run.id));
  })();
  return id;
}
