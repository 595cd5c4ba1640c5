// The deal pages: the pipeline (board or list), one deal, one of its documents (and its original
// file), the deal's live analysis progress as an event stream, and the actions: upload a new deck,
// add data-room files, move a deal's stage. Every read goes through the deals service with the
// member's org (another org's deal is 404); uploads follow the API's rules (415, 413, 422; during an analysis, read by one more pass after it)
// and are charged to the member's daily web budget (429 when spent).
import { Elysia } from "elysia";
import { perDeps, type Deps } from "../../deps.ts";
import { ApiError, invalid } from "../../http/errors.ts";
import { MB } from "../../http/multipart.ts";
import { blobPath } from "../../lib/blobs.ts";
import { runEvents } from "../actions/actions.events.ts";
import { actionsService, statusView } from "../actions/actions.service.ts";
import { acceptDataRoom, DATA_ROOM_MAX_BYTES, DATA_ROOM_MAX_FILES } from "../deals/deals.data-room.ts";
import { DEAL_STAGES } from "../deals/deals.model.ts";
import { dealsService, type DealFilters } from "../deals/deals.service.ts";
import { submitUpload } from "../deals/deals.upload.ts";
import { webBudgets } from "../identity/web-budgets.service.ts";
import { dealPage, type DealView } from "./pages/deal.ts";
import { documentPage } from "./pages/document.ts";
import { dealName, pipelinePage, stageLabel, type DealCard, type PipelineFilters } from "./pages/pipeline.ts";
import { guard, refusalText, sessionPrincipal, type WebCtx } from "./web.guard.ts";
import { htmlResponse, pageNumber, redirect, safeNext } from "./web.http.ts";

const hidden = { detail: { hide: true } };
/** Cards per stage on the board; the rest are one click away in that stage's list. */
export const PER_COLUMN = 25;
const LIST_PAGE = 50;
const UPLOAD_LIMITS = { maxFileBytes: 50 * MB, maxFiles: 1 };
const DATA_ROOM_LIMITS = { maxFileBytes: DATA_ROOM_MAX_BYTES, maxFiles: DATA_ROOM_MAX_FILES, preservePath: true };

type Stage = (typeof DEAL_STAGES)[number];

function oneOf<T extends string>(name: string, value: string | null, allowed: readonly T[]): T | "" {
  const v = (value ?? "").trim();
  if (v === "") return "";
  if (!(allowed as readonly string[]).includes(v)) throw invalid(["query", name], `Unknown ${name} “${v.slice(0, 40)}”: use one of ${allowed.join(", ")}.`);
  return v as T;
}

/** The pipeline and deal pages as renderers, for the pages and for an upload's refusal. */
const dealRenderers = perDeps((deps: Deps) => {
  const deals = dealsService(deps);
  const actions = actionsService(deps);
  const budgets = webBudgets(deps);

  function filtersOf(url: URL): PipelineFilters & { view: string; page: number } {
    const q = (url.searchParams.get("q") ?? "").trim();
    if (q.length > 200) throw invalid(["query", "q"], "Search for at most 200 characters.");
    return {
      q,
      kind: oneOf("kind", url.searchParams.get("kind"), ["company", "fund"]),
      status: oneOf("status", url.searchParams.get("status"), ["queued", "running", "succeeded", "failed"]),
      stage: oneOf("stage", url.searchParams.get("stage"), DEAL_STAGES),
      view: oneOf("view", url.searchParams.get("view"), ["board", "list"]),
      page: pageNumber(url),
    };
  }

  /** A page of deals with their rounds (read for that page only). */
  function cards(orgId: string, f: DealFilters): { total: number; deals: DealCard[] } {
    const { total, deals: rows } = deals.list(orgId, f);
    const rounds = deals.rounds(orgId, rows.map((d) => d.deal_id));
    return { total, deals: rows.map((d) => ({ ...d, round: rounds.get(d.deal_id) ?? null })) };
  }

  function renderPipeline(c: WebCtx & { org: { id: string } }, status = 200): Response {
    const f = filtersOf(c.url);
    const base = { kind: (f.kind || undefined) as DealFilters["kind"], status: (f.status || undefined) as DealFilters["status"], q: f.q || undefined };
    const listing = f.stage !== "" || f.view === "list";
    let columns = null;
    let list = null;
    let total: number;
    if (listing) {
      const found = cards(c.org.id, { ...base, stage: f.stage || undefined, limit: LIST_PAGE, offset: (f.page - 1) * LIST_PAGE });
      list = { ...found, page: f.page, pageSize: LIST_PAGE };
      total = found.total;
    } else {
      const stages = deals.board(c.org.id, base, PER_COLUMN);
      const rounds = deals.rounds(c.org.id, stages.flatMap((s) => s.deals.map((d) => d.deal_id)));
      columns = stages.map((s) => ({
        stage: s.stage,
        label: stageLabel(s.stage),
        total: s.total,
        deals: s.deals.map((d) => ({ ...d, round: rounds.get(d.deal_id) ?? null })),
      }));
      total = columns.reduce((n, col) => n + col.total, 0);
    }
    const view = {
      filters: { kind: f.kind, status: f.status, q: f.q, stage: f.stage },
      columns,
      list,
      total,
      perColumn: PER_COLUMN,
      budget: budgets.today(c.user.id),
      back: c.url.pathname + c.url.search,
    };
    return htmlResponse(pipelinePage(c.shell("Pipeline", "deals"), view), status);
  }

  function renderDeal(c: WebCtx & { org: { id: string } }, dealId: string, status = 200): Response {
    const detail = deals.detail(c.org.id, dealId, "full");
    const run = actions.latestFor(c.org.id, detail.deal_id);
    const view: DealView = {
      deal: detail as DealView["deal"],
      run: run ? statusView(run, deps.clock.now()) : null,
      documents: deals.documents(c.org.id, detail.deal_id).documents as DealView["documents"],
      budget: budgets.today(c.user.id),
    };
    return htmlResponse(dealPage(c.shell(dealName(detail), "deals"), view), status);
  }

  return { renderPipeline, renderDeal };
});

/** The two upload forms: multipart bodies, mounted apart from the forms' parser (web.routes.ts). */
export function dealUploads(deps: Deps) {
  const deals = dealsService(deps);
  const { renderPipeline, renderDeal } = dealRenderers(deps);
  return new Elysia({ prefix: "/app/deals" })
    .post(
      "/upload",
      guard(deps, { upload: UPLOAD_LIMITS }, async (c) => {
        try {
          const accepted = await submitUpload(deps, sessionPrincipal(deps, c.user, c.org), { fields: c.fields, files: c.files });
          c.flash({ kind: "success", text: `Uploaded ${c.files[0]?.filename ?? "the deck"}: the analysis is queued and follows below.` });
          return redirect(`/app/deals/${accepted.dealId}`);
        } catch (error) {
          c.flash({ kind: "error", text: `Nothing was uploaded: ${refusalText(error)}` });
          return renderPipeline(c, (error as ApiError).status);
        }
      }),
      { ...hidden, parse: "none" },
    )
    .post(
      "/:deal_id/documents",
      guard(deps, { upload: DATA_ROOM_LIMITS }, async (c) => {
        const deal = deals.mustGet(c.org.id, c.params.deal_id);
        try {
          const result = await acceptDataRoom(deps, sessionPrincipal(deps, c.user, c.org), deal.id, { fields: c.fields, files: c.files });
          const files = `${result.filesReceived} file${result.filesReceived === 1 ? "" : "s"}`;
          c.flash({
            kind: "success",
            text: result.afterRunningPass
              ? `Added ${files} to the data room: the deal's analysis is under way, so they are read once it has finished and the deal is analysed again with them.`
              : `Added ${files} to the data room: the deal is being analysed again.`,
          });
          return redirect(`/app/deals/${deal.id}`);
        } catch (error) {
          c.flash({ kind: "error", text: `Nothing was added: ${refusalText(error)}` });
          return renderDeal(c, deal.id, (error as ApiError).status);
        }
      }),
      { ...hidden, parse: "none" },
    );
}

export function dealPages(deps: Deps) {
  const deals = dealsService(deps);
  const actions = actionsService(deps);
  const { renderPipeline, renderDeal } = dealRenderers(deps);

  return new Elysia({ prefix: "/app/deals" })
    .get("", guard(deps, {}, (c) => renderPipeline(c)), hidden)
    .get("/:deal_id", guard(deps, {}, (c) => renderDeal(c, c.params.deal_id)), hidden)
    .post(
      "/:deal_id/stage",
      guard(deps, {}, (c) => {
        const deal = deals.mustGet(c.org.id, c.params.deal_id);
        const stage = c.fields.stage ?? "";
        if (!(DEAL_STAGES as readonly string[]).includes(stage)) {
          throw invalid(["body", "stage"], `Unknown stage “${stage.slice(0, 40)}”: use one of ${DEAL_STAGES.join(", ")}. Nothing was changed.`);
        }
        deals.setStage(deal.id, stage as Stage);
        c.flash({ kind: "success", text: `Moved ${dealName(deal)} to ${stageLabel(stage)}.` });
        return redirect(safeNext(c.fields.back || `/app/deals/${deal.id}`));
      }),
      hidden,
    )
    .get(
      "/:deal_id/events",
      guard(deps, {}, (c) => {
        const deal = deals.mustGet(c.org.id, c.params.deal_id);
        const run = actions.latestFor(c.org.id, deal.id);
        if (!run) throw new ApiError(404, "This deal has no analysis");
        return runEvents(deps, sessionPrincipal(deps, c.user, c.org), run, {}, (r) => ({ deal_id: deal.id, ...statusView(r, deps.clock.now()) }));
      }),
      hidden,
    )
    .get(
      "/:deal_id/documents/:document_id",
      guard(deps, {}, (c) => {
        const doc = deals.document(c.org.id, c.params.deal_id, c.params.document_id);
        const deal = deals.mustGet(c.org.id, doc.deal_id);
        const quote = (c.url.searchParams.get("quote") ?? "").slice(0, 2000) || null;
        return htmlResponse(documentPage(c.shell(doc.filename, "deals"), { deal: { deal_id: deal.id, company_name: deal.company_name, domain: deal.domain }, doc, quote }));
      }),
      hidden,
    )
    .get(
      "/:deal_id/documents/:document_id/file",
      guard(deps, {}, async (c) => {
        const doc = deals.document(c.org.id, c.params.deal_id, c.params.document_id);
        const file = Bun.file(blobPath(deps.config.dataDir, doc.sha256));
        if (!(await file.exists())) throw new ApiError(404, "The file is no longer stored on this server.");
        // Always a download, never rendered here: the file is whatever was uploaded.
        const ascii = doc.filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
        return new Response(file, {
          headers: {
            "content-type": doc.content_type,
            "content-disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(doc.filename)}`,
            "content-security-policy": "sandbox; default-src 'none'",
            "x-content-type-options": "nosniff",
            "cache-control": "private, no-store",
          },
        });
      }),
      hidden,
    );
}
