// Barrel of every table, for drizzle-kit and for typed queries. Each module owns its tables.
export * from "../modules/orgs/orgs.sql.ts";
export * from "../modules/api-keys/api-keys.sql.ts";
export * from "../modules/budgets/budgets.sql.ts";
export * from "../modules/network/network.sql.ts";
export * from "../modules/portfolio/portfolio.sql.ts";
export * from "../modules/funds/funds.sql.ts";
export * from "../modules/actions/actions.sql.ts";
export * from "../modules/web/web.sql.ts";
export * from "../modules/deals/deals.sql.ts";
export * from "../modules/webhooks/webhooks.sql.ts";
export * from "../modules/founders/founders.sql.ts";
export * from "../modules/research/research.sql.ts";
export * from "../modules/mcp/mcp.sql.ts";
