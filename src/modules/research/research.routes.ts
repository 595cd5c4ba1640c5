// The research surface: start a run (202, planned during the POST), read it (full or summary),
// and follow it as Server-Sent Events.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { authPlugin } from "../identity/auth.macro.ts";
import { jsonResponses } from "../../http/openapi.ts";
import { runEvents } from "../actions/actions.events.ts";
import { ResearchAccepted, ResearchBody, ResearchRecord, ResearchViewQuery } from "./research.model.ts";
import { researchService } from "./research.service.ts";

const tags = ["Research"];

export function researchRoutes(deps: Deps) {
  const research = researchService(deps);

  return new Elysia({ prefix: "/api/v1/research" })
    .use(authPlugin(deps))
    .post(
      "",
      async ({ principal, body, set }) => {
        const { body: accepted, headers } = await research.start(principal, body);
        set.status = 202;
        Object.assign(set.headers, headers);
        return accepted;
      },
      {
        auth: "write",
        body: ResearchBody,
        detail: {
          operationId: "startResearch",
          tags,
          summary:
            "Start a research run over the firm's own records; the plan (sub-questions) is made now and returned. Same idempotency_key: the same run (existing: true), never billed twice; 409 for a key of another workspace; 429 past the per-user live-run gate",
          responses: jsonResponses({ 202: ResearchAccepted }),
        },
      },
    )
    .get("/:research_id", ({ principal, params, query }) => research.read(principal.orgId, params.research_id, query.view ?? "full"), {
      auth: "read",
      query: ResearchViewQuery,
      detail: {
        operationId: "getResearch",
        tags,
        summary: "A research run: status and progress; view=full (default) the Markdown report and its citations, view=summary the executive summary (same keys, report fields null)",
        responses: jsonResponses({ 200: ResearchRecord }),
      },
    })
    .get(
      "/:research_id/events",
      ({ principal, params, set }) => {
        const row = research.mustGetRow(principal.orgId, params.research_id);
        return runEvents(deps, principal, research.runOf(row), set.headers as Record<string, string>, (r) =>
          research.view(research.mustGetRow(principal.orgId, row.id), r, "summary"),
        );
      },
      {
        auth: "read",
        detail: {
          operationId: "streamResearchEvents",
          tags,
          summary: "Server-Sent Events: progress with stage and percent (first = current state), done with result_url",
          responses: { 200: { description: "text/event-stream", content: { "text/event-stream": { schema: { type: "string" } } } } },
        },
      },
    );
}
