// Import of the LP book (CONTRACT.md, "Import formats"): commitments, cashflows and marks from CSV,
// any of the three at once. Every row of every file is validated and every bad row reported by
// file and line; if any is bad nothing is written (one transaction over all the files). Re-imports
// upsert by natural key (commitment: fund_name; cashflow: fund_name + date + type + amount; mark:
// fund_name + mark_date); a re-imported commitment keeps the vintage and currency it is not given. Cashflows and marks name their fund; its commitment must exist already
// or come in the same import, and a currency they name must be the commitment's.
import { and, eq, sql } from "drizzle-orm";
import { perDeps, type Deps } from "../../deps.ts";
import { notFound } from "../../http/errors.ts";
import { cellReader, duplicateChecker } from "../../lib/csv-fields.ts";
import { emptySummary, ImportError, readCsvTable, type ImportFile, type ImportProblem, type ImportSummary, type Progress } from "../../lib/csv.ts";
import { newId } from "../../lib/ids.ts";
import { orgsService } from "../identity/orgs.service.ts";
import { fundCashflows, fundCommitments, fundMarks } from "./funds.tables.ts";

export const COMMITMENT_COLUMNS = { required: ["fund_name", "commitment"], optional: ["vintage_year", "currency"] } as const;
export const CASHFLOW_COLUMNS = { required: ["fund_name", "cashflow_date", "type", "amount"], optional: ["currency"] } as const;
export const MARK_COLUMNS = { required: ["fund_name", "mark_date", "nav"], optional: ["currency"] } as const;
export const CASHFLOW_TYPES = ["call", "distribution"] as const;

export type FundFiles = { commitments?: ImportFile; cashflows?: ImportFile; marks?: ImportFile };
export type FundsImportSummary = { commitments?: ImportSummary; cashflows?: ImportSummary; marks?: ImportSummary };

type Row<T> = { line: number; fund: string; currency: string | null; values: T };
type CommitmentValues = { vintageYear: number | null; commitment: number; currency: string | null };
type CashflowValues = { cashflowDate: string; type: (typeof CASHFLOW_TYPES)[number]; amount: number };
type MarkValues = { markDate: string; nav: number };

const PROGRESS_EVERY = 10_000;

/** Reads a file's rows with `read`, collecting every problem; throws ImportError if there is any. */
function readRows<T>(
  file: ImportFile,
  columns: { required: readonly string[]; optional: readonly string[] },
  read: (c: ReturnType<ReturnType<typeof cellReader>>) => { fund: string | null; currency: string | null; values: T; key: string | null },
): Row<T>[] {
  const problems: ImportProblem[] = [];
  const cells = cellReader(file.name, problems);
  const duplicate = duplicateChecker(file.name, problems);
  const rows: Row<T>[] = [];
  for (const csvRow of readCsvTable(file.text, file.name, columns)) {
    const c = cells(csvRow);
    const before = problems.length;
    const { fund, currency, values, key } = read(c);
    if (problems.length > before || fund === null || key === null) continue;
    if (!duplicate(key, c.line, key.replaceAll("\u0000", ", "))) rows.push({ line: c.line, fund, currency, values });
  }
  if (problems.length) throw new ImportError(file.name, problems);
  return rows;
}

const readCommitments = (file: ImportFile) =>
  readRows<CommitmentValues>(file, COMMITMENT_COLUMNS, (c) => {
    const fund = c.text("fund_name", { required: true });
    const commitment = c.number("commitment", { required: true, positive: true });
    const vintageYear = c.number("vintage_year", { integer: true, min: 1900, max: 2200 });
    const currency = c.currency("currency");
    return { fund, currency, values: { vintageYear, commitment: commitment!, currency }, key: fund && `commitment to ${fund}` };
  });

const readCashflows = (file: ImportFile) =>
  readRows<CashflowValues>(file, CASHFLOW_COLUMNS, (c) => {
    const fund = c.text("fund_name", { required: true });
    const cashflowDate = c.date("cashflow_date", { required: true });
    const type = c.oneOf("type", CASHFLOW_TYPES, { required: true });
    const amount = c.number("amount", { required: true, positive: true });
    const currency = c.currency("currency");
    const key = fund && `${type} of ${amount} to ${fund} on ${cashflowDate}`;
    return { fund, currency, values: { cashflowDate: cashflowDate!, type: type!, amount: amount! }, key };
  });

const readMarks = (file: ImportFile) =>
  readRows<MarkValues>(file, MARK_COLUMNS, (c) => {
    const fund = c.text("fund_name", { required: true });
    const markDate = c.date("mark_date", { required: true });
    const nav = c.number("nav", { required: true, min: 0 });
    const currency = c.currency("currency");
    return { fund, currency, values: { markDate: markDate!, nav: nav! }, key: fund && `mark of ${fund} on ${markDate}` };
  });

/** Runs every reader, so one import reports the problems of all its files at once. */
function readAll<T extends Record<string, () => unknown>>(readers: T): { [K in keyof T]: ReturnType<T[K]> } {
  const errors: ImportError[] = [];
  const out: Record<string, unknown> = {};
  for (const [name, read] of Object.entries(readers)) {
    try {
      out[name] = read();
    } catch (error) {
      if (!(error instanceof ImportError)) throw error;
      errors.push(error);
    }
  }
  if (errors.length) throw ImportError.combine(errors);
  return out as { [K in keyof T]: ReturnType<T[K]> };
}

export const fundsImporter = perDeps((deps: Deps) => {
  const { db, clock } = deps;
  const sqlite = db.$client;
  const P = sql.placeholder;

  const commitmentsOfOrg = db.select().from(fundCommitments).where(eq(fundCommitments.orgId, P("org"))).prepare();
  const insertCashflow = db
    .insert(fundCashflows)
    .values({ id: P("id"), orgId: P("org"), commitmentId: P("commitment"), cashflowDate: P("date"), type: P("type"), amount: P("amount"), createdAt: P("now") })
    .onConflictDoNothing()
    .returning({ id: fundCashflows.id })
    .prepare();
  const markByKey = db
    .select({ id: fundMarks.id, nav: fundMarks.nav })
    .from(fundMarks)
    .where(and(eq(fundMarks.commitmentId, P("commitment")), eq(fundMarks.markDate, P("date"))))
    .prepare();

  const ledgerSize = sqlite.query<{ cashflows: number; marks: number }, { id: string }>(
    "SELECT (SELECT count(*) FROM fund_cashflows WHERE commitment_id = $id) AS cashflows, (SELECT count(*) FROM fund_marks WHERE commitment_id = $id) AS marks",
  );

  /**
   * Writes the commitments; returns every commitment of the org by fund name, afterwards. On a
   * re-import an optional value not given (no column, or an empty cell) keeps the stored one; a
   * currency may be set where there was none, but not changed once cashflows or marks are in it
   * (their amounts would silently change currency): that line is a problem.
   */
  function upsertCommitments(orgId: string, file: ImportFile | undefined, rows: Row<CommitmentValues>[], summary: ImportSummary, problems: ImportProblem[], now: string) {
    const byFund = new Map(commitmentsOfOrg.all({ org: orgId }).map((c) => [c.fundName, c]));
    for (const { line, fund, values } of rows) {
      const existing = byFund.get(fund);
      if (!existing) {
        db.insert(fundCommitments).values({ id: newId(), orgId, fundName: fund, ...values, createdAt: now, updatedAt: now }).run();
        summary.inserted++;
        continue;
      }
      const next = { commitment: values.commitment, vintageYear: values.vintageYear ?? existing.vintageYear, currency: values.currency ?? existing.currency };
      if (existing.currency !== null && next.currency !== existing.currency) {
        const held = ledgerSize.get({ id: existing.id })!;
        if (held.cashflows + held.marks > 0) {
          const what = [held.cashflows && `${held.cashflows} cashflow${held.cashflows === 1 ? "" : "s"}`, held.marks && `${held.marks} mark${held.marks === 1 ? "" : "s"}`].filter(Boolean).join(" and ");
          problems.push({
            file: file!.name,
            line,
            column: "currency",
            message: `the commitment to ${JSON.stringify(fund)} is in ${existing.currency} and has ${what} in ${existing.currency}; its currency cannot change to ${next.currency}`,
          });
          continue;
        }
      }
      if (existing.vintageYear !== next.vintageYear || existing.commitment !== next.commitment || existing.currency !== next.currency) {
        db.update(fundCommitments).set({ ...next, updatedAt: now }).where(eq(fundCommitments.id, existing.id)).run();
        summary.updated++;
      } else summary.unchanged++;
    }
    return new Map(commitmentsOfOrg.all({ org: orgId }).map((c) => [c.fundName, c]));
  }

  /** Each row's commitment, or a problem: an unknown fund, or a currency other than the commitment's. */
  function resolveFunds<T>(file: ImportFile, rows: Row<T>[], byFund: Map<string, { id: string; currency: string | null }>, problems: ImportProblem[]) {
    const resolved: { commitmentId: string; row: Row<T> }[] = [];
    for (const row of rows) {
      const c = byFund.get(row.fund);
      if (!c) problems.push({ file: file.name, line: row.line, column: "fund_name", message: `no commitment to fund ${JSON.stringify(row.fund)} (import its commitment first, or with --commitments)` });
      else if (row.currency !== null && row.currency !== c.currency) {
        problems.push({ file: file.name, line: row.line, column: "currency", message: `currency ${row.currency} is not the currency of the commitment to ${row.fund} (${c.currency ?? "none given"})` });
      } else resolved.push({ commitmentId: c.id, row });
    }
    return resolved;
  }

  function importFunds(orgId: string, files: FundFiles, progress: Progress = () => {}): FundsImportSummary {
    if (!orgsService(deps).getOrg(orgId)) throw notFound(`No organization with id ${orgId}`);
    const read = readAll({
      commitments: () => (files.commitments ? readCommitments(files.commitments) : null),
      cashflows: () => (files.cashflows ? readCashflows(files.cashflows) : null),
      marks: () => (files.marks ? readMarks(files.marks) : null),
    });
    for (const [kind, rows] of Object.entries(read)) {
      if (rows) progress(`${files[kind as keyof FundFiles]!.name}: ${rows.length} ${rows.length === 1 ? kind.slice(0, -1) : kind} read`);
    }
    const now = clock.now().toISOString();
    const summary: FundsImportSummary = {};
    db.transaction(() => {
      const written = emptySummary(files.commitments?.name ?? "", read.commitments?.length ?? 0);
      // Problems found against what is stored, all reported at once (the transaction then rolls back).
      const problems: ImportProblem[] = [];
      const byFund = upsertCommitments(orgId, files.commitments, read.commitments ?? [], written, problems, now);
      if (read.commitments) summary.commitments = written;
      const cashflows = read.cashflows ? resolveFunds(files.cashflows!, read.cashflows, byFund, problems) : [];
      const marks = read.marks ? resolveFunds(files.marks!, read.marks, byFund, problems) : [];
      if (problems.length) {
        const failed = [files.commitments, files.cashflows, files.marks].filter((f) => f && problems.some((p) => p.file === f.name));
        throw new ImportError(failed.map((f) => f!.name).join(", "), problems);
      }

      if (read.cashflows) {
        const s = (summary.cashflows = emptySummary(files.cashflows!.name, cashflows.length));
        cashflows.forEach(({ commitmentId, row }, i) => {
          const v = row.values;
          const inserted = insertCashflow.get({ id: newId(), org: orgId, commitment: commitmentId, date: v.cashflowDate, type: v.type, amount: v.amount, now });
          if (inserted) s.inserted++;
          else s.unchanged++;
          if ((i + 1) % PROGRESS_EVERY === 0) progress(`${files.cashflows!.name}: ${i + 1}/${cashflows.length} written`);
        });
      }
      if (read.marks) {
        const s = (summary.marks = emptySummary(files.marks!.name, marks.length));
        for (const { commitmentId, row } of marks) {
          const existing = markByKey.get({ commitment: commitmentId, date: row.values.markDate });
          if (!existing) {
            db.insert(fundMarks).values({ id: newId(), orgId, commitmentId, ...row.values, createdAt: now, updatedAt: now }).run();
            s.inserted++;
          } else if (existing.nav !== row.values.nav) {
            db.update(fundMarks).set({ nav: row.values.nav, updatedAt: now }).where(eq(fundMarks.id, existing.id)).run();
            s.updated++;
          } else s.unchanged++;
        }
      }
    });
    return summary;
  }

  return { importFunds };
});
