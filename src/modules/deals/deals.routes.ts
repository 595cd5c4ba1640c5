// The deals surface: list, record, analysis status and events, documents inventory, and the
// upload submission (website and document-link submissions come with the fetchers).
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { authPlugin } from "../identity/auth.macro.ts";
import { ApiError } from "../../http/errors.ts";
import { discard, MB, readMultipart } from "../../http/multipart.ts";
import { jsonResponses } from "../../http/openapi.ts";
import { tempDir } from "../../lib/blobs.ts";
import { runEvents } from "../actions/actions.events.ts";
import { actionsService, statusView } from "../actions/actions.service.ts";
import { dealAcceptance, submitDealUrl } from "./deals.submissions.ts";
import {
  AcceptedResponse,
  AnalyzeBody,
  AnalysisStatusResponse,
  DealDetailResponse,
  DealListQuery,
  DealListResponse,
  DealViewQuery,
  DocumentsResponse,
  UploadBodyDoc,
} from "./deals.model.ts";
import { dealsService, type DealFilters } from "./deals.service.ts";
import { submitUpload } from "./deals.upload.ts";

const tags = ["Deals"];
const UPLOAD_MAX = 50 * MB;

export function dealRoutes(deps: Deps) {
  const deals = dealsService(deps);
  const actions = actionsService(deps);
  const asOf = () => deps.clock.now().toISOString();

  /** The 202 of an upload, with the X-Actions-* headers of its charge. */
  const acceptance = (
    set: { status?: number | string; headers: Record<string, unknown> },
    accepted: { dealId: string; headers: Record<string, string> },
    emailVerificationRequired: boolean | null,
  ) => {
    const { body, headers } = dealAcceptance(deps, accepted, emailVerificationRequired);
    set.status = 202;
    Object.assign(set.headers, headers);
    return body;
  };

  return new Elysia({ prefix: "/api/v1/deals" })
    .use(authPlugin(deps))
    .get(
      "",
      ({ principal, query }) => {
        const { total, deals: rows } = deals.list(principal.orgId, query as DealFilters);
        return { deals: rows, total, limit: query.limit, offset: query.offset, has_more: query.offset + rows.length < total, scope: "org_workspace" as const, as_of: asOf() };
      },
      {
        auth: "read",
        query: DealListQuery,
        detail: { operationId: "listDeals", tags, summary: "The org's deals, newest first", responses: jsonResponses({ 200: DealListResponse }) },
      },
    )
    .get("/:deal_id", ({ principal, params, query }) => {
      const body = deals.detailJson(principal.orgId, params.deal_id, query.view === "full" ? "full" : "summary");
      return new Response(body, { headers: { "content-type": "application/json;charset=utf-8" } });
    }, {
      auth: "read",
      query: DealViewQuery,
      detail: { operationId: "getDeal", tags, summary: "A deal: company, round, team, score; view=full adds the analysis", responses: jsonResponses({ 200: DealDetailResponse }) },
    })
    .get("/:deal_id/analysis", ({ principal, params }) => deals.analysisStatus(principal.orgId, params.deal_id), {
      auth: "read",
      detail: { operationId: "getDealAnalysisStatus", tags, summary: "The deal analysis' status and, while running, its progress", responses: jsonResponses({ 200: AnalysisStatusResponse }) },
    })
    .get(
      "/:deal_id/analysis/events",
      ({ principal, params, set }) => {
        const deal = deals.mustGet(principal.orgId, params.deal_id);
        const run = actions.latestFor(principal.orgId, deal.id);
        if (!run) throw new ApiError(404, "This deal has no analysis");
        return runEvents(deps, principal, run, set.headers as Record<string, string>, (r) => ({ deal_id: deal.id, ...statusView(r, deps.clock.now()) }));
      },
      {
        auth: "read",
        detail: {
          operationId: "streamDealAnalysisEvents",
          tags,
          summary: "Server-Sent Events: progress (first = current state), done with result_url, error",
          responses: { 200: { description: "text/event-stream", content: { "text/event-stream": { schema: { type: "string" } } } } },
        },
      },
    )
    .get("/:deal_id/documents", ({ principal, params }) => deals.documents(principal.orgId, params.deal_id), {
      auth: "read",
      detail: { operationId: "listDealDocuments", tags, summary: "The deal's documents: primary uploads and data-room files", responses: jsonResponses({ 200: DocumentsResponse }) },
    })
    .post(
      "/analyze",
      async ({ principal, body, set }) => {
        const accepted = await submitDealUrl(deps, principal, body);
        set.status = 202;
        Object.assign(set.headers, accepted.headers);
        return accepted.body;
      },
      {
        auth: "write",
        body: AnalyzeBody,
        detail: {
          operationId: "analyzeDeal",
          tags,
          summary: "Analyse a deal from its website or a hosted document link (exactly one)",
          responses: jsonResponses({ 202: AcceptedResponse }),
        },
      },
    )
    .post(
      "/analyze/upload",
      async ({ principal, request, set }) => {
        const received = await readMultipart(request, { dir: tempDir(deps.config.dataDir), maxFileBytes: UPLOAD_MAX, maxFiles: 1 });
        try {
          return acceptance(set, await submitUpload(deps, principal, received), false);
        } finally {
          discard(received.files); // an accepted file has moved into the store; this removes only what was refused
        }
      },
      {
        auth: "write",
        parse: "none", // streamed by readMultipart, never buffered whole
        detail: {
          operationId: "analyzeUpload",
          tags,
          summary: "Analyse an uploaded deck (PDF, PPT/PPTX, DOC/DOCX; 50 MB; 413 over, 415 for other types)",
          requestBody: { required: true, content: { "multipart/form-data": { schema: JSON.parse(JSON.stringify(UploadBodyDoc)) } } },
          responses: jsonResponses({ 202: AcceptedResponse }),
        },
      },
    );
}
