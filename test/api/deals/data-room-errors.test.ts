// Every refusal of the data room changes nothing: no document row, no run, no charge, no temp file
// and no blob that was not there before. Unreadable files that pass the door fail the run clearly.
import { describe, expect, test } from "bun:test";
import { strToU8, zipSync } from "fflate";
import { dataRoomForm, xlsxBomb, xlsxFile } from "../../helpers/decks.ts";
import { analysedDeal, count, get, post, runAll, setup, storedFiles, type Ctx } from "./data-room-helpers.ts";

let c: Ctx;

const CSV = "customer,acv\nAcme,120000\nGlobex,80000\n";

/** Snapshot of everything a data-room request could change. */
function state(c: Ctx) {
  return {
    documents: count(c, "SELECT COUNT(*) AS n FROM deal_documents"),
    runs: count(c, "SELECT COUNT(*) AS n FROM action_runs"),
    actions: count(c, "SELECT COALESCE(SUM(actions), 0) AS n FROM key_usage"),
    files: storedFiles(c),
  };
}

async function refused(id: string, form: FormData | string, status: number, detail: RegExp | null, key?: string, headers?: Record<string, string>) {
  const before = state(c);
  const res = await post(c, `/api/v1/deals/${id}/documents`, form, key, headers);
  expect(res.status).toBe(status);
  if (detail) expect(typeof res.json.detail === "string" ? res.json.detail : JSON.stringify(res.json.detail)).toMatch(detail);
  expect(state(c)).toEqual(before);
  return res;
}

describe("data-room refusals", () => {
  test("21 files: 422 naming files; none stored", async () => {
    c = setup();
    const id = await analysedDeal(c);
    const files = Array.from({ length: 21 }, (_, i) => [`${CSV}Row${i},${i}\n`, `f${i}.csv`] as [string, string]);
    const res = await refused(id, dataRoomForm(files), 422, /At most 20 files/);
    expect(res.json.detail[0].loc).toEqual(["body", "files"]);
    // Exactly 20 is fine.
    expect((await post(c, `/api/v1/deals/${id}/documents`, dataRoomForm(files.slice(0, 20)))).json.files_received).toBe(20);
  });

  test("one file over 50 MB among good ones: 413; none stored", async () => {
    c = setup();
    const id = await analysedDeal(c);
    const big = new Uint8Array(50 * 1024 * 1024 + 1).fill(0x61);
    await refused(id, dataRoomForm([[CSV, "ok.csv"], [big, "huge.txt"]]), 413, /huge\.txt is larger than 50 MB/);
  });

  test("an executable, an image or an unknown ZIP, whatever its name: 415; the good files with it are not stored either", async () => {
    c = setup();
    const id = await analysedDeal(c);
    const elf = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...new Array(64).fill(0)]);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const zip = zipSync({ "payload.bin": strToU8("not office") });
    for (const [bytes, name] of [[elf, "model.xlsx"], [png, "cap-table.csv"], [zip, "deck.pptx"]] as const) {
      await refused(id, dataRoomForm([[CSV, "ok.csv"], [bytes, name]]), 415, new RegExp(`${name.replace(".", "\\.")} is not a PDF, DOC/DOCX, PPT/PPTX, XLS/XLSX, CSV, plain text or Markdown`));
    }
  });

  test("no files, or not multipart: 422", async () => {
    c = setup();
    const id = await analysedDeal(c);
    const empty = new FormData();
    empty.append("folder", "Legal");
    expect((await refused(id, empty, 422, null)).json.detail[0]).toMatchObject({ loc: ["body", "files"], type: "missing" });
    // A file under another field name is not a data-room file.
    const wrong = new FormData();
    wrong.append("file", new Blob([CSV]), "a.csv");
    expect((await refused(id, wrong, 422, null)).json.detail[0].loc).toEqual(["body", "files"]);
    expect((await refused(id, JSON.stringify({ files: [] }), 422, null, undefined, { "content-type": "application/json" })).json.detail[0].loc).toEqual(["body"]);
  });

  test("while the deal's analysis is queued: a malformed upload is still 422 or 415 (validation first), nothing stored; a well-formed one is accepted (202)", async () => {
    c = setup();
    const id = await analysedDeal(c, { run: false });
    const empty = new FormData();
    empty.append("folder", "Legal");
    expect((await refused(id, empty, 422, null)).json.detail[0]).toMatchObject({ loc: ["body", "files"], type: "missing" });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    await refused(id, dataRoomForm([[png, "cap-table.csv"]]), 415, /cap-table\.csv is not a PDF/);
    const long = await post(c, `/api/v1/deals/${id}/documents`, dataRoomForm([[CSV, "a.csv"]], { folder: "x".repeat(256) }));
    expect([long.status, long.json.detail[0].loc]).toEqual([422, ["body", "folder"]]);
    expect(count(c, "SELECT COUNT(*) AS n FROM deal_documents WHERE kind = 'data_room'")).toBe(0);
    const accepted = await post(c, `/api/v1/deals/${id}/documents`, dataRoomForm([[CSV, "a.csv"]]));
    expect([accepted.status, accepted.json.status]).toEqual([202, "queued"]);
  });

  test("unknown, non-UUID and another org's deal: 404; a read key: 403", async () => {
    c = setup();
    const id = await analysedDeal(c);
    const form = () => dataRoomForm([[CSV, "a.csv"]]);
    await refused("0190b6f4-0000-7000-8000-000000000000", form(), 404, /Deal not found/);
    await refused("not-a-uuid", form(), 404, /Deal not found/);
    await refused(id, form(), 404, /Deal not found/, c.f.keys.otherOrgWrite.secret);
    await refused(id, form(), 403, /read-only/, c.f.keys.read.secret);
  });

  test("actions budget spent: 429 with Retry-After; no document, no run, no blob", async () => {
    c = setup();
    const id = await analysedDeal(c); // spends the key's only action
    c.t.deps.db.$client.query("UPDATE api_keys SET daily_actions = 1 WHERE id = ?").run(c.f.keys.write.id);
    const res = await refused(id, dataRoomForm([["A file whose bytes the store has never seen.", "new.txt"]]), 429, /action/i);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(res.headers.get("x-actions-remaining")).toBe("0");
  });

  test("DOC/PPT/XLS without LibreOffice: 503 with Retry-After; nothing stored", async () => {
    c = setup();
    const id = await analysedDeal(c);
    const xls = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...new Array(504).fill(0), ...Buffer.from("Workbook", "utf16le")]);
    const path = process.env.PATH;
    process.env.PATH = "/nonexistent";
    try {
      const res = await refused(id, dataRoomForm([[CSV, "a.csv"], [xls, "legacy.xls"]]), 503, /LibreOffice/);
      expect(res.headers.get("retry-after")).toBe("3600");
    } finally {
      process.env.PATH = path;
    }
  });
});

describe("files that pass the door but cannot be read", () => {
  test("a zip bomb and a corrupt XLSX: each `failed`, the run fails naming both, the last analysis stands; a later pass leaves them out", async () => {
    c = setup();
    const id = await analysedDeal(c);
    const before = await get(c, `/api/v1/deals/${id}?view=full`);
    const whole = xlsxFile({ S: [["Revenue", 1]] });
    const corrupt = whole.slice(0, whole.length - 40); // the ZIP's directory cut off: its parts are named, not readable
    const res = await post(c, `/api/v1/deals/${id}/documents`, dataRoomForm([[xlsxBomb(), "bomb.xlsx"], [corrupt, "Financials/model.xlsx"], [CSV, "customers.csv"]]));
    expect(res.status).toBe(202);
    await runAll(c.t);
    const status = await get(c, `/api/v1/deals/${id}/analysis`);
    expect(status.status).toBe("failed");
    expect(status.error).toMatch(/^2 data-room files could not be read, so the deal was not re-analysed/);
    expect(status.error).toMatch(/bomb\.xlsx: The file expands to more than .*; refused as a possible zip bomb/);
    expect(status.error).toMatch(/model\.xlsx: The file is not a readable ZIP container \(no end-of-directory record/);
    const docs = Object.fromEntries((await get(c, `/api/v1/deals/${id}/documents`)).documents.map((d: any) => [d.filename, d]));
    expect([docs["bomb.xlsx"].status, docs["model.xlsx"].status, docs["customers.csv"].status]).toEqual(["failed", "failed", "extracted"]);
    expect(docs["bomb.xlsx"].page_count).toBeNull();
    expect((await get(c, `/api/v1/deals/${id}?view=full`)).analysis).toEqual(before.analysis);

    // The next upload re-analyses over everything readable; the failed files stay failed and out.
    expect((await post(c, `/api/v1/deals/${id}/documents`, dataRoomForm([["# Competition\n\nUnlike incumbents, Ledgerly reconciles per seller.\n- moat: payout data\n", "notes.md"]]))).status).toBe(202);
    await runAll(c.t);
    expect((await get(c, `/api/v1/deals/${id}/analysis`)).status).toBe("succeeded");
    const after = await get(c, `/api/v1/deals/${id}?view=full`);
    const cited = new Set(after.analysis.sections.flatMap((s: any) => s.evidence.map((e: any) => e.document_id)));
    expect(cited.has(docs["bomb.xlsx"].document_id) || cited.has(docs["model.xlsx"].document_id)).toBe(false);
    expect(after.analysis.sections.find((s: any) => s.key === "competition").score).toBeGreaterThan(0);
  });
});
