// The founders surface: request an analysis (deduplicated per founder per org), read it, and
// follow it as Server-Sent Events.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { authPlugin } from "../identity/auth.macro.ts";
import { jsonResponses } from "../../http/openapi.ts";
import { runEvents } from "../actions/actions.events.ts";
import { AnalysisViewQuery, AnalyzeFounderBody, FounderAcceptedResponse, FounderAnalysisResponse } from "./founders.model.ts";
import { foundersService } from "./founders.service.ts";

const tags = ["Founders"];

export function founderRoutes(deps: Deps) {
  const founders = foundersService(deps);

  return new Elysia({ prefix: "/api/v1/founders" })
    .use(authPlugin(deps))
    .post(
      "/analyze",
      ({ principal, body, set }) => {
        const accepted = founders.analyze(principal, body);
        set.status = 202;
        Object.assign(set.headers, accepted.headers);
        return accepted.body;
      },
      {
        auth: "write",
        body: AnalyzeFounderBody,
        detail: {
          operationId: "analyzeFounder",
          tags,
          summary: "Assess a founder (name, LinkedIn or GitHub); the org's existing analysis of the same founder is returned at no charge",
          responses: jsonResponses({ 202: FounderAcceptedResponse }),
        },
      },
    )
    .get("/analyses/:analysis_id", ({ principal, params, query }) => founders.read(principal.orgId, params.analysis_id, query.view === "full" ? "full" : "summary"), {
      auth: "read",
      query: AnalysisViewQuery,
      detail: {
        operationId: "getFounderAnalysis",
        tags,
        summary: "A founder analysis: status, then metrics, strengths, risks and sources; view=full adds per-metric confidence, reasoning, missing_info",
        responses: jsonResponses({ 200: FounderAnalysisResponse }),
      },
    })
    .get(
      "/analyses/:analysis_id/events",
      ({ principal, params, set }) => {
        const row = founders.mustGet(principal.orgId, params.analysis_id);
        return runEvents(deps, principal, founders.runOf(row), set.headers as Record<string, string>, (r) => founders.statusOf(row, r));
      },
      {
        auth: "read",
        detail: {
          operationId: "streamFounderAnalysisEvents",
          tags,
          summary: "Server-Sent Events: progress {stage} (first = current state), done with result_url",
          responses: { 200: { description: "text/event-stream", content: { "text/event-stream": { schema: { type: "string" } } } } },
        },
      },
    );
}
