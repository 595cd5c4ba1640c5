// Liveness and readiness, unauthenticated: for load balancers and `dealgraph serve` operators.
// An anonymous /readyz says how each check stands in words that name no file and no path (where
// LibreOffice or Tesseract is installed, the backups folder, an archive's name, a database error's
// text are the server operator's business); a request with an API key of a server operator
// (`dealgraph admin user operator --user ID on`) gets those details too.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { migrationStatus } from "../../db/migrate.ts";
import { jsonResponses } from "../../http/openapi.ts";
import { findLibreOffice } from "../../documents/convert.ts";
import { findTesseract } from "../../documents/ocr.ts";
import { backupsService } from "../backups/backups.service.ts";
import { apiKeysService } from "../identity/keys.service.ts";
import { orgsService } from "../identity/orgs.service.ts";
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

/** The key's secret of an Authorization: Bearer or X-API-Key header, or null. */
function presentedKey(request: Request): string | null {
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  return bearer ?? request.headers.get("x-api-key");
}

export function healthRoutes(deps: Deps) {
  /** Whether the request carries a valid key of a server operator (details: paths, file names). */
  function fromOperator(request: Request): boolean {
    const secret = presentedKey(request);
    if (!secret) return false;
    try {
      const verified = apiKeysService(deps).verify(secret);
      return verified.status === "VALID" && orgsService(deps).getUser(verified.key.userId)?.isOperator === true;
    } catch {
      return false; // a database that is down: the anonymous answer
    }
  }

  return new Elysia({ detail: { tags: ["Health"], security: [] } })
    .get("/healthz", () => ({ status: "ok" as const }), {
      detail: { operationId: "getLiveness", summary: "The process is up", responses: jsonResponses({ 200: Liveness }) },
    })
    .get(
      "/readyz",
      async ({ set, request }) => {
        const detailed = fromOperator(request);
        let database: { status: "ok" | "unavailable"; detail: string | null };
        try {
          deps.db.$client.query("SELECT 1").get();
          const m = migrationStatus(deps.db.$client);
          database = m.pending.length
            ? { status: "unavailable", detail: `migrations pending: ${m.pending.join(", ")}` }
            : { status: "ok", detail: `${m.applied} migrations applied` };
        } catch (error) {
          database = { status: "unavailable", detail: detailed ? `database unreachable: ${(error as Error).message}` : "database unreachable (the server's log says why)" };
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
              ? { status: "ok" as const, detail: `${detailed ? libreOffice : "installed"} (${describeSandbox(await sandboxSupport())})` }
              : { status: "unavailable" as const, detail: "not installed: PPT/DOC uploads cannot be converted" },
            // Not a readiness condition either: only decks without usable text (page images, fonts without a usable encoding) need OCR.
            tesseract: tesseract
              ? { status: "ok" as const, detail: detailed ? tesseract : "installed" }
              : { status: "unavailable" as const, detail: "not installed: pages without usable text (images, unreadable fonts) cannot be read by OCR" },
            // Not a readiness condition either: a warning when the last verified backup is older
            // than two periods of DEALGRAPH_BACKUP_CRON (or there is none).
            backups: backupsService(deps).freshness(detailed),
          },
        };
      },
      {
        detail: {
          operationId: "getReadiness",
          summary: "Database reachable and migrations applied",
          description: "Anonymous: each check's status in words that name no file or path. With an API key of a server operator (`dealgraph admin user operator`): the details too (program paths, the backups folder and archive names, a database error's text).",
          responses: jsonResponses({ 200: Readiness, 503: Readiness }),
        },
      },
    );
}
