import { createDispatcher } from "../src/modules/webhooks/webhooks.delivery.ts";
import type { Job } from "./index.ts";

// The backstop of the server's fast path (src/cli/serve.ts runs the dispatcher every 200 ms): fan
// out new outbox events and deliver whatever is due, e.g. from `dealgraph jobs run webhook-delivery`.
export const webhookDelivery: Job = {
  id: "webhook-delivery",
  pattern: "* * * * *",
  description: "deliver outbox events to webhook endpoints: fan out, attempt what is due, schedule retries (11 attempts over about 30 minutes)",
  runOnce: (deps) => createDispatcher(deps).drain(),
};
