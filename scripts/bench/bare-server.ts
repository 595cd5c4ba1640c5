// The baseline of scripts/bench/http.ts and portfolio.ts: a bare `Bun.serve` + `bun:sqlite`
// program answering from the same database file as Dealgraph, with the same work and nothing else.
// Its SQL is hand-written for the best plan, the way someone who knows SQLite would write it: a
// parameter the planner would otherwise look at is written `+$name`, so no statement is
// recompiled on each execution (see src/db/stable-statements.ts for why).
//
// GET /api/v1/me, per request:
//   1. reads the key from `Authorization: Bearer` or `X-API-Key` and hashes it (SHA-256, hex),
//      as Dealgraph does;
//   2. ONE SELECT: the key by its hash joined to its user, the user's org, today's key_usage row
//      and the key's last use (max(last_used_at) over all days);
//   3. ONE UPSERT counting the request in today's key_usage row (the same
//      INSERT ... ON CONFLICT DO UPDATE ... RETURNING Dealgraph's budget uses, including the
//      "still under the limit" condition), since the benchmarked request is budget-counted;
//   4. writes the JSON body of the same shape as Dealgraph's /api/v1/me.
// GET /api/v1/portfolio/companies?limit=N&offset=M: steps 1 to 3 as above, then the count of the
// org's holdings, the page (name order, with each holding's position count), the latest actual of
// each metric of the page's companies (portfolio_latest_actuals), and the page as Dealgraph's JSON.
// GET /api/v1/deals/{id}?view=full: steps 1 to 3, then the deal's row by id and org, its facts
// parsed for the record's fields and its stored analysis written into the body as it is.
// Not done: checksum or format checks on the key, revocation/expiry decisions, 401/403/429
// bodies beyond a bare 401, X-RateLimit-* / X-Request-Id headers, validation, logging, routing
// beyond these paths, filters. The connection gets the same pragmas as Dealgraph's (WAL,
// synchronous=NORMAL, busy_timeout, foreign_keys, the page cache and map), so the write costs the same.
//
//   bun scripts/bench/bare-server.ts --db PATH [--port P]
// prints `bare listening on http://127.0.0.1:PORT` once ready.
import { Database } from "bun:sqlite";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { db: { type: "string" }, port: { type: "string" } } });
if (!values.db) {
  console.error("usage: bun scripts/bench/bare-server.ts --db PATH [--port P]");
  process.exit(2);
}

const DEFAULT_DAILY_REQUESTS = 5000;
const DEFAULT_DAILY_ACTIONS = 25;

const db = new Database(values.db, { strict: true });
db.exec("PRAGMA busy_timeout = 5000");
db.exec("PRAGMA journal_mode = WAL");
db.exec("PRAGMA synchronous = NORMAL");
db.exec("PRAGMA foreign_keys = ON");
db.exec(`PRAGMA cache_size = ${-64 * 1024}`);
db.exec(`PRAGMA mmap_size = ${256 * 1024 * 1024}`);

type Row = {
  key_id: string;
  key_name: string;
  scope: string;
  prefix: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  daily_requests: number | null;
  daily_actions: number | null;
  rotated_from_id: string | null;
  user_id: string;
  user_name: string;
  email: string;
  share_network: number;
  org_id: string;
  org_name: string;
  actions_today: number | null;
  last_used_at: string | null;
};

const lookup = db.query<Row, { hash: string; day: string }>(`
  SELECT k.id AS key_id, k.name AS key_name, k.scope, k.prefix, k.created_at, k.expires_at, k.revoked_at,
         k.daily_requests, k.daily_actions, k.rotated_from_id,
         u.id AS user_id, u.name AS user_name, u.email, u.share_network,
         o.id AS org_id, o.name AS org_name,
         today.actions AS actions_today,
         (SELECT max(last_used_at) FROM key_usage WHERE key_id = k.id) AS last_used_at
  FROM api_keys k
  JOIN users u ON u.id = k.user_id
  JOIN orgs o ON o.id = u.org_id
  LEFT JOIN key_usage today ON today.key_id = k.id AND today.day = +$day
  WHERE k.secret_hash = +$hash`);

const count = db.query<{ requests: number }, { keyId: string; day: string; now: string; limit: number }>(`
  INSERT INTO key_usage (key_id, day, requests, last_used_at) VALUES ($keyId, $day, 1, $now)
  ON CONFLICT (key_id, day) DO UPDATE SET requests = requests + 1, last_used_at = excluded.last_used_at
  WHERE key_usage.requests < +$limit
  RETURNING requests`);

function secretOf(req: Request): string | null {
  const auth = req.headers.get("authorization");
  if (auth?.startsWith("Bearer ")) return auth.slice(7).trim();
  return req.headers.get("x-api-key");
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json;charset=utf-8" } });

// The portfolio page: the count, the page in name order, and the latest actuals of its companies.
type HoldingRow = {
  id: string; name: string; website: string; company_key: string; sector: string; stage: string; status: string; fund_name: string; holding_type: string;
  investment_date: string; ownership_percentage: number | null; invested: number | null; current_valuation: number | null; currency: string | null; position_count: number;
};
const holdingCount = db.query<{ n: number }, { org: string }>("SELECT count(*) AS n FROM portfolio_holdings WHERE org_id = +$org");
const holdingPage = db.query<HoldingRow, { org: string; limit: number; offset: number }>(`
  SELECT h.id, h.name, h.website, h.company_key, h.sector, h.stage, h.status, h.fund_name, h.holding_type, h.investment_date,
         h.ownership_percentage, h.invested, h.current_valuation, h.currency,
         (SELECT count(*) FROM portfolio_holdings s WHERE s.org_id = h.org_id AND s.company_key = h.company_key) AS position_count
  FROM portfolio_holdings h WHERE h.org_id = +$org ORDER BY h.name_fold, h.fund_name LIMIT +$limit OFFSET +$offset`);
const latestActuals = db.query<never, { org: string; keys: string }>(`
  SELECT j.key, l.metric, l.value, l.unit, l.currency, l.statement_date
  FROM json_each(+$keys) j CROSS JOIN portfolio_latest_actuals l ON l.org_id = +$org AND l.company_key = j.value`);
const cents = (x: number | null) => (x === null ? null : Math.round(x * 100) / 100);

function portfolioPage(orgId: string, url: URL, asOf: string) {
  const limit = Number(url.searchParams.get("limit") ?? 50);
  const offset = Number(url.searchParams.get("offset") ?? 0);
  const total = holdingCount.get({ org: orgId })!.n;
  const rows = offset < total ? holdingPage.all({ org: orgId, limit, offset }) : [];
  const metrics = new Map<string, Record<string, unknown>>(rows.map((r) => [r.company_key, {}]));
  if (rows.length) {
    const byIndex = [...metrics.values()];
    const latest = latestActuals.values({ org: orgId, keys: JSON.stringify([...metrics.keys()]) }) as [number, string, number, string | null, string | null, string][];
    for (const [i, metric, value, unit, currency, statement_date] of latest) byIndex[i][metric] = { value, unit, currency, statement_date };
  }
  const companies = rows.map((h) => ({
    company_id: h.id, name: h.name, website: h.website, sector: h.sector, stage: h.stage, status: h.status, fund_name: h.fund_name,
    holding_type: h.holding_type, investment_date: h.investment_date, ownership_percentage: h.ownership_percentage,
    invested: cents(h.invested), current_valuation: cents(h.current_valuation), currency: h.currency,
    value_multiple: h.invested && h.current_valuation !== null ? Math.round((h.current_valuation / h.invested) * 10_000) / 10_000 : null,
    position_count: h.position_count, metrics: metrics.get(h.company_key),
  }));
  return { scope: "org", companies, total, limit, offset, has_more: offset + companies.length < total, as_of: asOf };
}

// A deal: the row, the facts parsed for the record, the analysis as stored.
const dealRow = db.query<Record<string, string | number | null>, { org: string; id: string }>("SELECT * FROM deals WHERE id = +$id AND org_id = +$org");
function dealBody(orgId: string, dealId: string, asOf: string): string | null {
  const d = dealRow.get({ org: orgId, id: dealId });
  if (!d) return null;
  const facts = d.facts ? JSON.parse(d.facts as string) : null;
  const head = JSON.stringify({
    deal_id: d.id, company_name: d.company_name, domain: d.domain, website: d.website, kind: d.kind, stage: d.stage, source: d.source,
    analysis_status: d.analysis_status, score: d.score, created_at: d.created_at, updated_at: d.updated_at,
    company: facts?.company ?? null, round: facts?.round ?? null, team: facts?.team ?? null, score_confidence: d.score_confidence,
  });
  return `${head.slice(0, -1)},"analysis":${d.analysis ?? "null"},"scope":"org_workspace","as_of":"${asOf}"}`;
}

type Counted = { row: Row; asOf: string; limit: number; used: { requests: number } | null };

/** Steps 1 to 3: the key by its hash and the request counted; null for no key or an unknown one. */
function authenticate(req: Request): Counted | null {
  const secret = secretOf(req);
  if (!secret) return null;
  const asOf = new Date().toISOString();
  const day = asOf.slice(0, 10);
  const row = lookup.get({ hash: new Bun.CryptoHasher("sha256").update(secret).digest("hex"), day });
  if (!row) return null;
  const limit = row.daily_requests ?? DEFAULT_DAILY_REQUESTS;
  return { row, asOf, limit, used: count.get({ keyId: row.key_id, day, now: asOf, limit }) };
}

const noKey = () => json({ detail: "no key or an unknown key" }, 401);

function me({ row, asOf, limit, used }: Counted) {
  return json({
    user: { user_id: row.user_id, name: row.user_name, email: row.email, share_network: row.share_network === 1 },
    org: { org_id: row.org_id, name: row.org_name },
    key: {
      key_id: row.key_id,
      name: row.key_name,
      scope: row.scope,
      prefix: row.prefix,
      status: row.revoked_at ? "revoked" : row.expires_at && row.expires_at <= asOf ? "expired" : "active",
      created_at: row.created_at,
      expires_at: row.expires_at,
      revoked_at: row.revoked_at,
      last_used_at: used ? asOf : row.last_used_at,
      rotated_from_key_id: row.rotated_from_id,
      usage_today: {
        requests: { used: used?.requests ?? limit, limit },
        actions: { used: row.actions_today ?? 0, limit: row.daily_actions ?? DEFAULT_DAILY_ACTIONS },
      },
    },
    scope: "key_user",
    as_of: asOf,
  });
}

// Bun's own router (`routes`), as Elysia uses it: no URL parsing or matching in JS for a request.
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(values.port ?? 0),
  routes: {
    "/api/v1/me": {
      GET: (req) => {
        const counted = authenticate(req);
        return counted ? me(counted) : noKey();
      },
    },
    "/api/v1/portfolio/companies": {
      GET: (req) => {
        const counted = authenticate(req);
        return counted ? json(portfolioPage(counted.row.org_id, new URL(req.url), counted.asOf)) : noKey();
      },
    },
    "/api/v1/deals/:id": {
      GET: (req) => {
        const counted = authenticate(req);
        if (!counted) return noKey();
        const body = dealBody(counted.row.org_id, req.params.id, counted.asOf);
        return body === null ? json({ detail: "Deal not found" }, 404) : new Response(body, { headers: { "content-type": "application/json;charset=utf-8" } });
      },
    },
  },
  fetch: () => json({ detail: "Not found" }, 404),
});

console.log(`bare listening on ${server.url.toString().replace(/\/$/, "")}`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void server.stop(true).then(() => {
      db.close();
      process.exit(0);
    });
  });
}
