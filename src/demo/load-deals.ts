// The demo firm's deal flow: generated pitch decks (scripts/gen-deals.ts) uploaded through the
// real upload route, as the team members who sourced them, then analysed by the real runner and
// deal engine, and spread across the pipeline. Office decks go in as PPTX/DOCX when LibreOffice is
// there to convert them, else as their PDF twins (the demo works without LibreOffice).
import { basename } from "node:path";
import { generateDeals, writeDeals, type WrittenDeck } from "./decks.ts";
import { createApp } from "../app.ts";
import type { Deps } from "../deps.ts";
import { runHandlers } from "../../jobs/index.ts";
import { startRunner } from "../modules/actions/runner.ts";
import { actionsService } from "../modules/actions/actions.service.ts";
import { DEAL_ANALYSIS, dealsService } from "../modules/deals/deals.service.ts";
import { apiKeysService } from "../modules/identity/keys.service.ts";
import { orgsService } from "../modules/identity/orgs.service.ts";
import { findLibreOffice } from "../modules/health/health.routes.ts";

export type DemoDealsOptions = {
  seed?: number;
  /** Submit PPTX/DOCX decks as themselves (needs LibreOffice); default: when LibreOffice is installed. */
  convertOffice?: boolean;
};

export type DemoDealsSummary = { deals: number; succeeded: number; failed: number; office: number; seconds: number };

const n = (x: number) => x.toLocaleString("en-US");

export async function loadDemoDeals(deps: Deps, orgId: string, sourceDir: string, progress: (line: string) => void, o: DemoDealsOptions = {}): Promise<DemoDealsSummary> {
  const started = performance.now();
  const decks = generateDeals({ seed: o.seed ?? 7 });
  const written = await writeDeals(sourceDir, decks);
  const officeCount = written.filter((w) => w.office).length;
  progress(
    `generated ${n(written.length)} pitch decks (${written.filter((w) => w.deck.kind === "fund").length} of them LP fund decks, ` +
      `${officeCount} also as PPTX/DOCX; ${(written.reduce((s, w) => s + w.bytes, 0) / 1e6).toFixed(1)} MB) in ${Math.round(performance.now() - started)} ms`,
  );
  const convertOffice = o.convertOffice ?? findLibreOffice() !== null;
  if (officeCount && !convertOffice) progress(`LibreOffice is not installed: the ${officeCount} PPTX/DOCX decks are submitted as their PDF twins`);

  // Deals come in through the team (the lead keeps the printed keys to themselves): one intake
  // key per member, with an actions budget for the whole flow, revoked once the flow is in.
  const members = orgsService(deps).membersInJoinOrder(orgId);
  if (members.length === 0) throw new Error("the demo organization has no users to source its deals");
  const sourcers = members.length > 1 ? members.slice(1) : members;
  const keys = apiKeysService(deps);
  const intake = sourcers.map((u) => keys.create({ userId: u.id, scope: "write", name: "demo deal intake", dailyActions: written.length, dailyRequests: written.length * 2 }));
  const app = createApp(deps);
  const ids: { id: string; w: WrittenDeck }[] = [];
  try {
    for (const [i, w] of written.entries()) {
      const path = w.office && convertOffice ? w.office : w.pdf;
      const form = new FormData();
      form.append("file", new Blob([await Bun.file(path).arrayBuffer()]), basename(path));
      form.append("company_name", w.deck.name);
      form.append("kind", w.deck.kind);
      const res = await app.handle(
        new Request("http://localhost/api/v1/deals/analyze/upload", { method: "POST", body: form, headers: { authorization: `Bearer ${intake[i % intake.length].secret}` } }),
      );
      const body = (await res.json()) as { deal_id?: string; detail?: unknown };
      if (res.status !== 202 || !body.deal_id) throw new Error(`the demo deck ${basename(path)} was refused (HTTP ${res.status}): ${JSON.stringify(body.detail)}`);
      ids.push({ id: body.deal_id, w });
    }
  } finally {
    for (const k of intake) keys.revoke(k.keyId);
  }
  progress(`uploaded ${n(ids.length)} decks through POST /api/v1/deals/analyze/upload${convertOffice && officeCount ? ` (${officeCount} converted by LibreOffice)` : ""}`);

  // The analyses: the real runner over the queued runs, until every one has ended.
  const analysing = performance.now();
  const actions = actionsService(deps);
  const counts = () => actions.endedCounts(orgId, DEAL_ANALYSIS.kind);
  let reported = 0;
  const tick = setInterval(() => {
    const c = counts();
    const done = c.succeeded + c.failed;
    if (done - reported >= 6 && done < ids.length) progress(`analysed ${(reported = done)}/${ids.length}`);
  }, 250);
  const runner = startRunner(deps, runHandlers(deps), { concurrency: 2, perOrg: 2, pollMs: 60_000 });
  try {
    runner.pump();
    await runner.idle();
  } finally {
    clearInterval(tick);
    await runner.stop();
  }
  const c = counts();

  // Where each deal stands: the pipeline and the day it came in (demo data set in place, as
  // `dealgraph deals stage` would over time).
  const now = deps.clock.now().getTime();
  dealsService(deps).placeInPipeline(
    ids.map(({ id, w }) => ({
      dealId: id,
      stage: w.deck.pipeline,
      createdAt: new Date(now - w.deck.daysAgo * 86_400_000).toISOString(),
      updatedAt: new Date(Math.min(now, now - w.deck.daysAgo * 86_400_000 + 3 * 86_400_000)).toISOString(),
    })),
  );
  const stages = new Map<string, number>();
  for (const { w } of ids) stages.set(w.deck.pipeline, (stages.get(w.deck.pipeline) ?? 0) + 1);
  progress(
    `analysed ${ids.length} deals in ${((performance.now() - analysing) / 1000).toFixed(1)} s: ${c.succeeded} succeeded${c.failed ? `, ${c.failed} failed` : ""}; ` +
      `pipeline: ${[...stages].map(([s, k]) => `${s} ${k}`).join(", ")}`,
  );
  const seconds = (performance.now() - started) / 1000;
  progress(`deals loaded in ${seconds.toFixed(1)} s`);
  return { deals: ids.length, succeeded: c.succeeded, failed: c.failed, office: convertOffice ? officeCount : 0, seconds };
}
