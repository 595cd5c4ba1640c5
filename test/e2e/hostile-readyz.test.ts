// Issue 27, finding 8 (/readyz): an anonymous probe learns how each check stands, never a file
// name or a path (where programs are installed, the data dir's backups folder, an archive's name);
// a server operator's API key gets the details. A key of anyone else is anonymous here.
import { describe, expect, test } from "bun:test";
import { createBackup } from "../../src/modules/backups/backups.service.ts";
import { findTesseract } from "../../src/documents/ocr.ts";
import { orgsService } from "../../src/modules/identity/orgs.service.ts";
import { createTestApp } from "../helpers/app.ts";
import { seedIdentity } from "../helpers/fixtures.ts";

describe("/readyz", () => {
  test("anonymous: no file names or paths; an operator's key: the details", async () => {
    const t = createTestApp({ file: true });
    try {
      const f = seedIdentity(t.deps);
      const dir = t.deps.config.dataDir;
      // No backup yet (the detail would name the backups folder), then one (it would name the archive).
      for (const step of ["none", "one"]) {
        if (step === "one") await createBackup({ config: t.deps.config, now: t.deps.clock.now() });
        const anonymous = await t.request("GET", "/readyz");
        expect(anonymous.status).toBe(200);
        const text = JSON.stringify(anonymous.json);
        expect(text).not.toContain(dir);
        expect(text).not.toContain("dealgraph-");
        expect(text).not.toMatch(/"detail":"\//); // no absolute path as a detail
        if (findTesseract()) expect(anonymous.json.checks.tesseract.detail).toBe("installed");
        // A member's key changes nothing.
        const member = await t.request("GET", "/readyz", { key: f.keys.write.secret });
        expect(JSON.stringify(member.json)).not.toContain(dir);
      }
      orgsService(t.deps).setOperator(f.users.alice.id, true);
      const operator = await t.request("GET", "/readyz", { key: f.keys.write.secret });
      expect(operator.json.checks.backups.detail).toContain("dealgraph-");
      if (findTesseract()) expect(operator.json.checks.tesseract.detail).toBe(findTesseract());
    } finally {
      t.close();
    }
  }, 30_000);
});
