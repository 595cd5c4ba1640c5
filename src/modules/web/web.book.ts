// The book pages: the portfolio (holdings, filtered and paged), a portfolio company with every
// metric's history, and the LP funds (positions, totals, marks and the ledger as charts). Reads go
// through the portfolio and funds services with the member's org; another org's company is 404.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { invalid, notFound } from "../../http/errors.ts";
import { fundsService } from "../funds/funds.service.ts";
import { portfolioService } from "../portfolio/portfolio.service.ts";
import { fundsPage, type CashflowRow } from "./pages/funds.ts";
import { companyPage, portfolioPage } from "./pages/portfolio.ts";
import { guard } from "./web.guard.ts";
import { htmlResponse, pageNumber } from "./web.http.ts";

const hidden = { detail: { hide: true } };
const PAGE = 50;
const STATUSES = ["active", "exited", "written_off"];

export function bookPages(deps: Deps) {
  const portfolio = portfolioService(deps);
  const funds = fundsService(deps);

  return new Elysia({ prefix: "/app" })
    .get(
      "/portfolio",
      guard(deps, {}, (c) => {
        const p = c.url.searchParams;
        const status = (p.get("status") ?? "").trim();
        const fund = (p.get("fund") ?? "").trim();
        const q = (p.get("q") ?? "").trim();
        if (status && !STATUSES.includes(status)) throw invalid(["query", "status"], `Unknown status “${status.slice(0, 40)}”: use one of ${STATUSES.join(", ")}.`);
        if (q.length > 200 || fund.length > 200) throw invalid(["query", q.length > 200 ? "q" : "fund"], "Search for at most 200 characters.");
        const pageNo = pageNumber(c.url);
        const found = portfolio.list(c.org.id, { status: status || undefined, fundName: fund || undefined, q: q || undefined, limit: PAGE, offset: (pageNo - 1) * PAGE });
        const view = { filters: { status, fund, q }, funds: portfolio.fundNames(c.org.id), companies: found.companies, total: found.total, page: pageNo, pageSize: PAGE };
        return htmlResponse(portfolioPage(c.shell("Portfolio", "portfolio"), view));
      }),
      hidden,
    )
    .get(
      "/portfolio/:company_id",
      guard(deps, {}, (c) => {
        const company = portfolio.company(c.org.id, c.params.company_id);
        return htmlResponse(companyPage(c.shell(company.holding.name, "portfolio"), company));
      }),
      hidden,
    )
    .get(
      "/funds",
      guard(deps, {}, (c) => {
        const fund = (c.url.searchParams.get("fund") ?? "").trim();
        const names = funds.fundNames(c.org.id);
        // An exact fund name of the org's, as the API's filter; anything else names no fund.
        if (fund && !names.includes(fund)) throw notFound(`No LP fund named “${fund.slice(0, 80)}” in your organization.`);
        const only = fund || undefined;
        const positions = funds.positions(c.org.id, only);
        const cashflows = JSON.parse(funds.cashflowsJsonArray(c.org.id, only)) as CashflowRow[];
        const view = {
          fund,
          funds: names,
          positions: positions.positions,
          totals: positions.totals,
          totalsByCurrency: positions.totals_by_currency,
          marks: funds.marks(c.org.id, only),
          cashflows,
        };
        return htmlResponse(fundsPage(c.shell(fund || "Funds", "funds"), view));
      }),
      hidden,
    );
}
