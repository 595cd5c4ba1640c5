// The loopback receiver of scripts/bench/webhooks.ts, in its own process so it does not share an
// event loop with the dispatcher it measures. Answers every POST with 204 and remembers when each
// entity's event arrived (epoch ms, sub-millisecond); GET /stats returns the count, those times and
// its clock (the bench corrects for the offset between the two processes' clocks).
let count = 0;
const arrivals: Record<string, number> = {};
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    if (req.method === "GET") return Response.json({ count, arrivals, now: performance.timeOrigin + performance.now() });
    const at = performance.timeOrigin + performance.now();
    const body = await req.text();
    count++;
    if (new URL(req.url).pathname === "/latency") arrivals[JSON.parse(body).data.entity_id] = at;
    return new Response(null, { status: 204 });
  },
});
console.log(`receiver listening on ${server.port}`);
process.on("SIGTERM", () => {
  server.stop(true);
  process.exit(0);
});
