import { t } from "elysia";
import { queryInt } from "../../http/validation.ts";
import { LEDGER_PAGE } from "./connections.ledger.ts";

const Reasons = t.Record(t.String(), t.Integer(), { description: "Messages by reason" });

export const LedgerEntry = t.Object(
  {
    synced_at: t.String({ format: "date-time" }),
    folder: t.String(),
    uidvalidity: t.String({ description: "The folder's UIDVALIDITY (decimal)" }),
    uid_from: t.Integer({ description: "The first UID this sync looked for (the high-water before it + 1); when it found nothing new, uid_to + 1 (an empty range, seen 0)" }),
    uid_to: t.Integer({ description: "The folder's high-water UID after this sync (unchanged when it found nothing new)" }),
    seen: t.Integer({ description: "Messages on the server in the range: imported + duplicates + skipped + failed" }),
    imported: t.Integer(),
    duplicates: t.Integer(),
    skipped: Reasons,
    failed: Reasons,
  },
  { description: "One sync of one folder: every sync writes one row per folder it read, also when nothing was new" },
);

export const LedgerResponse = t.Object(
  {
    connection_id: t.String({ format: "uuid" }),
    ledger: t.Array(LedgerEntry),
    total: t.Integer({ description: "Rows in the whole ledger" }),
    limit: t.Integer(),
    offset: t.Integer(),
    has_more: t.Boolean({ description: "Rows after this page" }),
  },
  {
    description:
      "A page of a connection's sync ledger, oldest first (offset 0 is the first sync; the latest rows are at total - limit): for every folder, messages on the server up to the high-water UID = imported + duplicates + skipped + failed",
  },
);

export const LedgerQuery = t.Object({
  limit: t.Optional(queryInt("limit", { minimum: 1, maximum: LEDGER_PAGE.max, default: LEDGER_PAGE.default, description: "Rows per page" })),
  offset: t.Optional(queryInt("offset", { minimum: 0, default: 0, description: "Rows to pass over, oldest first" })),
});
