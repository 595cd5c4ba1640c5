// The files in the blob store that the deals module's rows name (uploaded decks, data-room files),
// read from any database: the live one or a backup's snapshot, of this release's schema or an
// older one. Backups use it to archive (and check) exactly the files a snapshot refers to.
import type { Database } from "bun:sqlite";

export function dealBlobHashes(sqlite: Database): string[] {
  const table = sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'deal_documents'").get();
  if (!table) return [];
  return sqlite.query<{ sha256: string }, []>("SELECT DISTINCT sha256 FROM deal_documents ORDER BY sha256").all().map((r) => r.sha256);
}
