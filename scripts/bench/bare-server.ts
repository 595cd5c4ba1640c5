// The baseline of scripts/bench/http.ts: a bare `Bun.serve` + `bun:sqlite` program answering
// GET /api/v1/me from the same database file as Dealgraph, with the same work and nothing else.
//
// Per request it does exactly this:
//   1. reads the key from `Authorization: Bearer` or `X-API-Key` and hashes it (SHA-256, hex),
//      as Dealgraph does;
//   2. ONE SELECT: the key by its hash joined to its user, the user's org, today's key_usage row
//      and the key's last use (max(last_used_at) over all days);
//   3. ONE UPSERT counting the request in today's key_usage row (the same
//      INSERT ... ON CONFLICT DO UPDATE ... RETURNING Dealgraph's budget uses, including the
//      "still under the limit" condition), since the benchmarked request is budget-counted;
//   4. writes the JSON body of the same shape as Dealgraph's /api/v1/me.
// Not done: checksum or format checks on the key, revocation/expiry decisions, 401/403/429
// bodies beyond a bare 401, X-RateLimit-* / X-Request-Id headers, validation, logging, routing
// beyond one path. The connection gets the same pragmas as Dealgraph's (WAL, synchronous=NORMAL,
// busy_timeout, foreign_keys), so the write costs the same.
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
  LEFT JOIN key_usage today ON today.key_id = k.id AND today.day = $day
  WHERE k.secret_hash = $hash`);

const count = db.query<{ requests: number }, { keyId: string; day: string; now: string; limit: number }>(`
  INSERT INTO key_usage (key_id, day, requests, last_used_at) VALUES ($keyId, $day, 1, $now)
  ON CONFLICT (key_id, day) DO UPDATE SET requests = requests + 1, last_used_at = excluded.last_used_at
  WHERE key_usage.requests < $limit
  RETURNING requests`);

function secretOf(req: Request): string | null {
  const auth = req.headers.get("authorization");
  if (auth?.startsWith("Bearer ")) return auth.slice(7).trim();
  return req.headers.get("x-api-key");
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json;charset=utf-8" } });

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(values.port ?? 0),
  fetch(req) {
    if (req.method !== "GET" || !req.url.endsWith("/api/v1/me")) return json({ detail: "Not found" }, 404);
    const secret = secretOf(req);
    if (!secret) return json({ detail: "no key" }, 401);
    const now = new Date();
    const asOf = now.toISOString();
    const day = asOf.slice(0, 10);
    const row = lookup.get({ hash: new Bun.CryptoHasher("sha256").update(secret).digest("hex"), day });
    if (!row) return json({ detail: "unknown key" }, 401);
    const limit = row.daily_requests ?? DEFAULT_DAILY_REQUESTS;
    const used = count.get({ keyId: row.key_id, day, now: asOf, limit });
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
  },
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
