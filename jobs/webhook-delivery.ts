import { createDispatcher, dispatcherRunning } from "../src/modules/webhooks/webhooks.delivery.ts";
import type { Job } from "./job.ts";

// Fans out new outbox events and delivers whatever is due, until nothing is (`dealgraph jobs run
// webhook-delivery`, tests). Inside `serve` the dispatcher runs all the time (src/cli/serve.ts), so
// the minute schedule skips.
export const webhookDelivery: Job = {
  id: "webhook-delivery",
  pattern: "* * * * *",
  description: "deliver outbox events to webhook endpoints: fan out, attempt what is due, schedule retries (11 attempts over about 30 minutes)",
  // Inside `serve` the running dispatcher already does this; the job would only double the load.
  runOnce: (deps) => (dispatcherRunning(deps) ? { skipped: "the server's dispatcher is running" } : createDispatcher(deps).drain()),
};
