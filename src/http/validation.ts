// Turns Elysia/TypeBox validation errors into the contract's 422 list. The quirks handled here
// were measured (DESIGN.md): a constrained query number reports an empty path, so such schemas
// carry `x-param` and we read the name back; a missing property yields two errors for one path.
import { t } from "elysia";
import { ValueErrorType } from "@sinclair/typebox/errors";
import type { ValidationIssue } from "./errors.ts";

type TypeBoxError = {
  path: string;
  type: number;
  message: string;
  schema: Record<string, unknown> & { anyOf?: Record<string, unknown>[] };
  value?: unknown;
};

/**
 * An integer query parameter with bounds whose 422 still names the parameter. Without a maximum
 * it is capped at the largest safe integer: past it (`9223372036854776000`, `1e300`) a number
 * is no longer exact, and SQLite would refuse it as an OFFSET.
 */
export function queryInt(name: string, opts: { minimum: number; maximum?: number; default?: number; description?: string }) {
  return t.Integer({ maximum: Number.MAX_SAFE_INTEGER, ...opts, "x-param": name });
}

function pointerToLoc(path: string): (string | number)[] {
  if (!path) return [];
  return path
    .split("/")
    .slice(1)
    .map((seg) => seg.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((seg) => (/^\d+$/.test(seg) ? Number(seg) : seg));
}

const quote = (v: unknown) => (typeof v === "string" ? `'${v}'` : String(v));

function describe(e: TypeBoxError): { msg: string; type: string } {
  const s = e.schema ?? {};
  const numberish = (x: Record<string, unknown>) => x.type === "integer" || x.type === "number";
  if (e.value === undefined) return { msg: "Field required", type: "missing" };
  const E = ValueErrorType;
  switch (e.type) {
    case E.Union: {
      // literals (an enum), or Elysia's "numeric string or number" for query numbers
      const branches = s.anyOf ?? [];
      const consts = branches.filter((b) => "const" in b).map((b) => b.const);
      if (consts.length) return { msg: `Input should be ${consts.map(quote).join(" or ")}`, type: "enum" };
      const target = branches.find((b) => numberish(b));
      if (target) {
        // The value may be a fine number that breaks a bound: say which bound.
        const n = typeof e.value === "string" && e.value.trim() !== "" ? Number(e.value) : e.value;
        const parsed = typeof n === "number" && Number.isFinite(n) && (target.type !== "integer" || Number.isInteger(n));
        if (parsed && typeof target.minimum === "number" && (n as number) < target.minimum)
          return { msg: `Input should be greater than or equal to ${target.minimum}`, type: "greater_than_equal" };
        if (parsed && typeof target.maximum === "number" && (n as number) > target.maximum)
          return { msg: `Input should be less than or equal to ${target.maximum}`, type: "less_than_equal" };
        return target.type === "integer"
          ? { msg: "Input should be a valid integer", type: "int_parsing" }
          : { msg: "Input should be a valid number", type: "float_parsing" };
      }
      return { msg: e.message, type: "union_error" };
    }
    case E.IntegerMinimum:
    case E.NumberMinimum:
      return { msg: `Input should be greater than or equal to ${s.minimum}`, type: "greater_than_equal" };
    case E.IntegerMaximum:
    case E.NumberMaximum:
      return { msg: `Input should be less than or equal to ${s.maximum}`, type: "less_than_equal" };
    case E.IntegerExclusiveMinimum:
    case E.NumberExclusiveMinimum:
      return { msg: `Input should be greater than ${s.exclusiveMinimum}`, type: "greater_than" };
    case E.IntegerExclusiveMaximum:
    case E.NumberExclusiveMaximum:
      return { msg: `Input should be less than ${s.exclusiveMaximum}`, type: "less_than" };
    case E.Integer:
      return { msg: "Input should be a valid integer", type: "int_type" };
    case E.Number:
      return { msg: "Input should be a valid number", type: "float_type" };
    case E.StringMinLength:
      return { msg: `String should have at least ${s.minLength} character${s.minLength === 1 ? "" : "s"}`, type: "string_too_short" };
    case E.StringMaxLength:
      return { msg: `String should have at most ${s.maxLength} characters`, type: "string_too_long" };
    case E.String:
      return { msg: "Input should be a valid string", type: "string_type" };
    case E.StringFormat:
      return { msg: `Input should be a valid ${s.format}`, type: "string_pattern_mismatch" };
    case E.StringPattern:
      return { msg: "String should match the expected pattern", type: "string_pattern_mismatch" };
    case E.ArrayMaxItems:
      return { msg: `List should have at most ${s.maxItems} item${s.maxItems === 1 ? "" : "s"}`, type: "too_long" };
    case E.ArrayMinItems:
      return { msg: `List should have at least ${s.minItems} item${s.minItems === 1 ? "" : "s"}`, type: "too_short" };
    case E.Array:
      return { msg: "Input should be a valid list", type: "list_type" };
    case E.Boolean:
      return { msg: "Input should be a valid boolean", type: "bool_type" };
    case E.Object:
      return { msg: "Input should be a valid object", type: "model_attributes_type" };
    case E.ObjectAdditionalProperties:
      return { msg: "Extra inputs are not permitted", type: "extra_forbidden" };
    case E.ObjectRequiredProperty:
      return { msg: "Field required", type: "missing" };
    case E.Literal:
      return { msg: `Input should be ${quote(s.const)}`, type: "literal_error" };
    case E.Kind:
      return { msg: `Input should be ${Array.isArray(s.enum) ? (s.enum as unknown[]).map(quote).join(" or ") : "one of the allowed values"}`, type: "enum" };
    default:
      return { msg: e.message, type: "value_error" };
  }
}

/**
 * @param location Elysia's `error.type`: body | query | params | headers | cookie, or "property"
 *   when a constrained number lost its path (then the schema's `x-param` names it, in the query).
 */
export function toValidationIssues(location: string, errors: TypeBoxError[]): ValidationIssue[] {
  const byLoc = new Map<string, ValidationIssue>();
  for (const e of errors) {
    let loc: (string | number)[];
    if (location === "property") {
      const param = e.schema?.["x-param"];
      loc = ["query", ...(typeof param === "string" ? [param] : [])];
    } else {
      loc = [location, ...pointerToLoc(e.path)];
    }
    const key = JSON.stringify(loc);
    const issue = { loc, ...describe(e) };
    const seen = byLoc.get(key);
    // One issue per location; "missing" is the truest description of an absent property.
    if (!seen || (issue.type === "missing" && seen.type !== "missing")) byLoc.set(key, issue);
  }
  return [...byLoc.values()];
}
