// The LP book over REST: positions with totals, the cashflow ledger and the marks trace. Whole-book
// reads with no pagination; each takes an optional exact `fund_name`.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { authPlugin } from "../identity/auth.macro.ts";
import { jsonResponses } from "../../http/openapi.ts";
import { CashflowsModel, FundFilterQuery, MarksModel, PositionsModel } from "./funds.model.ts";
import { fundsService } from "./funds.service.ts";

const tags = ["Funds"];

export function fundsRoutes(deps: Deps) {
  const funds = fundsService(deps);
  const asOf = () => deps.clock.now().toISOString();

  return new Elysia({ prefix: "/api/v1/funds" })
    .use(authPlugin(deps))
    .get("/positions", ({ principal, query }) => ({ scope: "org" as const, ...funds.positions(principal.orgId, query.fund_name), as_of: asOf() }), {
      auth: "read",
      query: FundFilterQuery,
      detail: {
        responses: jsonResponses({ 200: PositionsModel }),
        operationId: "listFundPositions",
        tags,
        summary: "Each commitment's called, distributed, NAV, TVPI/DPI/RVPI, net IRR and data-quality flags, with totals",
      },
    })
    // The ledger comes as JSON bytes, written inside the envelope (see funds.ledger.ts).
    .get("/cashflows", ({ principal, query }) => {
      const body = funds.cashflowsJsonBytes(principal.orgId, query.fund_name, { head: '{"scope":"org","cashflows":', tail: `,"as_of":${JSON.stringify(asOf())}}` });
      return new Response(body, { headers: { "content-type": "application/json" } });
    }, {
      auth: "read",
      query: FundFilterQuery,
      detail: { responses: jsonResponses({ 200: CashflowsModel }), operationId: "listFundCashflows", tags, summary: "The dated call and distribution ledger" },
    })
    .get("/marks", ({ principal, query }) => ({ scope: "org" as const, marks: funds.marks(principal.orgId, query.fund_name), as_of: asOf() }), {
      auth: "read",
      query: FundFilterQuery,
      detail: { responses: jsonResponses({ 200: MarksModel }), operationId: "listFundMarks", tags, summary: "Each commitment's dated NAV and TVPI trace" },
    });
}
