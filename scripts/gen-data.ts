// Synthetic venture firms of any size, deterministic for a seed. `dealgraph demo` uses it to build
// its demo firm, writing the same kinds of files a real firm would bring and then loading them
// through the real import paths; benchmarks use it to make large firms.
//
//   bun scripts/gen-data.ts --out DIR [--seed N] [--team N]
//
// Today it writes the firm and its team (firm.json). Each capability adds its own files here
// (mailboxes, calendars, contacts, portfolio and fund CSVs) and a loader step in src/cli/demo.ts.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";

export type TeamMember = { name: string; email: string; title: string; share_network: boolean; admin: boolean };
export type FirmManifest = { org: { name: string; domain: string }; team: TeamMember[] };

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    chance: (p: number) => next() < p,
  };
}

const FIRST = ["Maya", "Daniel", "Priya", "Jonas", "Elena", "Marcus", "Aiko", "Samuel", "Leila", "Tomás", "Hannah", "Kwame", "Sofia", "Ravi", "Clara", "Noah", "Ingrid", "Omar", "Grace", "Felix"];
const LAST = ["Okafor", "Lindqvist", "Raman", "Castellano", "Whitfield", "Nakamura", "Brennan", "Haddad", "Moreau", "Adeyemi", "Kowalski", "Sato", "Mendes", "Fischer", "Abbott", "Varga", "Chen", "Delgado", "Novak", "Hart"];
const FIRM_NAMES = ["Northwind Ventures", "Harbor Light Capital", "Foundry Lane Partners", "Cobalt Ridge Ventures", "Tidewater Capital"];
const TITLES = ["Managing Partner", "General Partner", "General Partner", "Partner", "Principal", "Associate", "Head of Platform", "Analyst"];

const slug = (s: string) => s.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[^a-z0-9]+/g, "");

export function generateFirm(opts: { seed?: number; team?: number } = {}): FirmManifest {
  const r = rng(opts.seed ?? 7);
  const name = r.pick(FIRM_NAMES);
  const domain = `${slug(name.split(" ")[0])}.vc`;
  const size = Math.max(1, Math.min(opts.team ?? 6, FIRST.length));
  const used = new Set<string>();
  const team: TeamMember[] = [];
  for (let i = 0; i < size; i++) {
    let first: string, last: string;
    do {
      first = r.pick(FIRST);
      last = r.pick(LAST);
    } while (used.has(first) || used.has(last));
    used.add(first).add(last);
    team.push({
      name: `${first} ${last}`,
      email: `${slug(first)}@${domain}`,
      title: TITLES[Math.min(i, TITLES.length - 1)],
      // Most of a team shares its network; someone usually has not opted in yet, and the last
      // member never has (so the demo always shows what not sharing keeps out of the pool).
      share_network: i === 0 || (r.chance(0.75) && i !== size - 1),
      admin: i === 0,
    });
  }
  return { org: { name, domain }, team };
}

export async function writeFirm(outDir: string, manifest: FirmManifest): Promise<string[]> {
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, "firm.json");
  await Bun.write(file, JSON.stringify(manifest, null, 2) + "\n");
  return [file];
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { out: { type: "string" }, seed: { type: "string" }, team: { type: "string" } } });
  if (!values.out) {
    console.error("usage: bun scripts/gen-data.ts --out DIR [--seed N] [--team N]");
    process.exit(2);
  }
  const manifest = generateFirm({ seed: Number(values.seed ?? 7), team: Number(values.team ?? 6) });
  for (const file of await writeFirm(values.out, manifest)) console.log(`wrote ${file}`);
  // the portfolio book and LP funds (scripts/gen-book.ts; its own --as-of there)
  const { generateBook, writeBook } = await import("./gen-book.ts");
  const book = generateBook({ seed: Number(values.seed ?? 7), firmName: manifest.org.name });
  for (const file of Object.values(await writeBook(values.out, book.csv))) console.log(`wrote ${file}`);
}
