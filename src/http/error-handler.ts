// Maps every failure to the contract's shapes. Unknown routes: 404, or 405 with Allow when the
// path exists under other methods. Anything unexpected: a logged 500 whose body says nothing
// about the internals.
import { Elysia } from "elysia";
import type { Log } from "../lib/log.ts";
import { ApiError, asDependencyFailure } from "./errors.ts";
import { toValidationIssues } from "./validation.ts";

type RouteTable = () => { method: string; path: string }[];

function compileRoutes(routes: { method: string; path: string }[]) {
  return routes.map((r) => ({
    method: r.method.toUpperCase(),
    pattern: new RegExp(
      "^" +
        r.path
          .split("/")
          .map((seg) => (seg.startsWith(":") ? "[^/]+" : seg === "*" ? ".*" : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
          .join("/") +
        "/?$",
    ),
  }));
}

/** The methods a path answers to among a table's routes (HEAD wherever GET; catch-alls aside), for 405 and Allow. */
export function allowedMethodsIn(routeTable: RouteTable): (path: string) => string[] {
  let compiled: ReturnType<typeof compileRoutes> | null = null;
  let compiledFrom = -1;
  return (path) => {
    const routes = routeTable();
    if (!compiled || compiledFrom !== routes.length) {
      compiled = compileRoutes(routes);
      compiledFrom = routes.length;
    }
    const methods = new Set(compiled.filter((r) => r.pattern.test(path)).map((r) => r.method));
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods].filter((m) => m !== "ALL").sort();
  };
}

/** Why a body Elysia could not parse was refused, in terms of what the client said it sent. */
function unreadableBody(contentType: string | null) {
  const media = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (media === "application/json" || media.endsWith("+json")) {
    return { loc: ["body"], msg: "Invalid JSON: the body could not be parsed", type: "json_invalid" };
  }
  const what = media ? `${media} body` : "body";
  return { loc: ["body"], msg: `Malformed ${what}: it could not be read`, type: "body_unreadable" };
}

export function errorHandlerPlugin(log: Log, routeTable: RouteTable) {
  const allowedMethods = allowedMethodsIn(routeTable);

  function respond(status: number, detail: unknown, headers: Record<string, unknown>, extra: Record<string, string> = {}) {
    const h = new Headers();
    for (const [k, v] of Object.entries(headers)) if (v !== undefined) h.set(k, String(v));
    for (const [k, v] of Object.entries(extra)) h.set(k, v);
    h.set("content-type", "application/json; charset=utf-8");
    return new Response(JSON.stringify({ detail }), { status, headers: h });
  }

  return new Elysia({ name: "error-handler" }).onError({ as: "global" }, ({ code, error, set, request }) => {
    const headers = set.headers as Record<string, unknown>;
    if (error instanceof ApiError) return respond(error.status, error.detail, headers, error.headers);
    switch (code) {
      case "VALIDATION": {
        // (A malformed path id never gets here: auth's refuseMalformedIds answers 404 first.)
        const { all, type } = error as unknown as { all: never[]; type: string };
        return respond(422, toValidationIssues(type, all), headers);
      }
      case "PARSE":
        return respond(422, [unreadableBody(request.headers.get("content-type"))], headers);
      case "NOT_FOUND": {
        const path = new URL(request.url).pathname;
        const allowed = allowedMethods(path);
        if (allowed.length && !allowed.includes(request.method.toUpperCase())) {
          return respond(405, `Method ${request.method} is not allowed on ${path}; allowed: ${allowed.join(", ")}.`, headers, {
            Allow: allowed.join(", "),
          });
        }
        return respond(404, "Not found", headers);
      }
    }
    const down = asDependencyFailure(error);
    if (down) {
      log.warn("dependency unavailable", { request_id: headers["x-request-id"], error: String(error) });
      return respond(down.status, down.detail, headers, down.headers);
    }
    log.error("unhandled error", {
      request_id: headers["x-request-id"],
      method: request.method,
      url: request.url,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return respond(500, "Internal server error", headers);
  });
}
