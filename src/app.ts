// createApp(deps): every module is mounted here, top to bottom. Read it as the table of contents.
import { Elysia, type AnyElysia } from "elysia";
import type { Deps } from "./deps.ts";
import { errorHandlerPlugin } from "./http/error-handler.ts";
import { openApiRoutes } from "./http/openapi.ts";
import { requestIdPlugin } from "./http/request-id.ts";
import { apiKeyRoutes } from "./modules/identity/keys.routes.ts";
import { meRoutes } from "./modules/identity/me.routes.ts";
import { connectionRoutes } from "./modules/connections/connections.routes.ts";
import { dealDataRoomRoutes } from "./modules/deals/deals.data-room.routes.ts";
import { dealRoutes } from "./modules/deals/deals.routes.ts";
import { dealVerificationRoutes } from "./modules/deals/deals.verification.routes.ts";
import { founderRoutes } from "./modules/founders/founders.routes.ts";
import { fundsRoutes } from "./modules/funds/funds.routes.ts";
import { mcpRoutes } from "./modules/mcp/mcp.routes.ts";
import { oauthRoutes } from "./modules/oauth/oauth.routes.ts";
import { healthRoutes } from "./modules/health/health.routes.ts";
import { networkRoutes } from "./modules/network/network.routes.ts";
import { portfolioRoutes } from "./modules/portfolio/portfolio.routes.ts";
import { updatesRoutes } from "./modules/updates/updates.routes.ts";
import { researchRoutes } from "./modules/research/research.routes.ts";
import { webRoutes } from "./modules/web/web.routes.ts";
import { webhookRoutes } from "./modules/webhooks/webhooks.routes.ts";

export function createApp(deps: Deps) {
  const app: AnyElysia = new Elysia()
    // shared behaviour of every response
    .use(requestIdPlugin)
    .use(errorHandlerPlugin(deps.log, () => app.routes))
    // unauthenticated
    .use(healthRoutes(deps))
    .use(openApiRoutes(() => app))
    // /api/v1, each module behind the auth macro
    .use(meRoutes(deps))
    .use(apiKeyRoutes(deps))
    // network intelligence, and the mailboxes and calendars that feed it
    .use(networkRoutes(deps))
    .use(connectionRoutes(deps))
    // deals and their analyses
    .use(dealRoutes(deps))
    .use(founderRoutes(deps))
    .use(dealDataRoomRoutes(deps))
    .use(dealVerificationRoutes(deps))
    // portfolio and funds
    .use(portfolioRoutes(deps))
    .use(updatesRoutes(deps))
    .use(fundsRoutes(deps))
    // research over the firm's own records
    .use(researchRoutes(deps))
    // webhooks: endpoints, secrets and the delivery ledger
    .use(webhookRoutes(deps))
    // the MCP door (/mcp): the same keys, or an MCP sign-in token; one conversational tool
    .use(mcpRoutes(deps))
    // MCP sign-in (OAuth 2.1): discovery, client registration, tokens, revocation (consent: /app)
    .use(oauthRoutes(deps))
    // web app (/app: sessions, not keys; hidden from the OpenAPI document)
    .use(webRoutes(deps));
  return app;
}

export type App = ReturnType<typeof createApp>;
