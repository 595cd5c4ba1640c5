// The scopes of MCP sign-in: `read`, `write`, or `read write` (which is write: write includes
// read); none asked is `read`. A grant and its tokens hold one of two values.

export type GrantScope = "read" | "write";

export const SCOPES_SUPPORTED = ["read", "write"];

export type ParsedScope = { ok: true; scope: GrantScope } | { ok: false; problem: string };

export function parseScope(raw: string | null | undefined): ParsedScope {
  const tokens = (raw ?? "").split(" ").filter((t) => t !== "");
  if ((raw ?? "").length > 200) return { ok: false, problem: "scope is too long: use read, write, or read write" };
  const unknown = tokens.filter((t) => !SCOPES_SUPPORTED.includes(t));
  if (unknown.length) {
    return { ok: false, problem: `unknown scope ${unknown.map((t) => JSON.stringify(t.slice(0, 40))).join(", ")}: use read, write, or read write` };
  }
  return { ok: true, scope: tokens.includes("write") ? "write" : "read" };
}

/** The scope string of a token response or registration: every scope the grant holds. */
export const scopeString = (scope: GrantScope) => (scope === "write" ? "read write" : "read");

/** Whether `asked` is within `allowed`. */
export const scopeWithin = (asked: GrantScope, allowed: GrantScope) => asked === "read" || allowed === "write";
