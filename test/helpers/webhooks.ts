// Webhook test helpers: a real loopback receiver with a scripted answer per request, outbox events
// made by the real action engine (a registered test kind), and ledger rows for route tests.
import { setSystemTime } from "bun:test";
import { Webhook } from "standardwebhooks";
import type { TestApp } from "./app.ts";
import { principalOf, type Fixture } from "./fixtures.ts";
import { actionsService } from "../../src/modules/actions/actions.service.ts";
import { newId } from "../../src/lib/ids.ts";

export type Received = { n: number; method: string; path: string; headers: Record<string, string>; body: string; at: number };

/**
 * A receiver on 127.0.0.1. `answer(n, req)` gives the n-th (1-based) request's response; the default
 * is 204. Everything received is in `received`.
 */
export function startReceiver(answer: (n: number, req: Request) => Response | Promise<Response> = () => new Response(null, { status: 204 })) {
  const received: Received[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const entry: Received = {
        n: received.length + 1,
        method: req.method,
        path: new URL(req.url).pathname,
        headers: Object.fromEntries(req.headers),
        body: await req.text(),
        at: Date.now(),
      };
      received.push(entry);
      return answer(entry.n, req);
    },
  });
  return {
    received,
    server,
    url: (path = "/hook") => `http://127.0.0.1:${server.port}${path}`,
    stop: () => server.stop(true),
  };
}

export type Receiver = ReturnType<typeof startReceiver>;

/** A port nothing listens on (taken, then released). */
export function closedPort(): number {
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

export const TEST_KIND = { kind: "test_hook_analysis", eventPrefix: "deal.analysis", resultUrl: (id: string) => `/api/v1/deals/${id}` };


/** Runs one action of the test kind to its end, which writes one outbox event. Returns the run. */
export function finishRun(t: TestApp, f: Fixture, opts: { org?: "acme" | "globex"; outcome?: "succeeded" | "failed"; subject?: string } = {}) {
  const actions = actionsService(t.deps);
  const secret = opts.org === "globex" ? f.keys.otherOrgWrite.secret : f.keys.write.secret;
  const subject = opts.subject ?? crypto.randomUUID();
  const { run } = t.deps.db.transaction(() => actions.dispatch(principalOf(t.deps, secret), TEST_KIND, subject, {}));
  actions.start(run.id);
  const done = opts.outcome === "failed" ? actions.fail(run.id, "it broke") : actions.succeed(run.id);
  return done!;
}

export const outboxEventOf = (t: TestApp, runId: string) =>
  t.deps.db.$client.query<{ id: string; event: string; entity_id: string; created_at: string }, [string]>(
    "SELECT id, event, entity_id, created_at FROM outbox_events WHERE run_id = ?",
  ).get(runId)!;

const seeded = new WeakMap<TestApp, Map<string, { webhookId: string; deliveryId: string }>>();

/**
 * An endpoint and one delivery of an org, written directly (synchronously, for route tests whose
 * path needs an id). Idempotent per app and org.
 */
export function seedEndpoint(t: TestApp, orgId: string): { webhookId: string; deliveryId: string } {
  let byOrg = seeded.get(t);
  if (!byOrg) seeded.set(t, (byOrg = new Map()));
  const known = byOrg.get(orgId);
  if (known) return known;
  const now = t.clock.now().toISOString();
  const webhookId = newId();
  const deliveryId = newId();
  const db = t.deps.db.$client;
  db.query("INSERT INTO webhook_endpoints (id, org_id, url, description, secret_enc, created_at) VALUES (?, ?, ?, '', 'v1:unused', ?)").run(
    webhookId,
    orgId,
    `https://93.184.215.14/${webhookId}`,
    now,
  );
  db.query(
    `INSERT INTO webhook_deliveries (id, org_id, endpoint_id, outbox_event_id, event, entity_id, result_url, event_created_at, status,
       attempts, round_started_at, next_attempt_at, created_at)
     VALUES (?, ?, ?, ?, 'deal.analysis.completed', ?, '/api/v1/deals/x', ?, 'failed', 11, ?, NULL, ?)`,
  ).run(deliveryId, orgId, webhookId, newId(), newId(), now, now, now);
  const ids = { webhookId, deliveryId };
  byOrg.set(orgId, ids);
  return ids;
}

/** Registers an endpoint through the API (201 expected); returns its id and secret. */
export async function register(t: TestApp, f: Fixture, url: string, key = f.keys.write.secret): Promise<{ id: string; secret: string }> {
  const res = await t.request("POST", "/api/v1/webhooks", { key, body: { url } });
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
  return { id: res.json.webhook_id, secret: res.json.secret };
}

export type LedgerRow = {
  delivery_id: string;
  event: string;
  entity_id: string;
  status: string;
  attempts: number;
  last_response_code: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  created_at: string;
};

/** The endpoint's deliveries through the API (newest first). */
export async function ledger(t: TestApp, f: Fixture, webhookId: string): Promise<LedgerRow[]> {
  const res = await t.request("GET", `/api/v1/webhooks/${webhookId}/deliveries`, { key: f.keys.read.secret });
  if (res.status !== 200) throw new Error(`ledger read failed: ${res.status} ${res.text}`);
  return res.json.deliveries;
}

/** One delivery with its attempts log through the API. */
export async function deliveryDetail(t: TestApp, f: Fixture, webhookId: string, deliveryId: string) {
  const res = await t.request("GET", `/api/v1/webhooks/${webhookId}/deliveries/${deliveryId}`, { key: f.keys.read.secret });
  if (res.status !== 200) throw new Error(`delivery read failed: ${res.status} ${res.text}`);
  return res.json.delivery as LedgerRow & { attempts_log: { attempt: number; attempted_at: string; response_code: number | null; error: string | null; outcome: string }[] };
}

/**
 * Runs the webhook-delivery job, then moves the test clock to the next attempt and runs it again,
 * until no delivery is pending (or `maxRounds`). Returns the number of rounds.
 */
export async function driveSchedule(t: TestApp, maxRounds = 40): Promise<number> {
  const { webhookDelivery } = await import("../../jobs/webhook-delivery.ts");
  const nextDue = t.deps.db.$client.query<{ at: string | null }, []>("SELECT MIN(next_attempt_at) AS at FROM webhook_deliveries WHERE status = 'pending'");
  for (let round = 1; round <= maxRounds; round++) {
    await webhookDelivery.runOnce(t.deps);
    const at = nextDue.get()?.at;
    if (!at) return round;
    if (new Date(at) > t.clock.now()) t.clock.set(at);
  }
  return maxRounds;
}

/** Whether the standardwebhooks package verifies a received delivery with this secret (at its own timestamp). */
export function verifies(secret: string, r: Received): boolean {
  setSystemTime(new Date(Number(r.headers["webhook-timestamp"]) * 1000));
  try {
    new Webhook(secret).verify(r.body, r.headers);
    return true;
  } catch {
    return false;
  } finally {
    setSystemTime();
  }
}
