// A tar stream built in memory with the project's own writer: archives for backup tests (hand-made
// manifests, truncated or inflated entries) without a real backup run.
import { PassThrough } from "node:stream";
import { TarWriter } from "../../src/lib/tar.ts";

/** A tar stream of `entries` (name and bytes, in order), with its end-of-archive marker. */
export async function tarOf(entries: [string, Uint8Array][]): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on("data", (c) => chunks.push(c));
  const writer = new TarWriter(out);
  for (const [name, bytes] of entries) await writer.addBytes(name, bytes);
  await writer.finish();
  return Buffer.concat(chunks);
}
