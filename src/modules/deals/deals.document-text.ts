// A document's extracted text, stored and read off the serving thread. Storing the pages of a large
// file is not a small write: the UPDATE re-indexes them for search (the deal_documents triggers feed
// FTS5, which tokenizes every word) and SQLite writes the whole row again, 4 MB of text cost the
// serving thread 0.5-2 s (issue 27: every request waited meanwhile, /healthz included), and every
// later UPDATE of that row (its category) rewrote it once more. So a worker thread with a connection
// of its own to the same database (WAL: readers are never blocked) writes the pages, their count,
// the status and the category in one UPDATE, and reads them back for a later pass (the JSON parse
// of megabytes included). The serving thread hands over and receives only the array of page texts.
//
// What stays: while the worker's transaction runs, a write on the serving connection waits for it
// (SQLite has one writer at a time; busy_timeout), which is a request that writes, not every request.
// An in-memory database (tests) cannot be shared with a thread: there the serving connection does it.
// The worker's code is sent as source text (a Blob URL, as in db/checkpointer.ts), so it works the same
// from the sources and from the compiled binary. One worker per process; it ends after a quiet spell.
import type { Database } from "bun:sqlite";

export type DocumentTextStore = {
  /** The document's pages as stored, or null if it has none. */
  read(documentId: string): Promise<string[] | null>;
  /** Stores the pages (status `extracted`, the page count) and, when given, the category: one UPDATE. */
  save(documentId: string, pages: string[], category: string | null): Promise<void>;
};

const READ_SQL = "SELECT pages FROM deal_documents WHERE id = ?";
const SAVE_SQL = "UPDATE deal_documents SET pages = ?, page_count = ?, status = 'extracted', category = coalesce(?, category) WHERE id = ?";

type Request = { path: string; busyTimeoutMs: number } & ({ op: "read"; documentId: string } | { op: "save"; documentId: string; pages: string[]; category: string | null });
type ToWorker = Request & { id: number };
type FromWorker = { id: number; pages?: string[] | null; error?: string };

const WORKER_SOURCE = `
const { Database } = require("bun:sqlite");
const open = new Map();
const connection = (path, busyTimeoutMs) => {
  let c = open.get(path);
  if (!c) {
    const db = new Database(path, { readwrite: true, create: false, strict: true });
    db.exec("PRAGMA busy_timeout = " + Math.trunc(busyTimeoutMs));
    db.exec("PRAGMA synchronous = NORMAL");
    c = { db, read: db.query(${JSON.stringify(READ_SQL)}), save: db.query(${JSON.stringify(SAVE_SQL)}), usedAt: 0 };
    open.set(path, c);
  }
  c.usedAt = Date.now();
  return c;
};
// A connection unused for a while is closed: a data dir a test removed, or a restore, is let go.
setInterval(() => {
  for (const [path, c] of open) if (Date.now() - c.usedAt > 5000) { try { c.read.finalize(); c.save.finalize(); c.db.close(); } catch {} open.delete(path); }
}, 1000);
self.onmessage = (e) => {
  const m = e.data;
  try {
    const c = connection(m.path, m.busyTimeoutMs);
    if (m.op === "read") {
      const row = c.read.get(m.documentId);
      postMessage({ id: m.id, pages: row && row.pages ? JSON.parse(row.pages) : null });
    } else {
      c.save.run(JSON.stringify(m.pages), m.pages.length, m.category, m.documentId);
      postMessage({ id: m.id });
    }
  } catch (error) {
    postMessage({ id: m.id, error: String((error && error.message) || error) });
  }
};`;

/** The worker ends this long after its last request (a new one starts it again). */
const QUIET_MS = 10_000;

let worker: Worker | null = null;
let workerUrl: string | null = null;
let quietTimer: ReturnType<typeof setTimeout> | null = null;
let nextId = 1;
const pending = new Map<number, { resolve: (m: FromWorker) => void; reject: (e: Error) => void }>();

function stopWorker() {
  worker?.terminate();
  if (workerUrl) URL.revokeObjectURL(workerUrl);
  worker = null;
  workerUrl = null;
}

function startWorker(): Worker {
  if (worker) return worker;
  workerUrl = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" }));
  const w = new Worker(workerUrl);
  w.onmessage = (event: MessageEvent<FromWorker>) => {
    const m = event.data;
    const p = pending.get(m.id);
    pending.delete(m.id);
    p?.resolve(m);
    if (pending.size === 0) {
      quietTimer = setTimeout(() => pending.size === 0 && stopWorker(), QUIET_MS);
      quietTimer.unref?.();
    }
  };
  w.onerror = (event) => {
    const error = new Error(`the document text worker failed (${(event as ErrorEvent).message ?? "unknown error"})`);
    for (const p of pending.values()) p.reject(error);
    pending.clear();
    stopWorker();
  };
  // Only what it is asked keeps it going: an idle worker never keeps a process alive.
  w.unref();
  worker = w;
  return w;
}

function ask(message: Request): Promise<FromWorker> {
  if (quietTimer) clearTimeout(quietTimer);
  quietTimer = null;
  const id = nextId++;
  const w = startWorker();
  return new Promise<FromWorker>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.postMessage({ ...message, id } as ToWorker);
  }).then((m) => {
    if (m.error !== undefined) throw new Error(`The document's text could not be stored or read (${m.error})`);
    return m;
  });
}

/** Where the pages are written: in the worker for a database file, else on the connection itself. */
export function documentTextStore(sqlite: Database, busyTimeoutMs: number): DocumentTextStore {
  const path = sqlite.filename;
  if (path && path !== ":memory:") {
    return {
      read: async (documentId) => (await ask({ op: "read", path, busyTimeoutMs, documentId })).pages ?? null,
      save: async (documentId, pages, category) => void (await ask({ op: "save", path, busyTimeoutMs, documentId, pages, category })),
    };
  }
  const read = sqlite.query<{ pages: string | null }, [string]>(READ_SQL);
  const save = sqlite.query(SAVE_SQL);
  return {
    read: async (documentId) => {
      const pages = read.get(documentId)?.pages;
      return pages ? (JSON.parse(pages) as string[]) : null;
    },
    save: async (documentId, pages, category) => void save.run(JSON.stringify(pages), pages.length, category, documentId),
  };
}
