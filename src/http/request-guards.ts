// Checks every API request gets right after its key, before anything reads its parameters.
import { isUuid } from "../lib/ids.ts";
import { invalid, notFound } from "./errors.ts";

/**
 * Every path parameter of the API is an id (`key_id`, `deal_id`, ...), and CONTRACT says an id
 * that is not a UUID is 404 like any unknown one: judged here, right after the key, so no route
 * can answer 422 about its body or query (or reach a service) with such an id.
 */
export function refuseMalformedIds(params: Record<string, string | undefined> | undefined): void {
  for (const [name, value] of Object.entries(params ?? {})) {
    if (name.endsWith("_id") && !(typeof value === "string" && isUuid(value))) {
      const what = name.slice(0, -3).replace(/_/g, " ");
      throw notFound(`${what[0].toUpperCase()}${what.slice(1)} not found: no such ${name}`);
    }
  }
}

/** No query parameter of the API is a list: a repeated one is a mistake, not a choice to guess at. */
export function refuseRepeatedQuery(url: string): void {
  const start = url.indexOf("?");
  if (start < 0) return;
  const seen = new Set<string>();
  for (const name of new URLSearchParams(url.slice(start + 1)).keys()) {
    if (seen.has(name)) throw invalid(["query", name], `Give ${name} once; it was repeated`, "repeated_parameter");
    seen.add(name);
  }
}
