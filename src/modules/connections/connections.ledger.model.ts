import { t } from "elysia";

const Reasons = t.Record(t.String(), t.Integer(), { description: "Messages by reason" });

export const LedgerEntry = t.Object(
  {
    synced_at: t.String({ format: "date-time" }),
    folder: t.String(),
    uidvalidity: t.String({ description: "The folder's UIDVALIDITY (decimal)" }),
    uid_from: t.Integer(),
    uid_to: t.Integer({ description: "The folder's high-water UID after this sync" }),
    seen: t.Integer({ description: "Messages on the server in the range: imported + duplicates + skipped + failed" }),
    imported: t.Integer(),
    duplicates: t.Integer(),
    skipped: Reasons,
    failed: Reasons,
  },
  { description: "One sync of one folder" },
);

export const LedgerResponse = t.Object(
  { connection_id: t.String({ format: "uuid" }), ledger: t.Array(LedgerEntry) },
  { description: "A connection's sync ledger, oldest first: for every folder, messages on the server up to the high-water UID = imported + duplicates + skipped + failed" },
);
