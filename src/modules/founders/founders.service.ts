// Founder analyses in the org workspace: the request (deduplicated per founder per org, in one
// IMMEDIATE transaction with the dispatch and its charge), the record the spec reads, and a
// lookup by name for conversational callers (MCP).
//
// One row per founder: a repeat request while the founder's analysis is queued, running or
// succeeded returns that row (`existing: true`, nothing charged). After a failed run the SAME row
// (same analysis_id) gets a new run, so a client holding the id sees the retry.
import { perDeps, type Deps } from "../../deps.ts";
import type { Principal } from "../identity/auth.macro.ts";
import { actionHeaders } from "../identity/budgets.http.ts";
import { notFound } from "../../http/errors.ts";
import { isUuid, newId } from "../../lib/ids.ts";
import { metricLabel, type FounderAssessment } from "../../engines/founder-engine.ts";
import { actionsService, type Run, type RunStatus } from "../actions/actions.service.ts";
import { budgetsService } from "../identity/budgets.service.ts";
import type { SqlRowOf } from "../../db/rows.ts";
import { parseFounderRequest, type FounderRequest } from "./founders.input.ts";
import type { founderAnalyses } from "./founders.tables.ts";

export const FOUNDER_ANALYSIS = {
  kind: "founder_analysis",
  eventPrefix: "founder.analysis",
  resultUrl: (analysisId: string) => `/api/v1/founders/analyses/${analysisId}`,
};

/** A founder analysis' row as `SELECT *` reads it. */
export type FounderRow = SqlRowOf<typeof founderAnalyses>;

/** What the run needs besides the row: the normalised identifiers. */
export type FounderRunInput = { linkedin_key: string | null; github_login: string | null };

export type FounderView = "summary" | "full";

export const foundersService = perDeps((deps: Deps) => {
  const sqlite = deps.db.$client;
  const actions = actionsService(deps);
  const asOf = () => deps.clock.now().toISOString();

  const byId = sqlite.query<FounderRow, { org: string; id: string }>("SELECT * FROM founder_analyses WHERE id = $id AND org_id = $org");
  // The same founder: the same key, or the same LinkedIn profile, or the same GitHub profile where
  // the LinkedIn profiles do not contradict each other, or the same name and company where neither
  // profile contradicts. The strongest match wins.
  const sameFounder = sqlite.query<FounderRow, { org: string; key: string; li: string | null; gh: string | null; nk: string | null }>(
    `SELECT * FROM founder_analyses WHERE org_id = $org AND (founder_key = $key
       OR ($li IS NOT NULL AND linkedin_url = $li)
       OR ($gh IS NOT NULL AND github_url = $gh AND (linkedin_url IS NULL OR $li IS NULL OR linkedin_url = $li))
       OR ($nk IS NOT NULL AND founder_key = $nk AND (linkedin_url IS NULL OR $li IS NULL OR linkedin_url = $li)
           AND (github_url IS NULL OR $gh IS NULL OR github_url = $gh)))
     ORDER BY founder_key = $key DESC, ($li IS NOT NULL AND linkedin_url = $li) DESC, created_at DESC, id DESC LIMIT 1`,
  );
  const insert = sqlite.query(
    `INSERT INTO founder_analyses (id, org_id, created_by, founder_key, name, linkedin_url, github_url, company, created_at, updated_at)
     VALUES ($id, $org, $by, $key, $name, $li, $gh, $company, $now, $now)`,
  );
  // A retry after a failure keeps what was known and adds what the new request says.
  const refresh = sqlite.query(
    `UPDATE founder_analyses SET name = COALESCE($name, name), linkedin_url = COALESCE($li, linkedin_url), github_url = COALESCE($gh, github_url),
       company = COALESCE($company, company), updated_at = $now WHERE id = $id`,
  );
  const saveResult = sqlite.query("UPDATE founder_analyses SET overall_score = ?, result = ?, name = COALESCE(name, ?), updated_at = ? WHERE id = ?");
  // Every analysis with a result whose name matches, newest first: whether its latest run
  // succeeded is the actions service's to say.
  const withResultByName = sqlite.query<{ id: string }, { org: string; q: string }>(
    `SELECT id FROM founder_analyses WHERE org_id = $org AND lower(name) LIKE $q ESCAPE '\\' AND result IS NOT NULL
     ORDER BY updated_at DESC, id DESC`,
  );

  /** The X-Actions-* figures as they stand, without charging (for a deduplicated request). */
  function currentActionHeaders(principal: Principal): Record<string, string> {
    const used = budgetsService(deps).usageToday([principal]).get(principal.keyId)?.actions ?? 0;
    return actionHeaders({ limit: principal.dailyActions, remaining: Math.max(0, principal.dailyActions - used) });
  }

  const accepted = (id: string, status: RunStatus, existing: boolean) => ({
    analysis_id: id,
    status,
    status_url: FOUNDER_ANALYSIS.resultUrl(id),
    result_url: FOUNDER_ANALYSIS.resultUrl(id),
    existing,
    as_of: asOf(),
  });

  const runInput = (r: FounderRequest): FounderRunInput => ({ linkedin_key: r.linkedinKey, github_login: r.githubLogin });

  /**
   * Starts (or finds) the founder's analysis. Throws 422 for a bad body and 429 when the actions
   * budget is spent. The dedupe read and the dispatch share one IMMEDIATE transaction, so
   * concurrent identical requests (even from other processes) make one run.
   */
  function analyze(principal: Principal, body: unknown): { body: ReturnType<typeof accepted>; headers: Record<string, string> } {
    const req = parseFounderRequest(body);
    return sqlite
      .transaction(() => {
        const now = asOf();
        const found = sameFounder.get({ org: principal.orgId, key: req.founderKey, li: req.linkedinUrl, gh: req.githubUrl, nk: req.nameKey });
        if (found) {
          const last = actions.latestFor(principal.orgId, found.id);
          if (last && last.status !== "failed") return { body: accepted(found.id, last.status, true), headers: currentActionHeaders(principal) };
          refresh.run({ id: found.id, name: req.name, li: req.linkedinUrl, gh: req.githubUrl, company: req.company, now });
          const { run, headers } = actions.dispatch(principal, FOUNDER_ANALYSIS, found.id, runInput(req));
          return { body: accepted(found.id, run.status, false), headers };
        }
        const id = newId();
        insert.run({ id, org: principal.orgId, by: principal.userId, key: req.founderKey, name: req.name, li: req.linkedinUrl, gh: req.githubUrl, company: req.company, now });
        const { run, headers } = actions.dispatch(principal, FOUNDER_ANALYSIS, id, runInput(req));
        return { body: accepted(id, run.status, false), headers };
      })
      .immediate();
  }

  function mustGet(orgId: string, analysisId: string): FounderRow {
    const row = isUuid(analysisId) ? byId.get({ org: orgId, id: analysisId.toLowerCase() }) : null;
    if (!row) throw notFound("Founder analysis not found");
    return row;
  }

  /** The run behind the record (the latest one: a retry after a failure replaces the failed one). */
  function runOf(row: FounderRow): Run {
    const run = actions.latestFor(row.org_id, row.id);
    if (!run) throw notFound("This founder analysis has no run");
    return run;
  }

  function statusPart(row: FounderRow, run: Run) {
    return {
      analysis_id: row.id,
      status: run.status,
      progress: run.status === "running" ? run.progress : null,
      error: run.status === "failed" ? run.error : null,
    };
  }

  /**
   * The record of CONTRACT.md. The assessment appears once the run succeeded; `view=summary`
   * keeps every field and sends per-metric `confidence`, `reasoning`, `missing_info` as null.
   */
  function record(row: FounderRow, run: Run, view: FounderView) {
    const result: FounderAssessment | null = run.status === "succeeded" && row.result ? JSON.parse(row.result) : null;
    const full = view === "full";
    return {
      ...statusPart(row, run),
      founder: { name: row.name, linkedin_url: row.linkedin_url, github_url: row.github_url, company: row.company },
      engine: result?.engine ?? null,
      overall_score: result ? result.overall_score : null,
      metrics: (result?.metrics ?? []).map((m) => ({
        key: m.key,
        label: m.label ?? metricLabel(m.key),
        score: m.score,
        confidence: full ? m.confidence : null,
        reasoning: full ? m.reasoning : null,
        missing_info: full ? m.missing_info : null,
      })),
      strengths: result?.strengths ?? [],
      risks: result?.risks ?? [],
      sources: result?.sources ?? [],
      started_at: run.startedAt,
      finished_at: run.finishedAt,
      scope: "org_workspace" as const,
      as_of: asOf(),
    };
  }

  function read(orgId: string, analysisId: string, view: FounderView = "summary") {
    const row = mustGet(orgId, analysisId);
    return record(row, runOf(row), view);
  }

  /** The payload of an SSE `progress` event: the status part of the record. */
  function statusOf(row: FounderRow, run: Run) {
    return { ...statusPart(row, run), started_at: run.startedAt, finished_at: run.finishedAt, as_of: asOf() };
  }

  /** Latest succeeded analyses whose founder name contains `text` (case-insensitive), newest first. */
  function findByName(orgId: string, text: string, limit = 5) {
    const q = text.trim().toLowerCase();
    if (!q) return [];
    const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const ids = withResultByName.all({ org: orgId, q: pattern }).map((r) => r.id);
    const status = actions.latestStatuses(ids);
    return ids.filter((id) => status.get(id) === "succeeded").slice(0, limit).map((id) => read(orgId, id, "summary"));
  }

  function storeResult(analysisId: string, a: FounderAssessment, resolvedName: string | null) {
    saveResult.run(a.overall_score, JSON.stringify(a), resolvedName, asOf(), analysisId);
  }

  return { analyze, read, findByName, mustGet, runOf, statusOf, storeResult };
});
