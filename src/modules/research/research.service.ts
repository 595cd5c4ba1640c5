// Research runs: start (validate, dedupe by idempotency key, gate live runs per user, plan, then
// insert + dispatch in one IMMEDIATE transaction) and read (the record in two views with one
// schema). The routes and the MCP door both call these two verbs.
import { perDeps, type Deps } from "../../deps.ts";
import type { Principal } from "../identity/auth.macro.ts";
import { ApiError, conflict, invalid, notFound, unavailable } from "../../http/errors.ts";
import { LlmError } from "../../engines/llm/client.ts";
import type { Citation, ResearchReport } from "../../engines/research-engine.ts";
import { researchEngine } from "../../engines/select.ts";
import { isUuid, newId } from "../../lib/ids.ts";
import { actionsService, statusView, type Run } from "../actions/actions.service.ts";
import type { SqlRowOf } from "../../db/rows.ts";
import { researchCorpus } from "./research.corpus.ts";
import { KEY_MAX, QUERY_MAX } from "./research.model.ts";
import type { researchRuns, SearchIndexRow } from "./research.tables.ts";

export const RESEARCH = {
  kind: "research",
  eventPrefix: "research",
  resultUrl: (researchId: string) => `/api/v1/research/${researchId}`,
};

/** Live (queued or running) research runs one user may have at once (CONTRACT.md: default 2). */
export const LIVE_RUNS_PER_USER = 2;
const GATE_RETRY_AFTER_SECONDS = 30;

/** A research run's row as `SELECT *` reads it. */
export type ResearchRow = SqlRowOf<typeof researchRuns>;

/** A page of a deal document in the research index: the document (source_id), its page, file name (title) and text. */
export type DocumentPageHit = Pick<SearchIndexRow, "source_id" | "title" | "body"> & { page: number };

export type StartInput = { query: unknown; idempotency_key: unknown };

function checkInput(input: StartInput): { query: string; key: string } {
  const { query, idempotency_key: key } = input ?? ({} as StartInput);
  if (typeof query !== "string") throw invalid(["body", "query"], query === undefined ? "Field required" : "Input should be a valid string", query === undefined ? "missing" : "string_type");
  if (query.length > QUERY_MAX) throw invalid(["body", "query"], `String should have at most ${QUERY_MAX} characters`, "string_too_long");
  if (query.trim().length === 0) throw invalid(["body", "query"], "The query is empty (or only whitespace)", "string_too_short");
  if (typeof key !== "string") throw invalid(["body", "idempotency_key"], key === undefined ? "Field required" : "Input should be a valid string", key === undefined ? "missing" : "string_type");
  if (key.length === 0) throw invalid(["body", "idempotency_key"], "String should have at least 1 character", "string_too_short");
  if (key.length > KEY_MAX) throw invalid(["body", "idempotency_key"], `String should have at most ${KEY_MAX} characters`, "string_too_long");
  return { query, key };
}

export const researchService = perDeps((deps: Deps) => {
  const sqlite = deps.db.$client;
  const actions = actionsService(deps);

  const byKey = sqlite.query<ResearchRow, [string]>("SELECT * FROM research_runs WHERE idempotency_key = ?");
  const byId = sqlite.query<ResearchRow, [string, string]>("SELECT * FROM research_runs WHERE id = ? AND org_id = ?");
  const insert = sqlite.query(
    `INSERT INTO research_runs (id, org_id, created_by, idempotency_key, query, plan, created_at, updated_at)
     VALUES ($id, $org, $user, $key, $query, $plan, $now, $now)`,
  );
  const documentPages = sqlite.query<DocumentPageHit, { org: string; q: string; limit: number }>(
    `SELECT source_id, page, title, body FROM search_index
     WHERE search_index MATCH $q AND org_id = $org AND source_type = 'document' ORDER BY rank LIMIT $limit`,
  );
  const saveReport = sqlite.query(
    "UPDATE research_runs SET engine = ?, executive_summary = ?, report_markdown = ?, citations = ?, updated_at = ? WHERE id = ?",
  );

  const asOf = () => deps.clock.now().toISOString();

  function accepted(row: ResearchRow, existing: boolean) {
    const run = actions.latestFor(row.org_id, row.id);
    return {
      research_id: row.id,
      status: run?.status ?? "queued",
      status_url: RESEARCH.resultUrl(row.id),
      result_url: RESEARCH.resultUrl(row.id),
      existing,
      plan: JSON.parse(row.plan) as { sub_questions: string[] },
      scope: "org_workspace" as const,
      as_of: asOf(),
    };
  }

  /** The first run of this key in the caller's org, or null; a key of another org is a 409. */
  function existingFor(principal: Principal, key: string) {
    const row = byKey.get(key);
    if (!row) return null;
    if (row.org_id !== principal.orgId) {
      throw conflict("This idempotency_key was already used in another workspace; use a fresh key for a new question.");
    }
    return { body: accepted(row, true), headers: {} as Record<string, string> };
  }

  function assertGate(principal: Principal) {
    const live = actions.liveCount(principal.userId, RESEARCH.kind);
    if (live >= LIVE_RUNS_PER_USER) {
      throw new ApiError(
        429,
        `You already have ${live} research runs queued or running (the limit is ${LIVE_RUNS_PER_USER}); retry when one finishes.`,
        { "Retry-After": String(GATE_RETRY_AFTER_SECONDS) },
      );
    }
  }

  /**
   * Starts a research run (or returns the one the key already started, with `existing: true` and no
   * charge). Throws 409 (key of another org), 422 (bounds), 429 (live-run gate or actions budget),
   * 503 (the configured model could not plan).
   */
  async function start(principal: Principal, input: StartInput): Promise<{ body: ReturnType<typeof accepted>; headers: Record<string, string> }> {
    const { query, key } = checkInput(input);
    const seen = existingFor(principal, key);
    if (seen) return seen;
    assertGate(principal);
    let subQuestions: string[];
    try {
      const engine = researchEngine(deps);
      subQuestions = await engine.plan(query, researchCorpus(deps, principal).entitiesIn(query));
    } catch (error) {
      if (error instanceof LlmError) throw unavailable(`The research plan could not be made: ${error.message}. Nothing was charged; retry later.`, 30);
      throw error;
    }
    // Everything decided again under the write lock: concurrent identical POSTs make one run.
    return sqlite.transaction(() => {
      const again = existingFor(principal, key);
      if (again) return again;
      assertGate(principal);
      const id = newId();
      insert.run({ id, org: principal.orgId, user: principal.userId, key, query, plan: JSON.stringify({ sub_questions: subQuestions }), now: asOf() });
      const { headers } = actions.dispatch(principal, RESEARCH, id, {});
      return { body: accepted(byId.get(id, principal.orgId)!, false), headers };
    }).immediate();
  }

  /** The status of the run an idempotency key started in the org, or null when it started none there. */
  function statusOfKey(orgId: string, key: string): Run["status"] | null {
    const row = byKey.get(key);
    if (!row || row.org_id !== orgId) return null;
    return actions.latestFor(orgId, row.id)?.status ?? null;
  }

  function mustGetRow(orgId: string, researchId: string): ResearchRow {
    const row = isUuid(researchId) ? byId.get(researchId, orgId) : null;
    if (!row) throw notFound("Research run not found");
    return row;
  }

  function runOf(row: ResearchRow): Run {
    const run = actions.latestFor(row.org_id, row.id);
    if (!run) throw notFound("Research run not found");
    return run;
  }

  /** The record from a row and its run; the report fields are null in `summary` (same keys). */
  function view(row: ResearchRow, run: Run, v: "full" | "summary") {
    const { status, progress, error, started_at, finished_at, as_of } = statusView(run, deps.clock.now());
    return {
      research_id: row.id,
      status,
      progress,
      error,
      query: row.query,
      plan: JSON.parse(row.plan) as { sub_questions: string[] },
      engine: row.engine,
      executive_summary: row.executive_summary,
      report_markdown: v === "full" ? row.report_markdown : null,
      citations: v === "full" && row.citations ? (JSON.parse(row.citations) as Citation[]) : null,
      started_at,
      finished_at,
      scope: "org_workspace" as const,
      as_of,
    };
  }

  function read(orgId: string, researchId: string, v: "full" | "summary" = "full") {
    const row = mustGetRow(orgId, researchId);
    return view(row, runOf(row), v);
  }

  function storeReport(researchId: string, engine: string, report: ResearchReport) {
    saveReport.run(engine, report.executive_summary, report.report_markdown, JSON.stringify(report.citations), asOf(), researchId);
  }

  /** The org's document pages that match an FTS5 query (e.g. a quoted phrase), best first, at most `limit`. */
  function documentPagesMatching(orgId: string, ftsQuery: string, limit: number): DocumentPageHit[] {
    return documentPages.all({ org: orgId, q: ftsQuery, limit });
  }

  const pageOf = sqlite.query<ResearchRow, { org: string; limit: number; offset: number }>(
    "SELECT * FROM research_runs WHERE org_id = $org ORDER BY created_at DESC, id DESC LIMIT $limit OFFSET $offset",
  );
  const countOf = sqlite.query<{ n: number }, [string]>("SELECT count(*) AS n FROM research_runs WHERE org_id = ?");

  /** A page of the org's runs, newest first, in the summary view (no report, no citations), with who asked and when; and how many there are. */
  function listPage(orgId: string, page: { limit: number; offset: number }) {
    const runs = pageOf.all({ org: orgId, ...page }).flatMap((row) => {
      const run = actions.latestFor(row.org_id, row.id);
      return run ? [{ ...view(row, run, "summary"), created_by: row.created_by, created_at: row.created_at }] : [];
    });
    return { runs, total: countOf.get(orgId)!.n };
  }

  /** The org's newest research runs (summary view: no report, no citations), newest first. */
  function list(orgId: string, limit: number) {
    return listPage(orgId, { limit, offset: 0 }).runs;
  }

  /** Passages of the org's documents and deal analyses that answer a text (the runs' own full-text search), best first. */
  function searchDocuments(principal: Principal, text: string) {
    return researchCorpus(deps, principal).searchText(text);
  }

  return { start, read, view, mustGetRow, runOf, storeReport, statusOfKey, documentPagesMatching, list, listPage, searchDocuments };
});

export type ResearchRecordView = ReturnType<ReturnType<typeof researchService>["read"]>;
