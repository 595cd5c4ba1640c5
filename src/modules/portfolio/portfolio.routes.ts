// The portfolio book over REST: the whole org's holdings (filtered, paged) and one metric's history.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { authPlugin } from "../identity/auth.macro.ts";
import { jsonResponses } from "../../http/openapi.ts";
import { CompanyIdParams, HoldingListModel, HoldingListQuery, MetricHistoryModel, MetricHistoryQuery } from "./portfolio.model.ts";
import { portfolioService } from "./portfolio.service.ts";

const tags = ["Portfolio"];

export function portfolioRoutes(deps: Deps) {
  const portfolio = portfolioService(deps);
  const asOf = () => deps.clock.now().toISOString();

  return new Elysia({ prefix: "/api/v1/portfolio" })
    .use(authPlugin(deps))
    .get(
      "/companies",
      ({ principal, query }) => {
        const limit = query.limit ?? 50;
        const offset = query.offset ?? 0;
        const { total, companies } = portfolio.list(principal.orgId, { status: query.status, fundName: query.fund_name, q: query.q, limit, offset });
        return { scope: "org" as const, companies, total, limit, offset, has_more: offset + companies.length < total, as_of: asOf() };
      },
      {
        auth: "read",
        query: HoldingListQuery,
        detail: {
          responses: jsonResponses({ 200: HoldingListModel }),
          operationId: "listPortfolioCompanies",
          tags,
          summary: "The whole org book: holdings with figures and latest metrics (filter by status, fund, name)",
        },
      },
    )
    .get(
      "/companies/:company_id/metrics",
      ({ principal, params, query }) => ({
        ...portfolio.metricHistory(principal.orgId, params.company_id, query),
        scope: "org" as const,
        as_of: asOf(),
      }),
      {
        auth: "read",
        params: CompanyIdParams,
        query: MetricHistoryQuery,
        detail: {
          responses: jsonResponses({ 200: MetricHistoryModel }),
          operationId: "getPortfolioCompanyMetrics",
          tags,
          summary: "The dated history of one metric of one holding, actuals and budgets marked",
        },
      },
    );
}
