// Founders' updates read from mail into the portfolio book (CONTRACT.md, "Investor updates"): a
// message is recognised (updates.recognise.ts), read (updates.mail.ts, the attachments through
// the document reader, updates.read.ts) and applied in one transaction (updates.apply.ts). The
// reads: the updates of the org with their figures, the review queue's actions, and the figures
// an update reported for the ask tool.
import { and, asc, count, desc, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import { perDeps, type Deps } from "../../deps.ts";
import { invalid, notFound } from "../../http/errors.ts";
import { isCalendarDate } from "../../lib/csv-fields.ts";
import { isUuid } from "../../lib/ids.ts";
import { portfolioService } from "../portfolio/portfolio.service.ts";
import { applyUpdate, sameValue, statementDateOf, type Counts } from "./updates.apply.ts";
import { readAttachments } from "./updates.attachments.ts";
import { readUpdateMail, type UpdateMail } from "./updates.mail.ts";
import { looksLikeUpdate, readUpdate, type Page } from "./updates.read.ts";
import { updatesRecognition, type OrgRecognition } from "./updates.recognise.ts";
import { investorUpdates as iu, updateFigures as uf } from "./updates.tables.ts";

export type IngestOptions = {
  userId: string | null;
  origin: "import" | "sync" | "demo";
  /** The org's holdings and members as read when a mail import or a sync began (recognition.snapshot); else looked up for this message. */
  recognition?: OrgRecognition;
};
export type IngestResult =
  | { outcome: "applied"; updateId: string; companyId: string; counts: Counts; problems: string[] }
  | { outcome: "duplicate"; messageId: string }
  | { outcome: "not_an_update"; reason: string };

export type FigureStatus = "applied" | "needs_review" | "rejected";
export const FIGURE_STATUSES: FigureStatus[] = ["applied", "needs_review", "rejected"];

type FigureRow = typeof uf.$inferSelect;

export const updatesService = perDeps((deps: Deps) => {
  const recognition = updatesRecognition(deps);
  const portfolio = portfolioService(deps);
  const { db, clock } = deps;

  /** Reads a raw message and, when it is an update from a holding of the org, applies it. */
  async function ingest(orgId: string, raw: Uint8Array | string, opts: IngestOptions): Promise<IngestResult> {
    const mail = await readUpdateMail(raw);
    return ingestMail(orgId, mail, opts);
  }

  async function ingestMail(orgId: string, mail: UpdateMail, opts: IngestOptions): Promise<IngestResult> {
    const recognise = opts.recognition ?? { holdingOf: (a: string | null) => recognition.holdingOf(orgId, a), isMember: (a: string | null) => recognition.isMember(orgId, a) };
    // A forward names its original sender only when a member of the org forwarded it.
    const sender = mail.forwarded && !recognise.isMember(mail.from) ? mail.from : mail.sender;
    const holding = recognise.holdingOf(sender);
    if (!holding) return { outcome: "not_an_update", reason: sender ? `${sender} is no holding's sender` : "the message has no sender" };
    if (alreadyHas(orgId, mail.messageId)) return { outcome: "duplicate", messageId: mail.messageId };
    const sent = mail.date ?? clock.now();
    const { pages: attached, problems } = await readAttachments(deps, mail.attachments);
    const pages: Page[] = [{ documentId: null, page: null, lines: mail.lines }, ...attached];
    const { period, figures } = readUpdate(mail.subject, pages, sent, holding.currency);
    // Mail from a holding that neither says it is an update nor reports two metrics (a job ad,
    // an invitation) is not an update: a stray "team of 26" in it is no figure for the book.
    if (!looksLikeUpdate(mail.subject, mail.lines) && new Set(figures.map((f) => f.metric)).size < 2) {
      return { outcome: "not_an_update", reason: "the message neither calls itself an update nor reports two metrics" };
    }
    // A holding's thread that names no figure ("Re: Hiring: VP Sales", a reply quoting last month's
    // numbers) is no update either: an update with nothing to apply or review, and its webhook
    // event, would be noise (a mailbox import reads every message from a holding's domain). One
    // whose attachment could not be read stays, so the problem is seen.
    if (figures.length === 0 && problems.length === 0) return { outcome: "not_an_update", reason: "no figure was found in the message" };
    const applied = applyUpdate(deps, {
      orgId,
      holding,
      messageId: mail.messageId,
      from: sender!,
      userId: opts.userId,
      subject: mail.subject,
      receivedAt: sent.toISOString(),
      periodEnd: period && !period.relative ? period.end : null,
      origin: opts.origin,
      problems,
      figures,
    });
    if (!applied) return { outcome: "duplicate", messageId: mail.messageId };
    return { outcome: "applied", updateId: applied.updateId, companyId: holding.id, counts: applied.counts, problems };
  }

  function alreadyHas(orgId: string, messageId: string): boolean {
    return !!db.select({ id: iu.id }).from(iu).where(and(eq(iu.orgId, orgId), eq(iu.messageId, messageId))).get();
  }

  function figureView(f: FigureRow, messageId: string) {
    return {
      figure_id: f.id,
      metric: f.metric,
      value: f.value,
      unit: f.unit,
      currency: f.currency,
      period_end: f.periodEnd,
      status: f.status,
      reason: f.reason,
      quote: f.quote,
      source: { message_id: messageId, document_id: f.documentId, page: f.page },
    };
  }

  /** One page of the org's updates, newest first, with their figures (filtered by status when asked). */
  function list(orgId: string, q: { companyId?: string; status?: FigureStatus; limit: number; offset: number }) {
    const where: SQL[] = [eq(iu.orgId, orgId)];
    if (q.companyId !== undefined) {
      const holding = portfolio.mustGetHolding(orgId, q.companyId);
      where.push(eq(iu.companyKey, holding.companyKey));
    }
    if (q.status) where.push(sql`EXISTS (SELECT 1 FROM update_figures f WHERE f.update_id = ${iu.id} AND f.status = ${q.status})`);
    const total = db.select({ n: count() }).from(iu).where(and(...where)).get()!.n;
    const rows = db
      .select()
      .from(iu)
      .where(and(...where))
      .orderBy(desc(iu.receivedAt), desc(iu.id))
      .limit(q.limit)
      .offset(q.offset)
      .all();
    const names = new Map(portfolio.holdingsForMail(orgId).map((h) => [h.id, h.name]));
    const figures = rows.length
      ? db
          .select()
          .from(uf)
          .where(and(inArray(uf.updateId, rows.map((r) => r.id)), q.status ? eq(uf.status, q.status) : undefined))
          .orderBy(asc(uf.updateId), asc(uf.position))
          .all()
      : [];
    const byUpdate = Map.groupBy(figures, (f) => f.updateId);
    const updates = rows.map((r) => ({
      update_id: r.id,
      company_id: r.holdingId,
      company_name: names.get(r.holdingId) ?? null,
      from: r.fromAddress,
      subject: r.subject,
      received_at: r.receivedAt,
      period_end: r.periodEnd,
      problems: r.problems,
      figures: (byUpdate.get(r.id) ?? []).map((f) => figureView(f, r.messageId)),
    }));
    return { updates, total, has_more: q.offset + rows.length < total };
  }

  function mustGetFigure(orgId: string, figureId: number) {
    const row = Number.isSafeInteger(figureId) ? db.select().from(uf).innerJoin(iu, eq(iu.id, uf.updateId)).where(and(eq(uf.orgId, orgId), eq(uf.id, figureId))).get() : undefined;
    if (!row) throw notFound(`No update figure with id ${figureId}`);
    return row;
  }

  /**
   * The review queue's decisions. `accept` writes the figure as the actual of its period (the
   * reviewer's word overrides an actual already there); `reject` takes back a point the figure
   * wrote; `period` corrects the period (an applied figure goes back to review under its new period).
   */
  function review(orgId: string, userId: string, figureId: number, action: { decision: "accept" | "reject" } | { decision: "period"; periodEnd: string }) {
    const { update_figures: f, investor_updates: u } = mustGetFigure(orgId, figureId);
    const now = clock.now().toISOString();
    db.transaction(() => {
      if (action.decision === "period") {
        if (!isCalendarDate(action.periodEnd)) throw invalid(["body", "period_end"], "period_end must be a date (YYYY-MM-DD)", "date_from_datetime_parsing");
        if (f.pointId !== null && f.status === "applied") portfolio.removeUpdatePoint(orgId, f.pointId, u.id);
        db.update(uf)
          .set({ periodEnd: action.periodEnd, status: "needs_review", reason: "period corrected by a reviewer: accept to apply", pointId: null, reviewedBy: userId, reviewedAt: now })
          .where(eq(uf.id, f.id))
          .run();
        return;
      }
      if (action.decision === "reject") {
        if (f.pointId !== null && f.status === "applied") portfolio.removeUpdatePoint(orgId, f.pointId, u.id);
        db.update(uf).set({ status: "rejected", reason: "rejected by a reviewer", pointId: null, reviewedBy: userId, reviewedAt: now }).where(eq(uf.id, f.id)).run();
        return;
      }
      if (!f.periodEnd) throw invalid(["body", "period_end"], "the figure has no period: correct its period before accepting it", "missing");
      const existing = portfolio.actualAtDate(orgId, u.companyKey, f.metric, statementDateOf(f.periodEnd));
      const pointId =
        existing && sameValue(existing.value, f.value) && existing.currency === f.currency
          ? existing.id
          : portfolio.writeUpdatePoint(orgId, { companyKey: u.companyKey, metric: f.metric, statementDate: statementDateOf(f.periodEnd), value: f.value, unit: f.unit, currency: f.currency, updateId: u.id, quote: f.quote });
      db.update(uf).set({ status: "applied", reason: null, pointId, reviewedBy: userId, reviewedAt: now }).where(eq(uf.id, f.id)).run();
    });
    const after = mustGetFigure(orgId, figureId);
    return figureView(after.update_figures, after.investor_updates.messageId);
  }

  /**
   * The figures the company's updates reported and the book holds (applied), newest period first:
   * what the ask tool answers "what did Acme report last month?" from, each with its quote.
   */
  function reportedFigures(orgId: string, companyId: string, range: { since?: string; until?: string } = {}) {
    const holding = portfolio.mustGetHolding(orgId, companyId);
    const where = [eq(uf.orgId, orgId), eq(iu.companyKey, holding.companyKey), eq(uf.status, "applied")];
    if (range.since) where.push(gte(uf.periodEnd, range.since));
    if (range.until) where.push(lte(uf.periodEnd, range.until));
    return db
      .select({ update_id: iu.id, metric: uf.metric, value: uf.value, unit: uf.unit, currency: uf.currency, period_end: uf.periodEnd, quote: uf.quote, received_at: iu.receivedAt, subject: iu.subject })
      .from(uf)
      .innerJoin(iu, eq(iu.id, uf.updateId))
      .where(and(...where))
      .orderBy(desc(uf.periodEnd), asc(uf.metric))
      .all()
      .map((r) => ({ ...r, company_id: holding.id, company_name: holding.name }));
  }

  /** Figures read from updates and waiting for review (of one company, or the whole org), each with why it waits. */
  function figuresForReview(orgId: string, companyId?: string) {
    const holding = companyId ? portfolio.mustGetHolding(orgId, companyId) : null;
    const where = [eq(uf.orgId, orgId), eq(uf.status, "needs_review")];
    if (holding) where.push(eq(iu.companyKey, holding.companyKey));
    return db
      .select({ update_id: iu.id, holding_id: iu.holdingId, metric: uf.metric, value: uf.value, unit: uf.unit, currency: uf.currency, period_end: uf.periodEnd, reason: uf.reason, quote: uf.quote, received_at: iu.receivedAt, subject: iu.subject })
      .from(uf)
      .innerJoin(iu, eq(iu.id, uf.updateId))
      .where(and(...where))
      .orderBy(desc(iu.receivedAt), asc(uf.position))
      .all();
  }

  /** Figures waiting for review in the org (the page's count). */
  function reviewCount(orgId: string): number {
    return db.select({ n: count() }).from(uf).where(and(eq(uf.orgId, orgId), eq(uf.status, "needs_review"))).get()!.n;
  }

  return { ingest, ingestMail, alreadyHas, list, review, reportedFigures, figuresForReview, reviewCount, mustGetFigure };
});

/** Whether an id is a holding id the list's filter can take (a malformed one is a 422, not a 404). */
export const isCompanyId = isUuid;
