// Real decks: public pitch-deck PDFs from GitHub repositories fetched (not committed) under
// /work/.mirror/<owner>+<name>/repo, read by blob id with git, and held against labels written by
// hand from each deck's own pages (real-labels.ts). A deck whose mirror is not on this machine is
// skipped and counted, never an error.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { BlindLabels, Part } from "./labels.ts";
import { REAL_LABELS, type RealLabel } from "./real-labels.ts";

export const MIRROR_ROOT = process.env.DEALGRAPH_DECK_MIRRORS ?? "/work/.mirror";
export type RealDeck = { id: string; part: Part; filename: string; format: "pdf"; bytes: Uint8Array; labels: BlindLabels; repo: string; path: string };

export function mirrorOf(repo: string, root = MIRROR_ROOT): string | null {
  const dir = join(root, repo.replace("/", "+"), "repo");
  // A mirror is a bare git directory, or (for some) a work tree with its .git inside.
  if (existsSync(join(dir, ".git"))) return join(dir, ".git");
  return existsSync(dir) ? dir : null;
}

export function readBlob(gitDir: string, blob: string): Uint8Array | null {
  try {
    return new Uint8Array(execFileSync("git", ["--git-dir", gitDir, "cat-file", "blob", blob], { maxBuffer: 64 * 1024 * 1024, stdio: ["ignore", "pipe", "ignore"] }));
  } catch {
    return null;
  }
}

/** The labelled real decks of a part whose bytes are on this machine, and how many were not. */
export function loadRealDecks(part: Part | "all", root = MIRROR_ROOT): { decks: RealDeck[]; missing: number } {
  const decks: RealDeck[] = [];
  let missing = 0;
  for (const l of REAL_LABELS as RealLabel[]) {
    if (part !== "all" && l.part !== part) continue;
    const dir = mirrorOf(l.repo, root);
    const bytes = dir ? readBlob(dir, l.blob) : null;
    if (!bytes) {
      missing++;
      continue;
    }
    const { repo, path, blob, part: p, ...labels } = l;
    void blob;
    decks.push({ id: l.id, part: p, filename: l.filename, format: "pdf", bytes, labels, repo, path });
  }
  return { decks, missing };
}
