// The scale bench end to end at its two small sizes (the shapes of the 5M and the ten-times firm,
// at a few thousand persons): it seeds both firms straight into SQL, measures each in a fresh
// process, backs each up with `dealgraph backup`, and prints every figure with the smaller firm's
// beside it, the ratio and the data's growth. No timing is asserted: only that every figure is there.
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanEnv } from "../../scripts/lib/child-process.ts";

const ROOT = join(import.meta.dir, "../..");

test("scale.ts prints each figure of the larger firm beside the smaller one's", async () => {
  const out = mkdtempSync(join(tmpdir(), "dealgraph-scale-test-"));
  try {
    const proc = Bun.spawn([process.execPath, join(ROOT, "scripts/bench/scale.ts"), "--size", "tiny,tiny10", "--save", join(out, "run")], {
      cwd: ROOT,
      env: cleanEnv({ TMPDIR: out }),
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect({ code, stderr: code === 0 ? "" : stderr }).toEqual({ code: 0, stderr: "" });

    expect(stdout).toContain("| figure | tiny | tiny10 | ratio | data ratio |");
    const figures = [
      "who-knows p99, skewed domains (every request)",
      "who-knows p99, dense domain bigco.com (every request)",
      "contacts first page (worst of 5 users, best of 3)",
      "contacts middle page (worst of 5 users, best of 3)",
      "contacts last page (worst of 5 users, best of 3)",
      "cadence learning",
      "reach candidates",
      "backup (no load)",
      "database size",
      "peak RSS (jobs included)",
    ];
    for (const figure of figures) {
      const row = stdout.split("\n").find((line) => line.startsWith(`| ${figure} |`));
      expect(row, figure).toBeDefined();
      // | name | small | large | ratio | data ratio |: each a number (with its unit), none missing.
      const cells = row!.split("|").slice(2, 6).map((c) => c.trim());
      for (const cell of cells) expect(cell, `${figure}: ${row}`).toMatch(/^\d+(\.\d+)?( ms| s| MB|x)$/);
    }

    // The saved runs: the firms as seeded, and the jobs' own results.
    const small = JSON.parse(readFileSync(join(out, "run-tiny.json"), "utf8"));
    const large = JSON.parse(readFileSync(join(out, "run-tiny10.json"), "utf8"));
    expect(small.measured.counts).toMatchObject({ users: 4, persons: 2_000, interactions: 20_000 });
    expect(large.measured.counts).toMatchObject({ users: 8, persons: 5_000, interactions: 200_000 });
    expect(large.measured.reach.users).toBe(8);
    expect(large.measured.reach.candidates).toBeGreaterThan(0);
    expect(large.backup.bytes).toBeGreaterThan(0);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}, 900_000);
