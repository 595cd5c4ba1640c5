// The review queue of founders' updates (/app/portfolio/updates): the org's updates with their
// figures, and a figure's decision (accept, reject, a corrected period) as a form post with the
// session's CSRF token. Another org's figure is 404; reads and writes go through the updates service.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { invalid } from "../../http/errors.ts";
import { isCalendarDate } from "../../lib/csv-fields.ts";
import { FIGURE_STATUSES, updatesService, type FigureStatus } from "../updates/updates.service.ts";
import { updatesPage } from "./pages/updates.ts";
import { refusalText, guard } from "./web.guard.ts";
import { htmlResponse, pageNumber, redirect, safeNext } from "./web.http.ts";

const hidden = { detail: { hide: true } };
const PAGE = 20;

export function updatePages(deps: Deps) {
  const updates = updatesService(deps);
  return new Elysia({ prefix: "/app" })
    .get(
      "/portfolio/updates",
      guard(deps, {}, (c) => {
        const status = (c.url.searchParams.get("status") ?? "needs_review").trim();
        if (status !== "all" && !FIGURE_STATUSES.includes(status as FigureStatus)) throw invalid(["query", "status"], `Unknown status “${status.slice(0, 40)}”: use needs_review, applied, rejected or all.`);
        const page = pageNumber(c.url);
        const found = updates.list(c.org.id, { status: status === "all" ? undefined : (status as FigureStatus), limit: PAGE, offset: (page - 1) * PAGE });
        const view = { status, updates: found.updates, total: found.total, page, pageSize: PAGE, waiting: updates.reviewCount(c.org.id) };
        return htmlResponse(updatesPage(c.shell("Founders' updates", "portfolio"), view));
      }),
      hidden,
    )
    .post(
      "/portfolio/updates/figures/:figure_id",
      guard(deps, {}, (c) => {
        const back = safeNext(c.fields.back || "/app/portfolio/updates");
        const id = Number(c.params.figure_id);
        // An unknown or another org's figure is 404 (the error page), not a flash.
        updates.mustGetFigure(c.org.id, id);
        const decision = c.fields.decision;
        try {
          if (decision === "accept" || decision === "reject") {
            const f = updates.review(c.org.id, c.user.id, id, { decision });
            c.flash({ kind: "success", text: decision === "accept" ? `Applied: ${f.metric} ${f.value.toLocaleString("en-US")} for ${f.period_end}.` : `Rejected: ${f.metric} ${f.value.toLocaleString("en-US")}.` });
          } else if (decision === "period") {
            const periodEnd = (c.fields.period_end ?? "").trim();
            if (!isCalendarDate(periodEnd)) throw invalid(["body", "period_end"], "Give the last day of the period as a date (YYYY-MM-DD).");
            const f = updates.review(c.org.id, c.user.id, id, { decision: "period", periodEnd });
            c.flash({ kind: "success", text: `Period corrected to ${f.period_end}: accept the figure to apply it.` });
          } else throw invalid(["body", "decision"], "Choose accept, reject or period.");
        } catch (error) {
          c.flash({ kind: "error", text: refusalText(error) });
        }
        return redirect(back);
      }),
      hidden,
    );
}
