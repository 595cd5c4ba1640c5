import { t } from "elysia";

const Timestamp = t.String({ format: "date-time" });

const SyncFigures = {
  messages_new: t.Integer({ description: "Messages recorded in the network for the first time" }),
  meetings_new: t.Integer({ description: "Meetings (each past occurrence of a series) recorded for the first time" }),
  duplicates: t.Integer({ description: "Already recorded (an earlier sync, or a file import of the same message or meeting)" }),
  skipped: t.Integer({ description: "Read but no relationship signal (lists, automated mail, declined or future meetings...)" }),
  refused: t.Optional(t.Integer({ description: "Additive: calendar occurrences past the limits (per series, per calendar object, per sync), not counted" })),
  refusals: t.Optional(t.Array(t.String(), { description: "Additive: why occurrences were refused, a line each (the first few)" })),
};

export const Connection = t.Object(
  {
    connection_id: t.String({ format: "uuid" }),
    kind: t.UnionEnum(["mail", "calendar"]),
    account: t.String({ description: "The login, or a subscription's origin (never a credential)" }),
    status: t.UnionEnum(["never_synced", "ok", "syncing", "error"]),
    last_synced_at: t.Nullable(Timestamp),
    items_synced: t.Integer({ description: "Messages and meetings this connection added to the network, each once" }),
    last_error: t.Nullable(t.String()),
    source: t.UnionEnum(["imap", "caldav", "ics", "graph"], { description: "Additive: IMAP, a CalDAV collection, an iCalendar subscription URL, or a Microsoft 365 calendar read from Microsoft Graph" }),
    progress: t.Nullable(
      t.Object({ folder: t.String(), done: t.Integer(), total: t.Integer() }, { description: "Additive: where a running sync is (a first backfill shows its progress here)" }),
    ),
    last_result: t.Nullable(t.Object(SyncFigures, { description: "Additive: the figures of the last sync" })),
    next_attempt_at: t.Nullable(Timestamp),
  },
  { description: "A connected mailbox or calendar" },
);

export const ConnectionsResponse = t.Object(
  {
    connections: t.Array(Connection),
    scope: t.Literal("key_user"),
    as_of: Timestamp,
  },
  { description: "The key user's connected mailboxes and calendars, oldest first" },
);
