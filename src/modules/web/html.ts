// A tiny HTML template helper. `html` is a tagged template that escapes every interpolated value,
// except fragments made by `html` itself (or `raw`, for text the code wrote, never user data).
// Arrays are joined; null, undefined and false render as nothing.

const SAFE = Symbol("safe-html");

export type Html = { readonly [SAFE]: true; readonly text: string };

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;", "`": "&#96;" };

export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"'`]/g, (c) => ESCAPES[c]);
}

function isHtml(value: unknown): value is Html {
  return typeof value === "object" && value !== null && SAFE in value;
}

/** Markup the code itself wrote. Never pass user data here. */
export function raw(text: string): Html {
  return { [SAFE]: true, text };
}

function render(value: unknown): string {
  if (value === null || value === undefined || value === false) return "";
  if (isHtml(value)) return value.text;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(value);
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return raw(out);
}

/** Joins fragments (or escapes plain values) into one. */
export function join(parts: unknown[], separator: Html | string = ""): Html {
  return raw(parts.map(render).join(render(separator)));
}

export function toString(fragment: Html): string {
  return fragment.text;
}
