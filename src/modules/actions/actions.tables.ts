import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../identity/orgs.tables.ts";

// Every action of every kind (deal analysis, document analysis, founder analysis, research) is one
// run: queued -> running -> succeeded | failed. No other status exists, ever.
export const actionRuns = sqliteTable(
  "action_runs",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    keyId: text("key_id"),
    kind: text("kind").notNull(),
    // Set by the module that dispatched the run, so the engine names its webhook events
    // (`<event_prefix>.completed|failed`) and result without knowing any kind.
    eventPrefix: text("event_prefix").notNull().default(""),
    resultUrl: text("result_url").notNull().default(""),
    // The resource the run produces or updates (a deal, a founder analysis, a research run).
    subjectId: text("subject_id").notNull(),
    status: text("status", { enum: ["queued", "running", "succeeded", "failed"] }).notNull(),
    // JSON: the stage and figures of a running run; null otherwise.
    progress: text("progress"),
    error: text("error"),
    // JSON: what the run needs (urls, options); never returned as is.
    input: text("input").notNull(),
    // Additive detail of a queued run that waits for something outside (e.g. email verification).
    waitingFor: text("waiting_for"),
    attempts: integer("attempts").notNull().default(0),
    heartbeatAt: text("heartbeat_at"),
    createdAt: text("created_at").notNull(),
    startedAt: text("started_at"),
    finishedAt: text("finished_at"),
  },
  // A subject's runs newest first: its latest run (the deal's analysis status, kept by triggers,
  // and every "latest run of" read) is one seek, however many runs it has had.
  (t) => [index("action_runs_status_idx").on(t.status, t.createdAt), index("action_runs_subject_idx").on(t.subjectId, t.createdAt, t.id)],
);

// Terminal transitions write their webhook events here in the same transaction: none is lost to
// a crash between "the run finished" and "somebody was told".
export const outboxEvents = sqliteTable(
  "outbox_events",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull().unique(),
    orgId: text("org_id").notNull(),
    event: text("event").notNull(),
    entityId: text("entity_id").notNull(),
    resultUrl: text("result_url").notNull(),
    runId: text("run_id").notNull(),
    createdAt: text("created_at").notNull(),
    // What an event that no run ends adds to the payload's `data` (a JSON object: an update's
    // company_id and counts by status); null for a run's events, whose payload is the thin one.
    data: text("data"),
  },
  (t) => [index("outbox_events_org_idx").on(t.orgId, t.seq)],
);

// OCR is the most expensive thing a member can make the server do: pages read by OCR are counted per
// organization per UTC day (actions/ocr-budget.ts), reserved by one conditional upsert before the
// pages are read, so an organization's uploads stop at its daily bound however they race.
export const ocrUsage = sqliteTable(
  "ocr_usage",
  {
    orgId: text("org_id").notNull(),
    day: text("day").notNull(),
    pages: integer("pages").notNull().default(0),
    updatedAt: text("updated_at"),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.day] })],
);
