// Shared by the data-room tests: an app with a file-backed data dir, a primary deck analysed
// through the real runner, and the data-room request over app.handle.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { runAll, seededApp, type TestApp } from "../../helpers/app.ts";
import { pdfDeck, uploadForm } from "../../helpers/decks.ts";
import type { Fixture } from "../../helpers/fixtures.ts";

export type Ctx = { t: TestApp; f: Fixture };

/** The app (closed when the test finishes) and the standard firm. */
export const setup = (): Ctx => seededApp({ file: true });

export async function post(c: Ctx, path: string, form: FormData | string, key = c.f.keys.write.secret, headers: Record<string, string> = {}) {
  const h = new Headers(headers);
  h.set("authorization", `Bearer ${key}`);
  const res = await c.t.app.handle(new Request(`http://localhost${path}`, { method: "POST", body: form, headers: h }));
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : null };
}

export { runAll };

/** A deal from an uploaded deck, analysed (or left queued with `run: false`). */
export async function analysedDeal(c: Ctx, opts: { pages?: string[]; name?: string; kind?: "company" | "fund"; run?: boolean } = {}): Promise<string> {
  const fields: Record<string, string> = { company_name: opts.name ?? "Ledgerly", ...(opts.kind ? { kind: opts.kind } : {}) };
  const res = await post(c, "/api/v1/deals/analyze/upload", uploadForm(await pdfDeck(opts.pages), "deck.pdf", fields));
  if (res.status !== 202) throw new Error(`upload: ${res.status} ${JSON.stringify(res.json)}`);
  if (opts.run !== false) await runAll(c.t);
  return res.json.deal_id;
}

export const get = async (c: Ctx, path: string) => (await c.t.request("GET", path, { key: c.f.keys.read.secret })).json;

export const count = (c: Ctx, sql: string) => (c.t.deps.db.$client.query(sql).get() as { n: number }).n;

/** The files under the data dir's temp and blob folders (a refusal must leave neither behind). */
export function storedFiles(c: Ctx): { tmp: string[]; blobs: string[] } {
  const dir = c.t.deps.config.dataDir;
  const list = (p: string): string[] => (existsSync(p) ? readdirSync(p, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name) : []);
  return { tmp: list(join(dir, "tmp")), blobs: list(join(dir, "blobs")) };
}
