// OCR bounds. OCR is the most expensive work a member can make the server do (a scanned page costs
// seconds of a core), so it is bounded three ways, each refused with a reason the analysis shows,
// never silently cut:
//   - per file: at most DEALGRAPH_OCR_PAGES_PER_UPLOAD pages (default 30) and
//     DEALGRAPH_OCR_SECONDS_PER_UPLOAD seconds of OCR altogether (default 180);
//   - per organization per UTC day: DEALGRAPH_OCR_PAGES_PER_ORG_DAY pages (default 300), reserved
//     by one conditional upsert before the pages are read, exact however the reads race.
import type { Deps } from "../../deps.ts";
import { secondsUntilUtcMidnight, utcDay } from "../../lib/clock.ts";
import type { OcrAllowance } from "../../lib/work-context.ts";

export type OcrBounds = { pagesPerUpload: number; secondsPerUpload: number; pagesPerOrgDay: number };

export const DEFAULT_OCR_BOUNDS: OcrBounds = { pagesPerUpload: 30, secondsPerUpload: 180, pagesPerOrgDay: 300 };

function whole(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const n = Number(raw);
  return Number.isSafeInteger(n) && n >= 0 ? n : fallback;
}

/** The bounds from the environment (unset or not a whole number: the default). */
export function ocrBoundsFrom(env: Record<string, string | undefined> = process.env): OcrBounds {
  return {
    pagesPerUpload: whole(env, "DEALGRAPH_OCR_PAGES_PER_UPLOAD", DEFAULT_OCR_BOUNDS.pagesPerUpload),
    secondsPerUpload: whole(env, "DEALGRAPH_OCR_SECONDS_PER_UPLOAD", DEFAULT_OCR_BOUNDS.secondsPerUpload),
    pagesPerOrgDay: whole(env, "DEALGRAPH_OCR_PAGES_PER_ORG_DAY", DEFAULT_OCR_BOUNDS.pagesPerOrgDay),
  };
}

const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

/** The organization's OCR allowance for one run: the per-file bounds and its daily reservation. */
export function ocrAllowance(deps: Deps, orgId: string, bounds: OcrBounds): OcrAllowance {
  const sqlite = deps.db.$client;
  const reserveStmt = sqlite.query<{ pages: number }, { org: string; day: string; n: number; limit: number; now: string }>(
    `INSERT INTO ocr_usage (org_id, day, pages, updated_at) SELECT $org, $day, $n, $now WHERE $n <= $limit
     ON CONFLICT (org_id, day) DO UPDATE SET pages = pages + $n, updated_at = $now WHERE pages + $n <= $limit
     RETURNING pages`,
  );
  const usedStmt = sqlite.query<{ pages: number }, { org: string; day: string }>("SELECT pages FROM ocr_usage WHERE org_id = $org AND day = $day");
  return {
    pagesPerUpload: bounds.pagesPerUpload,
    msPerUpload: bounds.secondsPerUpload * 1000,
    reserve(pages: number): string | null {
      const now = deps.clock.now();
      const day = utcDay(now);
      const row = reserveStmt.get({ org: orgId, day, n: pages, limit: bounds.pagesPerOrgDay, now: now.toISOString() });
      if (row) return null;
      const used = usedStmt.get({ org: orgId, day })?.pages ?? 0;
      const left = Math.max(0, bounds.pagesPerOrgDay - used);
      const hours = Math.max(1, Math.round(secondsUntilUtcMidnight(now) / 3600));
      return `The file needs OCR on ${plural(pages, "page")} (pages without usable text), and your organization has ${plural(left, "page")} of OCR left today (at most ${plural(bounds.pagesPerOrgDay, "page")} a day, DEALGRAPH_OCR_PAGES_PER_ORG_DAY); it was not read. The allowance resets at 00:00 UTC (in about ${plural(hours, "hour")}); a version of the file with selectable text needs no OCR.`;
    },
  };
}

/** Pages read by OCR for the organization today (for tests and the operator). */
export function ocrPagesToday(deps: Deps, orgId: string): number {
  return deps.db.$client.query<{ pages: number }, [string, string]>("SELECT pages FROM ocr_usage WHERE org_id = ? AND day = ?").get(orgId, utcDay(deps.clock.now()))?.pages ?? 0;
}
