// Deals in the org workspace: the list and the record the spec reads, the documents inventory,
// submissions that create a deal and dispatch its analysis in one transaction with the actions
// budget, data-room files added to a deal the same way, and the pipeline stage.
import { existsSync, rmSync } from "node:fs";
import { perDeps, type Deps } from "../../deps.ts";
import type { Principal } from "../identity/auth.macro.ts";
import { actionHeaders } from "../identity/budgets.http.ts";
import { budgetsService } from "../identity/budgets.service.ts";
import { isWebPrincipal, webBudgets } from "../identity/web-budgets.service.ts";
import { conflict, notFound } from "../../http/errors.ts";
import { adoptBlob, blobPath } from "../../lib/blobs.ts";
import { isUuid, newId } from "../../lib/ids.ts";
import { actionsService, statusView, type Run, type RunStatus } from "../actions/actions.service.ts";
import type { DealAnalysis, DealFacts } from "../../engines/deal-engine.ts";
import { DEAL_STAGES } from "./deals.model.ts";
import { dealQueries, type DealDocument, type DealRow } from "./deals.queries.ts";
import { waitingSubmissionConflict } from "./deals.verification.model.ts";

export type { DealBookFacts, DealDirectoryEntry, DealDocument, DealRound, DealRow, DealScoreRow } from "./deals.queries.ts";

/** `waiting_for` of a data-room pass that waits for the deal's running pass to end. */
export const ANALYSIS_PASS = "analysis_pass";

export const DEAL_ANALYSIS = {
  kind: "deal_analysis",
  eventPrefix: "deal.analysis",
  resultUrl: (dealId: string) => `/api/v1/deals/${dealId}`,
};

/** The columns of a list row: never the wide `facts` and `analysis` JSON. */
const LIST_KEYS = ["id", "company_name", "domain", "website", "kind", "stage", "source", "score", "analysis_status", "created_at", "updated_at"] as const;
const LIST_COLUMNS = LIST_KEYS.map((k) => `d.${k}`).join(", ");
type ListRow = Pick<DealRow, (typeof LIST_KEYS)[number]>;

/** A received data-room file: its temp file, and what the route judged it to be. */
export type DataRoomFile = { path: string; sha256: string; size: number; filename: string; folder: string | null; category: string; contentType: string };

export type DealFilters = { status?: RunStatus; stage?: string; kind?: "company" | "fund"; q?: string; limit: number; offset: number };

/** The "same target" key of CONTRACT.md for a name: lower-cased letters and digits only. */
export const nameTarget = (name: string) => `name:${name.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "")}`;

export const dealsService = perDeps((deps: Deps) => {
  const sqlite = deps.db.$client;
  const actions = actionsService(deps);
  const queries = dealQueries(deps);

  const byId = sqlite.query<DealRow, { org: string; id: string }>(`SELECT d.* FROM deals d WHERE d.id = $id AND d.org_id = $org`);
  const idsForTarget = sqlite.query<{ id: string }, { org: string; target: string }>("SELECT id FROM deals WHERE org_id = $org AND target_key = $target");
  const documentsOf = sqlite.query<Record<string, unknown>, [string]>(
    `SELECT id, filename, kind, folder, category, content_type, size_bytes, sha256, page_count, status, uploaded_at
     FROM deal_documents WHERE deal_id = ? ORDER BY uploaded_at, id`,
  );

  /**
   * Newest first. Every filter is a column of deals_org_list_idx (analysis_status is kept by
   * triggers), so the count and the page's ids come from the index alone; only the page's rows
   * are then read, and without their JSON.
   */
  /** The WHERE of a list's filters (every one a column of deals_org_list_idx), and its parameters. */
  function filtered(orgId: string, f: Omit<DealFilters, "limit" | "offset">): { cond: string; params: Record<string, string | number> } {
    const where = ["d.org_id = $org"];
    const params: Record<string, string | number> = { org: orgId };
    if (f.status) (where.push("d.analysis_status = $status"), (params.status = f.status));
    if (f.stage) (where.push("d.stage = $stage"), (params.stage = f.stage));
    if (f.kind) (where.push("d.kind = $kind"), (params.kind = f.kind));
    if (f.q) (where.push("lower(d.company_name) LIKE $q ESCAPE '\\'"), (params.q = `%${f.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
    return { cond: where.join(" AND "), params };
  }

  function list(orgId: string, f: DealFilters) {
    const { cond, params } = filtered(orgId, f);
    const total = sqlite.query<{ n: number }, Record<string, string | number>>(`SELECT COUNT(*) AS n FROM deals d WHERE ${cond}`).get(params)!.n;
    const rows = sqlite
      .query<ListRow, Record<string, string | number>>(
        `SELECT ${LIST_COLUMNS}
         FROM (SELECT d.id FROM deals d WHERE ${cond} ORDER BY d.created_at DESC, d.id DESC LIMIT $limit OFFSET $offset) page
         JOIN deals d ON d.id = page.id
         ORDER BY d.created_at DESC, d.id DESC`,
      )
      .all({ ...params, limit: f.limit, offset: f.offset });
    return { total, deals: rows.map(listRow) };
  }

  /**
   * The pipeline board's read (the web app): each stage's total and its newest `perStage` deals,
   * under the same filters as list(). One pass over the list index, newest first, reading only ids
   * and stages (ranking in SQL sorted every row: several times slower at 10,000 deals), then the
   * shown rows by primary key.
   */
  function board(orgId: string, f: Omit<DealFilters, "stage" | "limit" | "offset">, perStage: number) {
    const { cond, params } = filtered(orgId, f);
    const ordered = sqlite.query(`SELECT d.id, d.stage FROM deals d WHERE ${cond} ORDER BY d.created_at DESC, d.id DESC`).values(params) as [string, string][];
    const stages = new Map(DEAL_STAGES.map((stage) => [stage as string, { total: 0, ids: [] as string[] }]));
    for (const [id, stage] of ordered) {
      const s = stages.get(stage);
      if (!s) continue;
      s.total++;
      if (s.ids.length < perStage) s.ids.push(id);
    }
    const shown = [...stages.values()].flatMap((s) => s.ids);
    const rows = new Map(shown.length ? byIds.all({ ids: JSON.stringify(shown) }).map((r) => [r.id, listRow(r)]) : []);
    return [...stages].map(([stage, s]) => ({ stage, total: s.total, deals: s.ids.map((id) => rows.get(id)!) }));
  }
  const byIds = sqlite.query<ListRow, { ids: string }>(`SELECT ${LIST_COLUMNS} FROM json_each($ids) AS ids CROSS JOIN deals d ON d.id = ids.value`);

  function listRow(d: ListRow) {
    return {
      deal_id: d.id,
      company_name: d.company_name,
      domain: d.domain,
      website: d.website,
      kind: d.kind,
      stage: d.stage,
      source: d.source,
      analysis_status: d.analysis_status,
      score: d.score,
      created_at: d.created_at,
      updated_at: d.updated_at,
    };
  }

  function mustGet(orgId: string, dealId: string): DealRow {
    const deal = isUuid(dealId) ? byId.get({ org: orgId, id: dealId }) : null;
    if (!deal) throw notFound("Deal not found");
    return deal;
  }

  const EMPTY_FACTS: DealFacts = {
    company: { name: null, domain: null, website: null, description: null, sector: null, location: null, founded_year: null },
    round: { stage: null, amount: null, currency: null, pre_money_valuation: null },
    team: [],
  };

  /** The record up to its analysis: the list row and the structured facts. */
  function record(d: DealRow) {
    const facts: DealFacts = d.facts ? JSON.parse(d.facts) : EMPTY_FACTS;
    return {
      ...listRow(d),
      company: { ...facts.company, name: facts.company.name ?? d.company_name, domain: facts.company.domain ?? d.domain, website: facts.company.website ?? d.website },
      round: facts.round,
      team: facts.team,
      score_confidence: d.score_confidence,
    };
  }

  /** The record: structured facts always; `analysis` only in the full view (else null, same schema). */
  function detail(orgId: string, dealId: string, view: "full" | "summary") {
    const d = mustGet(orgId, dealId);
    return {
      ...record(d),
      analysis: view === "full" && d.analysis ? JSON.parse(d.analysis) : null,
      scope: "org_workspace" as const,
      as_of: deps.clock.now().toISOString(),
    };
  }

  /**
   * `detail` as the JSON text the API sends. The stored analysis is JSON.stringify's text (see
   * storeAnalysis), so it is written into the body as it is instead of parsed and written again:
   * the same bytes, without the cost of the widest part of the record.
   */
  function detailJson(orgId: string, dealId: string, view: "full" | "summary"): string {
    const d = mustGet(orgId, dealId);
    const head = JSON.stringify(record(d));
    const analysis = view === "full" && d.analysis ? d.analysis : "null";
    return `${head.slice(0, -1)},"analysis":${analysis},"scope":"org_workspace","as_of":${JSON.stringify(deps.clock.now().toISOString())}}`;
  }

  function analysisStatus(orgId: string, dealId: string) {
    const d = mustGet(orgId, dealId);
    const run = actions.latestFor(orgId, d.id);
    if (!run) throw notFound("This deal has no analysis");
    return { deal_id: d.id, ...statusView(run, deps.clock.now()) };
  }

  function documents(orgId: string, dealId: string) {
    const d = mustGet(orgId, dealId);
    return {
      deal_id: d.id,
      documents: documentsOf.all(d.id).map(({ id, ...doc }) => ({ document_id: id, ...doc })),
      scope: "org_workspace" as const,
      as_of: deps.clock.now().toISOString(),
    };
  }

  /** 409 while another analysis of the same target is queued or running in the org. */
  function assertNoLiveSubmission(orgId: string, target: string) {
    const live = actions.liveRunOf(orgId, idsForTarget.all({ org: orgId, target }).map((d) => d.id));
    if (live?.waitingFor) throw conflict(waitingSubmissionConflict(live.subjectId));
    if (live) throw conflict(`An analysis of the same company is already in progress (deal ${live.subjectId}); poll its status instead of submitting again.`);
  }

  type NewDeal = {
    companyName: string | null;
    kind: "company" | "fund";
    source: "website" | "document" | "upload";
    targetKey: string;
    website?: string | null;
    domain?: string | null;
    documentUrl?: string | null;
  };

  /** A received file to move into the blob store once its request is accepted. */
  type Received = { path: string; sha256: string };

  /**
   * Moves received files into the blob store; call it last inside the transaction that charges, so
   * a refusal never touches the store. Adds the hashes it newly stores to `added`, for `forget`.
   */
  function adoptAll(files: Received[], added: string[]): void {
    for (const f of files) {
      const fresh = !existsSync(blobPath(deps.config.dataDir, f.sha256));
      adoptBlob(deps.config.dataDir, f.path, f.sha256);
      if (fresh) added.push(f.sha256);
    }
  }

  /** Removes blobs stored by a transaction that then failed to commit. */
  const forget = (shas: string[]) => shas.forEach((sha) => rmSync(blobPath(deps.config.dataDir, sha), { force: true }));

  /**
   * Creates the deal and dispatches its analysis: one transaction, so a refusal (409, 429) leaves
   * nothing behind: no deal, no run, no charge, and no blob (`files` are stored only once the
   * charge went through).
   */
  function submit(
    principal: Principal,
    deal: NewDeal,
    withDocuments: (dealId: string) => void,
    input: Record<string, unknown>,
    opts: { waitingFor?: string | null; files?: Received[] } = {},
  ) {
    const adopted: string[] = [];
    try {
      return sqlite.transaction(() => {
        assertNoLiveSubmission(principal.orgId, deal.targetKey);
        const id = newId();
        const now = deps.clock.now().toISOString();
        sqlite
          .query(
            `INSERT INTO deals (id, org_id, created_by, company_name, domain, website, kind, stage, source, target_key, document_url, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, 'new', ?, ?, ?, ?, ?)`,
          )
          .run(id, principal.orgId, principal.userId, deal.companyName, deal.domain ?? null, deal.website ?? null, deal.kind, deal.source, deal.targetKey, deal.documentUrl ?? null, now, now);
        withDocuments(id);
        const { run, headers } = actions.dispatch(principal, DEAL_ANALYSIS, id, input, { waitingFor: opts.waitingFor });
        adoptAll(opts.files ?? [], adopted);
        return { dealId: id, run, headers };
      })();
    } catch (error) {
      forget(adopted);
      throw error;
    }
  }

  /**
   * Stores data-room files (moved into the blob store) and has them analysed, in one transaction
   * with the actions charge: a refusal (429) leaves no row, no run, no charge and no blob that was
   * not already stored.
   *
   * While the deal's analysis is queued or running (CONTRACT.md, "Further decisions"), the files are
   * read after that pass by one more pass: the first upload meanwhile dispatches it, waiting
   * (`waiting_for` "analysis_pass") until the running pass ends; later uploads join it (no new run,
   * no charge) as long as it has not started. A data-room pass that is queued and has not started
   * reads every file of the deal when it starts, so files added before then join it too.
   */
  function addDataRoom(principal: Principal, dealId: string, files: DataRoomFile[]) {
    const adopted: string[] = [];
    try {
      return sqlite.transaction(() => {
        const deal = mustGet(principal.orgId, dealId);
        const now = deps.clock.now().toISOString();
        const insert = sqlite.query(
          `INSERT INTO deal_documents (id, org_id, deal_id, filename, kind, folder, category, content_type, size_bytes, sha256, status, uploaded_at)
           VALUES (?, ?, ?, ?, 'data_room', ?, ?, ?, ?, ?, 'received', ?)`,
        );
        const ids = files.map((f) => {
          const id = newId();
          insert.run(id, principal.orgId, deal.id, f.filename, f.folder, f.category, f.contentType, f.size, f.sha256, now);
          return id;
        });
        const live = actions.latestFor(principal.orgId, deal.id);
        let run: Run;
        let headers: Record<string, string> = {};
        if (live && live.status === "queued" && live.input.data_room === true) {
          // A data-room pass not started yet: it reads these files with the others when it starts.
          // Nothing is dispatched, so nothing is charged; the headers say what is left.
          run = live;
          headers = actionsLeft(principal);
        } else {
          const waiting = live && (live.status === "queued" || live.status === "running") ? ANALYSIS_PASS : null;
          ({ run, headers } = actions.dispatch(principal, DEAL_ANALYSIS, deal.id, { data_room: true, documents: ids }, { waitingFor: waiting }));
        }
        adoptAll(files, adopted); // last, so a refused dispatch never touched the store
        return { dealId: deal.id, run, headers, documentIds: ids, joined: live !== null && run.id === live.id };
      })();
    } catch (error) {
      forget(adopted);
      throw error;
    }
  }

  /** The X-Actions-* headers of what the principal has left today, without charging. */
  function actionsLeft(principal: Principal): Record<string, string> {
    if (isWebPrincipal(principal)) {
      const today = webBudgets(deps).today(principal.userId);
      return actionHeaders({ limit: today.limit, remaining: today.remaining });
    }
    const used = budgetsService(deps).usageToday([principal]).get(principal.keyId)?.actions ?? 0;
    return actionHeaders({ limit: principal.dailyActions, remaining: Math.max(0, principal.dailyActions - used) });
  }

  /**
   * The end of a deal's analysis pass (whatever its outcome): the data-room pass waiting for it
   * (files uploaded while it ran) is queued for a runner.
   */
  function releaseWaitingPass(orgId: string, dealId: string): void {
    for (const id of actions.waitingOf(orgId, dealId, ANALYSIS_PASS)) actions.resume(id, {});
  }

  /** Whether a pass of the deal created before this run is queued or running. */
  function liveBefore(orgId: string, dealId: string, runId: string): boolean {
    return actions.earlierRunOf(orgId, dealId, runId, "live");
  }

  /** Whether a pass of the deal created before this run is still running (it is ending: its handler released this one). */
  function earlierPassLive(orgId: string, dealId: string, runId: string): boolean {
    return actions.earlierRunOf(orgId, dealId, runId, "running");
  }

  const updateStage = sqlite.query<{ id: string; stage: string }, [string, string, string]>("UPDATE deals SET stage = ?, updated_at = ? WHERE id = ? RETURNING id, stage");

  /** The pipeline stage (the CLI's `deals stage`): any deal by id, null when there is none. */
  function setStage(dealId: string, stage: (typeof DEAL_STAGES)[number]): { deal_id: string; stage: string } | null {
    if (!isUuid(dealId)) return null;
    const row = updateStage.get(stage, deps.clock.now().toISOString(), dealId);
    return row ? { deal_id: row.id, stage: row.stage } : null;
  }

  function storeAnalysis(dealId: string, a: DealAnalysis) {
    const c = a.facts.company;
    sqlite
      .query(
        `UPDATE deals SET company_name = COALESCE(company_name, ?), domain = COALESCE(domain, ?), website = COALESCE(website, ?), kind = ?,
           score = ?, score_confidence = ?, facts = ?, analysis = ?, updated_at = ? WHERE id = ?`,
      )
      .run(
        c.name,
        c.domain,
        c.website,
        a.kind,
        a.score,
        a.score_confidence,
        JSON.stringify(a.facts),
        JSON.stringify({ engine: a.engine, summary: a.summary, sections: a.sections, completed_at: deps.clock.now().toISOString() }),
        deps.clock.now().toISOString(),
        dealId,
      );
  }

  const place = sqlite.query("UPDATE deals SET stage = $stage, created_at = $createdAt, updated_at = $updatedAt WHERE id = $id");

  /** Sets where demo deals stand and when they came in (the demo firm's pipeline, as `deals stage` would over time). */
  function placeInPipeline(placements: { dealId: string; stage: (typeof DEAL_STAGES)[number]; createdAt: string; updatedAt: string }[]): void {
    sqlite.transaction(() => {
      for (const p of placements) place.run({ id: p.dealId, stage: p.stage, createdAt: p.createdAt, updatedAt: p.updatedAt });
    })();
  }

  /** One document of a deal of the org, with its extracted page texts; another org's or deal's is 404. */
  function document(orgId: string, dealId: string, documentId: string): DealDocument & { pageTexts: string[] | null } {
    const deal = mustGet(orgId, dealId);
    const doc = isUuid(documentId) ? queries.documentRow(orgId, deal.id, documentId) : null;
    if (!doc) throw notFound("Document not found");
    return { ...doc, pageTexts: doc.pages ? (JSON.parse(doc.pages) as string[]) : null };
  }

  return {
    list,
    board,
    mustGet,
    detail,
    detailJson,
    analysisStatus,
    documents,
    document,
    submit,
    addDataRoom,
    releaseWaitingPass,
    earlierPassLive,
    liveBefore,
    setStage,
    placeInPipeline,
    storeAnalysis,
    // The reads other modules make of deals (the firm's book, the MCP directory, founder evidence, research, the web app).
    ...queries,
  };
});
