// Liveness and readiness, unauthenticated: for load balancers and `dealgraph serve` operators.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { migrationStatus } from "../../db/migrate.ts";
import { jsonResponses } from "../../http/openapi.ts";
import { findLibreOffice } from "../../documents/convert.ts";
import { findTesseract } from "../../documents/ocr.ts";
import { backupsService } from "../backups/backups.service.ts";
import { describeSandbox, sandboxSupport } from "../../lib/sandbox.ts";

// The one lookup of LibreOffice lives in documents/convert.ts; it stays exported from here for
// src/cli/demo-deals.ts and scripts/bench/deals.ts, which import it from this module.
export { findLibreOffice };

const Check = t.Object({ status: t.UnionEnum(["ok", "unavailable"]), detail: t.Nullable(t.String()) });
const BackupCheck = t.Object({ status: t.UnionEnum(["ok", "warning"]), detail: t.String() });
export const Liveness = t.Object({ status: t.Literal("ok") }, { description: "The process is up" });
export const Readiness = t.Object(
  { status: t.UnionEnum(["ready", "unavailable"]), checks: t.Object({ database: Check, libreoffice: Check, tesseract: Check, backups: BackupCheck }) },
  { description: "Ready (200) or not (503), and why" },
);

export function healthRoutes(deps: Deps) {
  return new Elysia({ detail: { tags: ["Health"], security: [] } })
    .get("/healthz", () => ({ status: "ok" as const }), {
      detail: { operationId: "getLiveness", summary: "The process is up", responses: jsonResponses({ 200: Liveness }) },
    })
    .get(
      "/readyz",
      async ({ set }) => {
        let database: { status: "ok" | "unavailable"; detail: string | null };
        try {
          deps.db.$client.query("SELECT 1").get();
          const m = migrationStatus(deps.db.$client);
          database = m.pending.length
            ? { status: "unavailable", detail: `migrations pending: ${m.pending.join(", ")}` }
            : { status: "ok", detail: `${m.applied} migrations applied` };
        } catch (error) {
          database = { status: "unavailable", detail: `database unreachable: ${(error as Error).message}` };
        }
        const ready = database.status === "ok";
        // Looked up on each probe, as uploads do: LibreOffice may be installed or removed while the server runs.
        const libreOffice = findLibreOffice();
        const tesseract = findTesseract();
        if (!ready) {
          set.status = 503;
          set.headers["retry-after"] = "5";
        }
        return {
          status: ready ? ("ready" as const) : ("unavailable" as const),
          checks: {
            database,
            // Not a readiness condition: only PPT/DOC uploads need it.
            // The detail says how conversions are isolated here (sandbox.ts probes it once).
            libreoffice: libreOffice
              ? { status: "ok" as const, detail: `${libreOffice} (${describeSandbox(await sandboxSupport())})` }
              : { status: "unavailable" as const, detail: "not installed: PPT/DOC uploads cannot be converted" },
            // Not a readiness condition either: only decks without usable text (page images, fonts without a usable encoding) need OCR.
            tesseract: tesseract
              ? { status: "ok" as const, detail: tesseract }
              : { status: "unavailable" as const, detail: "not installed: pages without usable text (images, unreadable fonts) cannot be read by OCR" },
            // Not a readiness condition either: a warning when the last verified backup is older
            // than two periods of DEALGRAPH_BACKUP_CRON (or there is none).
            backups: backupsService(deps).freshness(),
          },
        };
      },
      {
        detail: {
          operationId: "getReadiness",
          summary: "Database reachable and migrations applied",
          responses: jsonResponses({ 200: Readiness, 503: Readiness }),
        },
      },
    );
}
