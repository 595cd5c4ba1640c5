// POST /api/v1/deals/{deal_id}/documents: the data room. Up to 20 files streamed to disk, then
// judged, classified, stored and analysed by acceptDataRoom (deals.data-room.ts), all or nothing.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { authPlugin } from "../identity/auth.macro.ts";
import { discard, readMultipart } from "../../http/multipart.ts";
import { jsonResponses } from "../../http/openapi.ts";
import { tempDir } from "../../lib/blobs.ts";
import { acceptDataRoom, DATA_ROOM_MAX_BYTES, DATA_ROOM_MAX_FILES } from "./deals.data-room.ts";
import { DataRoomAcceptedResponse, DataRoomBodyDoc } from "./deals.model.ts";
import { dealsService } from "./deals.service.ts";

export function dealDataRoomRoutes(deps: Deps) {
  const deals = dealsService(deps);

  return new Elysia({ prefix: "/api/v1/deals" }).use(authPlugin(deps)).post(
    "/:deal_id/documents",
    async ({ principal, params, request, set }) => {
      // An unknown deal before the body is read. A deal being analysed takes the files too (202): they
      // are read by one more pass after the running one (addDataRoom, CONTRACT.md "Further decisions").
      const deal = deals.mustGet(principal.orgId, params.deal_id);
      const { fields, files } = await readMultipart(request, { dir: tempDir(deps.config.dataDir), maxFileBytes: DATA_ROOM_MAX_BYTES, maxFiles: DATA_ROOM_MAX_FILES, preservePath: true });
      try {
        const result = await acceptDataRoom(deps, principal, deal.id, { fields, files });
        set.status = 202;
        Object.assign(set.headers, result.headers);
        return {
          deal_id: deal.id,
          files_received: result.filesReceived,
          status: "queued" as const,
          documents_url: `/api/v1/deals/${deal.id}/documents`,
          status_url: `/api/v1/deals/${deal.id}/analysis`,
          result_url: `/api/v1/deals/${deal.id}`,
          existing: result.joined,
          as_of: deps.clock.now().toISOString(),
        };
      } finally {
        discard(files); // adopted files have moved; this removes only what was refused or ignored
      }
    },
    {
      auth: "write",
      parse: "none", // streamed by readMultipart, never buffered whole
      detail: {
        operationId: "addDealDocuments",
        tags: ["Deals"],
        summary:
          "Add data-room files to a deal (up to 20, 50 MB each; 413 over, 415 for other types, 422 without files); they are classified and the deal re-analysed. While its analysis is queued or running they are accepted all the same: read after the running pass by one more pass (one however many uploads arrive meanwhile)",
        requestBody: { required: true, content: { "multipart/form-data": { schema: JSON.parse(JSON.stringify(DataRoomBodyDoc)) } } },
        responses: jsonResponses({ 202: DataRoomAcceptedResponse }),
      },
    },
  );
}
