// The load generator of scripts/bench/http.ts, run as its own process: N keep-alive HTTP/1.1
// connections over raw sockets (much cheaper per request than fetch, so the client is less
// likely to be the bottleneck on a small machine), each with one request in flight, for a
// warm-up and then a measured window. Responses must carry Content-Length (no chunked bodies).
//
//   bun scripts/bench/load.ts --url http://127.0.0.1:PORT/path [--header "Name: value"]...
//                             [--connections 64] [--warmup 1] [--duration 5]
//
// stdout: `measuring` when the measured window starts, then `result {json}` at its end.
import type { Socket } from "bun";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    url: { type: "string" },
    header: { type: "string", multiple: true },
    connections: { type: "string", default: "64" },
    warmup: { type: "string", default: "1" },
    duration: { type: "string", default: "5" },
  },
});
if (!values.url) {
  console.error("usage: bun scripts/bench/load.ts --url URL [--header 'K: V']... [--connections N] [--warmup S] [--duration S]");
  process.exit(2);
}
const url = new URL(values.url);
if (url.protocol !== "http:") throw new Error("only http:// URLs");
const CONNECTIONS = Math.max(1, Number(values.connections));
const WARMUP_MS = Number(values.warmup) * 1000;
const DURATION_MS = Number(values.duration) * 1000;
const MAX_SAMPLES = 5_000_000;
const MAX_RECONNECTS = 10_000;

const request = Buffer.from(
  `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n` + (values.header ?? []).map((h) => `${h}\r\n`).join("") + "\r\n",
  "latin1",
);

export type LoadResult = {
  connections: number;
  seconds: number;
  requests: number;
  rps: number;
  statuses: Record<string, number>;
  errors: number;
  p50_ms: number;
  p90_ms: number;
  p99_ms: number;
  max_ms: number;
  client_cpu: number;
};

let phase: "warmup" | "measure" | "done" = "warmup";
const latencies = new Float64Array(MAX_SAMPLES);
let samples = 0;
let completed = 0;
let errors = 0;
let reconnects = 0;
const statuses: Record<string, number> = {};
const firstErrors: string[] = [];

type Conn = { socket: Socket<undefined> | null; buf: Buffer | null; sentAt: number; pending: Buffer | null };
const conns: Conn[] = [];

function fail(message: string): never {
  console.error(`load: ${message}`);
  process.exit(1);
}

function noteError(message: string) {
  errors++;
  if (firstErrors.length < 5) firstErrors.push(message);
}

function send(conn: Conn) {
  const socket = conn.socket;
  if (!socket) return;
  if (phase === "done") {
    socket.end();
    return;
  }
  conn.sentAt = performance.now();
  const written = socket.write(request);
  conn.pending = written < request.length ? request.subarray(Math.max(0, written)) : null;
}

function onData(conn: Conn, data: Buffer) {
  let buf = conn.buf ? Buffer.concat([conn.buf, data]) : data;
  for (;;) {
    const headerEnd = buf.indexOf("\r\n\r\n");
    if (headerEnd < 0) break;
    const head = buf.toString("latin1", 0, headerEnd);
    const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(head);
    if (!length) fail(`response without Content-Length (chunked bodies are not supported):\n${head}`);
    const total = headerEnd + 4 + Number(length[1]);
    if (buf.length < total) break;
    const status = head.slice(9, 12);
    if (phase === "measure") {
      completed++;
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (samples < MAX_SAMPLES) latencies[samples++] = performance.now() - conn.sentAt;
    }
    buf = buf.subarray(total);
    send(conn);
  }
  // Keep a copy of a partial response: the socket may reuse its buffer.
  conn.buf = buf.length ? Buffer.from(buf) : null;
}

async function connect(conn: Conn): Promise<void> {
  while (phase !== "done") {
    try {
      await Bun.connect({
        hostname: url.hostname,
        port: Number(url.port || 80),
        socket: {
          open(socket) {
            conn.socket = socket;
            conn.buf = null;
            send(conn);
          },
          data(_socket, data) {
            onData(conn, data);
          },
          drain(socket) {
            if (conn.pending) {
              const written = socket.write(conn.pending);
              conn.pending = written < conn.pending.length ? conn.pending.subarray(Math.max(0, written)) : null;
            }
          },
          close() {
            conn.socket = null;
            if (phase === "done") return;
            noteError("the server closed a connection");
            if (++reconnects > MAX_RECONNECTS) fail("too many reconnects");
            void connect(conn);
          },
          error(_socket, error) {
            noteError(error.message);
          },
        },
      });
      return;
    } catch (error) {
      noteError((error as Error).message);
      if (++reconnects > MAX_RECONNECTS) fail(`cannot connect to ${url.host}: ${(error as Error).message}`);
      await Bun.sleep(10);
    }
  }
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

for (let i = 0; i < CONNECTIONS; i++) {
  const conn: Conn = { socket: null, buf: null, sentAt: 0, pending: null };
  conns.push(conn);
  void connect(conn);
}

let t0 = 0;
let cpu0 = process.cpuUsage();
setTimeout(() => {
  phase = "measure";
  t0 = performance.now();
  cpu0 = process.cpuUsage();
  console.log("measuring");
}, WARMUP_MS);

setTimeout(() => {
  phase = "done";
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  for (const conn of conns) conn.socket?.end();
  const sorted = latencies.subarray(0, samples).sort();
  const result: LoadResult = {
    connections: CONNECTIONS,
    seconds,
    requests: completed,
    rps: completed / seconds,
    statuses,
    errors,
    p50_ms: percentile(sorted, 50),
    p90_ms: percentile(sorted, 90),
    p99_ms: percentile(sorted, 99),
    max_ms: sorted.length ? sorted[sorted.length - 1] : NaN,
    client_cpu: (cpu.user + cpu.system) / 1e6 / seconds,
  };
  if (firstErrors.length) console.error(`load: first errors: ${firstErrors.join("; ")}`);
  console.log(`result ${JSON.stringify(result)}`);
  process.exit(0);
}, WARMUP_MS + DURATION_MS);
