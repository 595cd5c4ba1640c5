// Synthetic venture firms of any size, deterministic for a seed. `dealgraph demo` uses it to build
// its demo firm, writing the same kinds of files a real firm would bring and then loading them
// through the real import paths; benchmarks use it to make large firms.
// It writes the firm and its team (firm.json); the book, the decks and the network have their
// own generators beside it (book.ts, decks.ts, network.ts) and loaders (load-*.ts).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { rng } from "./rng.ts";

export type TeamMember = { name: string; email: string; title: string; share_network: boolean; admin: boolean };
export type FirmManifest = { org: { name: string; domain: string }; team: TeamMember[] };


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
