// The research pages: the org's runs and the form that starts one (the research service's start,
// with an idempotency key made per form, so a double submit is one run and one charge), one run
// with its report and citations linked to their sources, and its progress as an event stream.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { ApiError } from "../../http/errors.ts";
import { runEvents } from "../actions/actions.events.ts";
import { dealsService } from "../deals/deals.service.ts";
import { orgsService } from "../identity/orgs.service.ts";
import { webBudgets } from "../identity/web-budgets.service.ts";
import { portfolioService } from "../portfolio/portfolio.service.ts";
import { QUERY_MAX } from "../research/research.model.ts";
import { researchService } from "../research/research.service.ts";
import type { Citation } from "../../engines/research-engine.ts";
import { researchListPage, researchPage, type CitationView } from "./pages/research.ts";
import { guard, refusalText, sessionPrincipal, type WebCtx } from "./web.guard.ts";
import { htmlResponse, pageNumber, redirect } from "./web.http.ts";
import { randomToken } from "./web.service.ts";

const hidden = { detail: { hide: true } };
const PAGE = 25;

export function researchPages(deps: Deps) {
  const research = researchService(deps);
  const orgs = orgsService(deps);
  const deals = dealsService(deps);
  const portfolio = portfolioService(deps);
  const budgets = webBudgets(deps);

  const authors = (orgId: string) => new Map(orgs.listMembers(orgId).map((m) => [m.id, m.name]));

  /** Where a citation's record is shown in the app; null when it no longer resolves in the org. */
  function sourceHref(orgId: string, c: Citation): string | null {
    switch (c.source_type) {
      case "document": {
        const dealId = deals.documentDeal(orgId, c.source_id);
        return dealId ? `/app/deals/${dealId}/documents/${c.source_id}?${new URLSearchParams({ quote: c.quote.slice(0, 500) })}${c.page ? `#page-${c.page}` : ""}` : null;
      }
      case "deal":
        return `/app/deals/${c.source_id}`;
      case "metric_point": {
        const holding = portfolio.holdingOfMetricPoint(orgId, c.source_id);
        return holding ? `/app/portfolio/${holding}` : null;
      }
      case "fund_commitment":
        return `/app/funds#c-${c.source_id}`;
      case "person":
        return `/app/who-knows?${new URLSearchParams({ person: c.source_id })}`;
      default:
        return null;
    }
  }

  function renderList(c: WebCtx & { org: { id: string } }, form: { query: string; error: string | null } = { query: "", error: null }, status = 200): Response {
    const page = pageNumber(c.url);
    const found = research.listPage(c.org.id, { limit: PAGE, offset: (page - 1) * PAGE });
    const names = authors(c.org.id);
    const view = {
      runs: found.runs.map((r) => ({ ...r, author: names.get(r.created_by) ?? null })),
      total: found.total,
      page,
      pageSize: PAGE,
      budget: budgets.today(c.user.id),
      // A fresh key per form: submitting the same form twice is one run, charged once.
      form: { ...form, key: `web-${randomToken(18)}` },
      queryMax: QUERY_MAX,
    };
    return htmlResponse(researchListPage(c.shell("Research", "research"), view), status);
  }

  return new Elysia({ prefix: "/app/research" })
    .get("", guard(deps, {}, (c) => renderList(c)), hidden)
    .post(
      "",
      guard(deps, {}, async (c) => {
        const query = c.fields.query ?? "";
        try {
          const { body } = await research.start(sessionPrincipal(deps, c.user, c.org), { query, idempotency_key: c.fields.idempotency_key });
          c.flash({ kind: body.existing ? "info" : "success", text: body.existing ? "This form was already sent: here is the run it started." : "Research started: the report appears here when it is written." });
          return redirect(`/app/research/${body.research_id}`);
        } catch (error) {
          const message = refusalText(error);
          const status = (error as ApiError).status;
          if (status === 422) return renderList(c, { query: query.slice(0, QUERY_MAX), error: message }, 422);
          c.flash({ kind: "error", text: `Not started: ${message}` });
          return renderList(c, { query: query.slice(0, QUERY_MAX), error: null }, status);
        }
      }),
      hidden,
    )
    .get(
      "/:research_id",
      guard(deps, {}, (c) => {
        const row = research.mustGetRow(c.org.id, c.params.research_id);
        const record = research.view(row, research.runOf(row), "full");
        const citations: CitationView[] = (record.citations ?? []).map((cite) => ({ ...cite, href: sourceHref(c.org.id, cite) }));
        const view = { ...record, citations, created_at: row.created_at, author: authors(c.org.id).get(row.created_by) ?? null };
        return htmlResponse(researchPage(c.shell("Research", "research"), view));
      }),
      hidden,
    )
    .get(
      "/:research_id/events",
      guard(deps, {}, (c) => {
        const row = research.mustGetRow(c.org.id, c.params.research_id);
        return runEvents(deps, sessionPrincipal(deps, c.user, c.org), research.runOf(row), {}, (r) =>
          research.view(research.mustGetRow(c.org.id, row.id), r, "summary"),
        );
      }),
      hidden,
    );
}
