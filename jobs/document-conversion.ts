import { cleanUpConversions } from "../src/documents/conversion-cleanup.ts";
import type { Job } from "./job.ts";

// Conversions run inside the deal run; this job owns what a crash leaves of them: work dirs under
// <data-dir>/tmp/convert and soffice processes orphaned by a killed server (each in its own
// session), and idle upload temp files. It never touches a conversion still in progress.
export const documentConversion: Job = {
  id: "document-conversion",
  pattern: "*/10 * * * *",
  description: "clean up after crashed document conversions: kill orphaned LibreOffice processes and remove their work dirs and idle upload temp files (this data dir only)",
  // Wall-clock time, not deps.clock: what it judges (file times, markers, live processes) is real.
  runOnce: (deps) => cleanUpConversions(deps.config.dataDir, Date.now()),
};
