// Budget figures as HTTP: the X-RateLimit-* headers of every success, the X-Actions-* headers of
// every action, and the 429 that says which daily limit was reached and when it resets.
import type { Deps } from "../../deps.ts";
import { budgetsService, type BudgetDecision, type BudgetKey } from "./budgets.service.ts";
import { ApiError } from "../../http/errors.ts";

export function rateLimitHeaders(d: BudgetDecision): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(d.limit),
    "X-RateLimit-Remaining": String(d.remaining),
    "X-RateLimit-Reset": String(d.resetSeconds),
  };
}

export function actionHeaders(d: Pick<BudgetDecision, "limit" | "remaining">): Record<string, string> {
  return { "X-Actions-Limit": String(d.limit), "X-Actions-Remaining": String(d.remaining) };
}

/** What spends a budget, in words: an API key, or a connected app (an MCP sign-in grant). */
export type BudgetHolder = { oauthClient?: string };
const holderWords = (h: BudgetHolder) => (h.oauthClient !== undefined ? "this connected app" : "this API key");

export function dailyLimitReached(kind: "request" | "actions", d: BudgetDecision, headers: Record<string, string>, holder: BudgetHolder = {}, perUser = false): ApiError {
  const whose = perUser
    ? `for ${holderWords(holder)}'s user (a user's API keys, connected apps and web sessions share one count of actions a day)`
    : `for ${holderWords(holder)}`;
  return new ApiError(429, `Daily ${kind} limit of ${d.limit} reached ${whose}; it resets at 00:00 UTC (in ${d.resetSeconds} seconds).`, {
    ...headers,
    "Retry-After": String(d.resetSeconds),
  });
}

/**
 * Charges one action, or throws the 429 (with X-Actions-* and Retry-After). A key or grant of a
 * user (`userId`) spends the user's shared daily actions (all their keys, apps and web sessions),
 * within the key's own actions limit; without a user, the key's own count. Call it inside the
 * transaction that dispatches the run: a rejected, deduplicated or conflicting request never
 * reaches it, and a dispatch that fails rolls the charge back. Returns the headers the 202 must carry.
 */
export function chargeAction(deps: Deps, key: BudgetKey & BudgetHolder & { dailyActions: number }): Record<string, string> {
  const budgets = budgetsService(deps);
  const userId = key.userId;
  const decision = userId ? budgets.chargeUserAction({ ...key, userId }, key.dailyActions) : budgets.chargeAction(key, key.dailyActions);
  const headers = actionHeaders(decision);
  if (!decision.allowed) throw dailyLimitReached("actions", decision, headers, key, Boolean(userId));
  return headers;
}

/**
 * Counts `extra` more requests (beyond the one the auth hook counted) against the key's daily
 * request budget, all or none: each further message of an MCP JSON-RPC batch is one. Updates the
 * X-RateLimit-* headers in `set`, or throws the 429 when they do not all fit (charging nothing).
 */
export function countExtraRequests(deps: Deps, key: BudgetKey & BudgetHolder & { dailyRequests: number }, extra: number, set: { headers: Record<string, unknown> }): void {
  if (extra <= 0) return;
  const decision = budgetsService(deps).countRequest(key, key.dailyRequests, extra);
  const headers = rateLimitHeaders(decision);
  Object.assign(set.headers, headers);
  if (!decision.allowed) throw dailyLimitReached("request", decision, headers, key);
}
