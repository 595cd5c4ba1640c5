// GET /api/v1/me/connections: the key user's connected mailboxes and calendars, as
// `dealgraph connections list` shows them (any key; never a credential); and
// GET /api/v1/me/connections/{connection_id}/ledger: one of them's sync ledger, a page at a time
// (`limit`, `offset`; another user's: 404).
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { jsonResponses } from "../../http/openapi.ts";
import { authPlugin } from "../identity/auth.macro.ts";
import { connectionsLedger } from "./connections.ledger.ts";
import { LedgerQuery, LedgerResponse } from "./connections.ledger.model.ts";
import { ConnectionsResponse } from "./connections.model.ts";
import { connectionsService } from "./connections.service.ts";

export function connectionRoutes(deps: Deps) {
  const service = connectionsService(deps);
  const ledger = connectionsLedger(deps);
  return new Elysia({ prefix: "/api/v1/me" })
    .use(authPlugin(deps))
    .get(
    "/connections",
    ({ principal }) => ({ connections: service.list(principal.userId), scope: "key_user" as const, as_of: deps.clock.now().toISOString() }),
    {
      auth: "read",
      detail: {
        operationId: "listMyConnections",
        tags: ["Identity"],
        summary: "The key user's connected mailboxes and calendars: status, last sync, counts, last error",
        responses: jsonResponses({ 200: ConnectionsResponse }),
      },
    },
  )
    .get("/connections/:connection_id/ledger", ({ principal, params, query }) => ledger.ledgerOf(params.connection_id, principal.userId, { limit: query.limit, offset: query.offset }), {
      auth: "read",
      query: LedgerQuery,
      detail: {
        operationId: "getMyConnectionLedger",
        tags: ["Identity"],
        summary: "A connected mailbox's sync ledger, a page at a time, oldest first: per sync and folder, the UIDs read and how each message was counted",
        responses: jsonResponses({ 200: LedgerResponse }),
      },
    });
}
