// The layout's rules, read from the import graph of src/, jobs/ and migrations/:
//   lib <- db <- http <- modules <- app and jobs <- cli
// (documents and engines sit between http and modules; the demo between app/jobs and cli),
// no import cycle, no module reading another module's tables, an action engine that knows no
// domain, and nothing shipped importing scripts/ or test/.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { Glob } from "bun";

const ROOT = resolve(import.meta.dir, "..");

/** Each file's layer; a file may import only from lower layers, or from its own unit. */
function layerOf(file: string): { rank: number; unit: string } {
  const rules: [RegExp, number, (m: RegExpMatchArray) => string][] = [
    [/^src\/lib\//, 0, () => "lib"],
    [/^src\/(config|deps)\.ts$/, 1, () => "core"],
    [/^src\/db\//, 1, () => "core"],
    [/^migrations\//, 1, () => "core"],
    [/^src\/http\//, 2, () => "http"],
    [/^src\/documents\//, 2, () => "documents"],
    [/^src\/engines\//, 3, () => "engines"],
    [/^src\/modules\/([^/]+)\//, 4, (m) => `module:${m[1]}`],
    [/^src\/app\.ts$/, 5, () => "app"],
    [/^jobs\//, 5, () => "jobs"],
    [/^src\/demo\//, 6, () => "demo"],
    [/^src\/cli\//, 7, () => "cli"],
    [/^src\/main\.ts$/, 8, () => "main"],
    [/^src\/[^/]+\.d\.ts$/, 0, () => "types"],
  ];
  for (const [re, rank, unit] of rules) {
    const m = file.match(re);
    if (m) return { rank, unit: unit(m) };
  }
  throw new Error(`${file} is in no layer: add it to test/architecture.test.ts`);
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function graph(): Map<string, string[]> {
  const files = [...new Glob("{src,jobs,migrations}/**/*.ts").scanSync(ROOT)].sort();
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), "utf8");
    const targets: string[] = [];
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2];
      if (!spec.startsWith(".")) continue;
      targets.push(relative(ROOT, resolve(dirname(join(ROOT, file)), spec)));
    }
    edges.set(file, targets);
  }
  return edges;
}

const edges = graph();

/** Tables made by hand-written migrations (not drizzle's), and the module that owns each. */
const VIRTUAL_TABLES: Record<string, string> = { search_index: "research" };
const allEdges = [...edges].flatMap(([from, tos]) => tos.map((to) => ({ from, to })));

describe("the import graph", () => {
  test("every import points down the layers (or stays within its own unit)", () => {
    const wrong = allEdges.filter(({ from, to }) => {
      if (to.startsWith("scripts/") || to.startsWith("test/")) return true;
      const a = layerOf(from);
      const b = layerOf(to);
      if (a.unit === b.unit || a.rank > b.rank) return false;
      // Modules reach each other (through services: the next tests say how), nothing else sideways.
      return !(a.unit.startsWith("module:") && b.unit.startsWith("module:"));
    });
    expect(wrong.map(({ from, to }) => `${from} -> ${to}`)).toEqual([]);
  });

  test("no import cycle", () => {
    // Tarjan's strongly connected components over files.
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const cycles: string[][] = [];
    let next = 0;
    const visit = (v: string) => {
      index.set(v, next);
      low.set(v, next++);
      stack.push(v);
      onStack.add(v);
      for (const w of edges.get(v) ?? []) {
        if (!edges.has(w)) continue;
        if (!index.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
      if (low.get(v) === index.get(v)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== v);
        if (component.length > 1) cycles.push(component.sort());
      }
    };
    for (const v of edges.keys()) if (!index.has(v)) visit(v);
    expect(cycles).toEqual([]);
  });

  test("a module reads another module's data through its service, never its tables or queries", () => {
    const wrong = allEdges.filter(({ from, to }) => {
      const a = from.match(/^src\/modules\/([^/]+)\//)?.[1];
      const b = to.match(/^src\/modules\/([^/]+)\//)?.[1];
      if (!b || a === b || !/\.(tables|queries)\.ts$/.test(to)) return false;
      // A table may reference another module's table (a foreign key); nothing else may.
      return !(from.endsWith(".tables.ts") && to.endsWith(".tables.ts"));
    });
    // Above the modules (app, jobs, demo, cli) the same holds: they call services.
    const above = allEdges.filter(({ from, to }) => !from.startsWith("src/modules/") && /^src\/modules\/.*\.(tables|queries)\.ts$/.test(to));
    expect([...wrong, ...above].map(({ from, to }) => `${from} -> ${to}`)).toEqual([]);
  });

  test("SQL in a module names only its own tables (identity's orgs and users may be joined for names)", () => {
    const owner = new Map<string, string>();
    for (const file of [...new Glob("src/modules/*/*.tables.ts").scanSync(ROOT)]) {
      const module = file.split("/")[2];
      for (const m of readFileSync(join(ROOT, file), "utf8").matchAll(/sqliteTable\(\s*"([a-z_]+)"/g)) owner.set(m[1], module);
    }
    for (const [table, module] of Object.entries(VIRTUAL_TABLES)) owner.set(table, module);
    const shared = new Set(["orgs", "users"]);
    const wrong: string[] = [];
    for (const file of edges.keys()) {
      const module = file.match(/^src\/modules\/([^/]+)\//)?.[1] ?? (/^src\/(demo|cli|app\.ts)|^jobs\//.test(file) ? "(above the modules)" : null);
      if (!module || file.endsWith(".tables.ts")) continue;
      const text = readFileSync(join(ROOT, file), "utf8");
      for (const m of text.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE|DELETE FROM)\s+([a-z_]+)\b/g)) {
        const table = m[1];
        const by = owner.get(table);
        if (by && by !== module && !shared.has(table)) wrong.push(`${file} reads ${table} (owned by ${by})`);
      }
    }
    expect([...new Set(wrong)]).toEqual([]);
  });

  test("the action engine knows no domain: each module hands it its own run handlers", () => {
    const wrong = allEdges.filter(
      ({ from, to }) => from.startsWith("src/modules/actions/") && to.startsWith("src/modules/") && !to.startsWith("src/modules/actions/") && !to.startsWith("src/modules/identity/"),
    );
    expect(wrong.map(({ from, to }) => `${from} -> ${to}`)).toEqual([]);
  });

  test("src/http is framework plumbing: it imports no module, engine or document code", () => {
    const wrong = allEdges.filter(({ from, to }) => from.startsWith("src/http/") && /^src\/(modules|engines|documents)\//.test(to));
    expect(wrong.map(({ from, to }) => `${from} -> ${to}`)).toEqual([]);
  });

  test("jobs/ schedules calls into modules: one short file per job, no SQL", () => {
    const heavy = [...edges.keys()]
      .filter((f) => f.startsWith("jobs/") && f !== "jobs/index.ts")
      .filter((f) => {
        const text = readFileSync(join(ROOT, f), "utf8");
        return text.split("\n").length > 40 || /\b(SELECT|INSERT|UPDATE|DELETE)\b/.test(text) || /\.\$client\b/.test(text);
      });
    expect(heavy).toEqual([]);
  });
});
