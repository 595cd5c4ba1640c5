// Writing one update: the update, its figures, the actuals its applied figures write into the
// book, and its webhook event, in ONE transaction. The update is keyed by its Message-ID within
// the org, so the same mail synced twice, or imported and synced, applies once, and an import
// killed at any point leaves each update either wholly written or not at all. A figure whose
// period already has a different actual in the book goes to review instead of overwriting it.
import { and, eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { newId } from "../../lib/ids.ts";
import { actionsService } from "../actions/actions.service.ts";
import { portfolioService } from "../portfolio/portfolio.service.ts";
import { WEBHOOKS_WAKE_TOPIC } from "../webhooks/webhooks.service.ts";
import type { Draft } from "./updates.read.ts";
import type { RecognisedHolding } from "./updates.recognise.ts";
import { investorUpdates, updateFigures } from "./updates.tables.ts";

export const UPDATE_EVENT = "portfolio.update.received";

export type NewUpdate = {
  orgId: string;
  holding: RecognisedHolding;
  messageId: string;
  from: string;
  userId: string | null;
  subject: string;
  receivedAt: string;
  periodEnd: string | null;
  origin: "import" | "sync" | "demo";
  problems: string[];
  figures: Draft[];
};

export type Counts = { applied: number; needs_review: number; rejected: number };

export const statementDateOf = (periodEnd: string) => `${periodEnd}T00:00:00.000Z`;

/** Same figure: equal to the cent, in the same currency (or neither names one). */
export const sameValue = (a: number, b: number) => Math.abs(a - b) < 0.005;

const money = (v: number, currency: string | null) => `${v.toLocaleString("en-US", { maximumFractionDigits: 2 })}${currency ? ` ${currency}` : ""}`;

/** Writes an update and applies its figures; null when the org already has this message (nothing written). */
export function applyUpdate(deps: Deps, u: NewUpdate): { updateId: string; counts: Counts } | null {
  const portfolio = portfolioService(deps);
  const actions = actionsService(deps);
  const { db, clock } = deps;
  const result = db.transaction(() => {
    const exists = db
      .select({ id: investorUpdates.id })
      .from(investorUpdates)
      .where(and(eq(investorUpdates.orgId, u.orgId), eq(investorUpdates.messageId, u.messageId)))
      .get();
    if (exists) return null;
    const updateId = newId();
    const now = clock.now().toISOString();
    db.insert(investorUpdates)
      .values({
        id: updateId,
        orgId: u.orgId,
        holdingId: u.holding.id,
        companyKey: u.holding.companyKey,
        messageId: u.messageId,
        fromAddress: u.from,
        userId: u.userId,
        subject: u.subject,
        receivedAt: u.receivedAt,
        periodEnd: u.periodEnd,
        origin: u.origin,
        problems: u.problems.length ? u.problems.join("; ") : null,
        createdAt: now,
      })
      .run();
    const counts: Counts = { applied: 0, needs_review: 0, rejected: 0 };
    u.figures.forEach((f, position) => {
      let { status, reason } = f;
      let pointId: number | null = null;
      if (status === "applied" && f.periodEnd) {
        const date = statementDateOf(f.periodEnd);
        const existing = portfolio.actualAtDate(u.orgId, u.holding.companyKey, f.metric, date);
        if (existing && !(sameValue(existing.value, f.value) && (existing.currency ?? null) === (f.currency ?? null))) {
          status = "needs_review";
          reason = `the book already has ${money(existing.value, existing.currency)} for this period (${existing.source === "investor_update" ? "from another update" : "imported"})`;
        } else if (existing) {
          // The update confirms the book's actual: that point, with the update's quote as its evidence.
          pointId = existing.id;
          portfolio.attachEvidence(u.orgId, existing.id, updateId, f.quote);
        }
        else pointId = portfolio.writeUpdatePoint(u.orgId, { companyKey: u.holding.companyKey, metric: f.metric, statementDate: date, value: f.value, unit: f.unit, currency: f.currency, updateId, quote: f.quote });
      }
      counts[status]++;
      db.insert(updateFigures)
        .values({ orgId: u.orgId, updateId, position, metric: f.metric, value: f.value, unit: f.unit, currency: f.currency, periodEnd: f.periodEnd, status, reason, quote: f.quote, documentId: f.documentId, page: f.page, pointId })
        .run();
    });
    // The payload carries the update, its company and what became of its figures (CONTRACT.md).
    actions.recordEvent(u.orgId, UPDATE_EVENT, updateId, `/api/v1/portfolio/updates?company_id=${u.holding.id}`, updateId, { update_id: updateId, company_id: u.holding.id, counts });
    return { updateId, counts };
  });
  if (result) queueMicrotask(() => deps.bus.publish(WEBHOOKS_WAKE_TOPIC, result.updateId));
  return result;
}
