// GET /api/v1/portfolio/updates: founders' updates and the figures read from them (CONTRACT.md, "Investor updates").
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { jsonResponses } from "../../http/openapi.ts";
import { authPlugin } from "../identity/auth.macro.ts";
import { UpdateListModel, UpdateListQuery } from "./updates.model.ts";
import { updatesService } from "./updates.service.ts";

export function updatesRoutes(deps: Deps) {
  const updates = updatesService(deps);
  return new Elysia({ prefix: "/api/v1/portfolio" }).use(authPlugin(deps)).get(
    "/updates",
    ({ principal, query }) => {
      const limit = query.limit ?? 50;
      const offset = query.offset ?? 0;
      const page = updates.list(principal.orgId, { companyId: query.company_id, status: query.status, limit, offset });
      return { ...page, limit, offset, scope: "org" as const, as_of: deps.clock.now().toISOString() };
    },
    {
      auth: "read",
      query: UpdateListQuery,
      detail: {
        responses: jsonResponses({ 200: UpdateListModel }),
        operationId: "listPortfolioUpdates",
        tags: ["Portfolio"],
        summary: "Founders' updates read from mail, with each figure's period, status and quote (filter by company and figure status)",
      },
    },
  );
}
