// Row shapes of raw bun:sqlite statements, derived from the drizzle tables: a table is declared once
// (its *.tables.ts) and every hot statement that bypasses drizzle's row mapping still reads its
// columns' names and types from that declaration.
//
// Raw rows hold what SQLite stores: a boolean-mode column reads 0 or 1, a JSON or timestamp mode
// column its stored text or number. Text and number columns (enums included) read as declared.
import { getTableColumns, type Column, type Table } from "drizzle-orm";

type Stored<C extends Column> =
  | (C["_"]["dataType"] extends "boolean" | "date" | "json" | "bigint" | "buffer" ? C["_"]["driverParam"] : C["_"]["data"])
  | (C["_"]["notNull"] extends true ? never : null);

type ColumnsOf<T extends Table> = T["_"]["columns"];

/** A row keyed by the table's property names (`orgId`), as a statement selecting `columnList(table)` reads it. */
export type RowOf<T extends Table> = { [K in keyof ColumnsOf<T>]: Stored<ColumnsOf<T>[K]> };

/** A row keyed by the table's SQL column names (`org_id`), as `SELECT *` (or a list of column names) reads it. */
export type SqlRowOf<T extends Table> = { [K in keyof ColumnsOf<T> as ColumnsOf<T>[K]["_"]["name"]]: Stored<ColumnsOf<T>[K]> };

/**
 * The select list that reads a table's columns under their property names (`org_id AS orgId`),
 * for a raw statement whose rows are `RowOf<table>` (or a Pick of it, given `only`).
 * @param alias the table's alias in the statement (`w` gives `w.org_id AS orgId`).
 */
export function columnList<T extends Table>(table: T, opts: { alias?: string; only?: readonly (keyof ColumnsOf<T> & string)[] } = {}): string {
  const columns = getTableColumns(table) as Record<string, Column>;
  const keys = opts.only ?? Object.keys(columns);
  const prefix = opts.alias ? `${opts.alias}.` : "";
  return keys.map((key) => (columns[key].name === key ? `${prefix}${key}` : `${prefix}${columns[key].name} AS ${key}`)).join(", ");
}
