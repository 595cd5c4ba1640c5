// The OpenAPI 3.1 document, generated from the routes' own `t` schemas, completed with what every
// operation shares (security schemes, error bodies, rate-limit headers), plus an interactive docs
// page whose assets are embedded in the binary: air-gapped installs have no CDN.
import { toOpenAPISchema } from "@elysiajs/openapi";
import { OptionalKind } from "@sinclair/typebox";
import { Elysia, type AnyElysia, type TSchema } from "elysia";
import type { OpenAPIV3 } from "openapi-types";
import swaggerBundle from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "file" };
import swaggerCss from "swagger-ui-dist/swagger-ui.css" with { type: "file" };
import { JSON_BODY_MAX_BYTES, MB } from "./request-body.ts";

export const API_VERSION = "1.10.0";
export const OPENAPI_PATH = "/api/v1/openapi.json";
export const DOCS_PATH = "/api/v1/docs";

type Operation = {
  operationId?: string;
  security?: unknown[];
  responses?: Record<string, unknown>;
  [k: string]: unknown;
};

/**
 * Response schemas for the document only. Elysia's runtime response validation cost ~40 us a
 * request (measured on GET /api/v1/me, most of it format checks), so routes declare their
 * responses here and the tests check real responses against the same schemas instead.
 */
export function jsonResponses(map: Record<number, TSchema | null>): OpenAPIV3.ResponsesObject {
  return Object.fromEntries(
    Object.entries(map).map(([status, schema]) => [
      status,
      schema
        ? { description: schema.description ?? "Success", content: { "application/json": { schema: JSON.parse(JSON.stringify(schema)) } } }
        : { description: "No content" },
    ]),
  );
}

const errorRef = { $ref: "#/components/schemas/Error" };
const json = (schema: unknown, description: string) => ({ description, content: { "application/json": { schema } } });

const COMMON_ERRORS: Record<string, unknown> = {
  "401": json(errorRef, "Key missing, invalid, revoked or expired"),
  "403": json(errorRef, "The key's user belongs to no organization, or a read-only key called an action"),
  "404": json(errorRef, "Not found, or not visible to the key's organization"),
  "422": json({ $ref: "#/components/schemas/ValidationError" }, "Invalid parameters"),
  "429": {
    ...json(errorRef, "Daily request (or actions) budget reached; resets at UTC midnight"),
    headers: { "Retry-After": { schema: { type: "integer" }, description: "Seconds until the budget resets" } },
  },
  "503": {
    ...json(errorRef, "A dependency is temporarily unavailable; retry with backoff"),
    headers: { "Retry-After": { schema: { type: "integer" } } },
  },
};

const RATE_HEADERS = {
  "X-RateLimit-Limit": { schema: { type: "integer" }, description: "The key's daily request budget" },
  "X-RateLimit-Remaining": { schema: { type: "integer" }, description: "Requests left today" },
  "X-RateLimit-Reset": { schema: { type: "integer" }, description: "Seconds until the budget resets at UTC midnight" },
  "X-Request-Id": { schema: { type: "string" }, description: "This request's id, also in the server log" },
};

// What the generator cannot know from the schemas alone, by operationId: which operations answer
// 409, and which are actions (charged against the daily actions budget, with X-Actions-* headers).
const CONFLICTS: Record<string, string> = {
  rotateApiKey: "The key is revoked, expired or was already rotated",
  analyzeDeal: "An analysis of the same target is already in flight in this organization",
  analyzeUpload: "An analysis of the same target is already in flight in this organization",
  startResearch: "This idempotency_key was already used in another workspace",
  createWebhook: "The URL is already registered as a webhook of this organization",
  redeliverWebhookDelivery: "An attempt of this delivery is in flight; Retry-After says when to try again",
};
const ACTIONS = new Set(["analyzeDeal", "analyzeUpload", "addDealDocuments", "analyzeFounder", "startResearch"]);

const ACTION_HEADERS = {
  "X-Actions-Limit": { schema: { type: "integer" }, description: "The key's daily actions budget" },
  "X-Actions-Remaining": { schema: { type: "integer" }, description: "Actions left today" },
};

type RequestBody = { required?: boolean; content?: Record<string, unknown> };
type Parameter = { in: string; name: string; required?: boolean; schema?: Record<string, unknown>; description?: string };

// The auth macro's own body parser (it defers judging malformed JSON until after auth) hides
// the JSON request body from the generator, which leaves `content` empty: put it back. The
// generator also marks every body required; a route whose body schema is t.Optional says otherwise.
function fillJsonBodies(app: AnyElysia, paths: Record<string, Record<string, Operation>>) {
  for (const route of app.routes) {
    const body = (route.hooks as { body?: unknown } | undefined)?.body;
    const path = route.path.replace(/:([^/]+)/g, "{$1}");
    const op = paths[path]?.[route.method.toLowerCase()] as (Operation & { requestBody?: RequestBody }) | undefined;
    if (!body || typeof body !== "object" || !op?.requestBody) continue;
    // (For an optional body the generator documents a strictness the route does not have.)
    const optional = OptionalKind in body;
    if (Object.keys(op.requestBody.content ?? {}).length === 0 || optional) {
      op.requestBody.content = { "application/json": { schema: JSON.parse(JSON.stringify(body)) } };
    }
    if (optional) op.requestBody.required = false;
  }
}

/**
 * Elysia documents a query or body number as "a numeric string or a number" (its coercion, with
 * a made-up `default: 0`), and our `x-param` marker rides along: clients need neither.
 */
function cleanSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(cleanSchema);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) if (k !== "x-param") out[k] = cleanSchema(v);
  const branches = out.anyOf as Record<string, unknown>[] | undefined;
  const COERCED: Record<string, string> = { integer: "integer", numeric: "number", boolean: "boolean" };
  if (Array.isArray(branches) && branches.length === 2) {
    const coercion = branches.find((b) => b.type === "string" && typeof b.format === "string" && COERCED[b.format]);
    const real = branches.find((b) => b !== coercion);
    if (coercion && real && real.type === COERCED[coercion.format as string]) {
      const { anyOf: _, ...outer } = out;
      return { ...outer, ...real };
    }
  }
  return out;
}

function fixParameters(parameters: Parameter[] | undefined) {
  for (const p of parameters ?? []) {
    // A parameter with a default can be left out, whatever the generator inferred.
    if (p.in === "query" && p.schema && "default" in p.schema) p.required = false;
    if (p.in === "path" && p.schema?.type === "string" && !p.schema.format) {
      p.schema = { ...p.schema, format: "uuid" };
      p.description ??= "An id (UUID); anything else, or another organization's id, is 404";
    }
  }
}

/** The statuses an operation shares with others of its kind, beyond the common errors. */
function addKindResponses(method: string, op: Operation & { requestBody?: RequestBody }) {
  const responses = (op.responses ??= {});
  const id = op.operationId ?? "";
  const multipart = !!op.requestBody?.content?.["multipart/form-data"];
  if (multipart) {
    responses["413"] ??= json(errorRef, "A file is larger than the limit");
    responses["415"] ??= json(errorRef, "A file's type (judged by its content, not its name) is not accepted");
  } else if (method !== "get" && method !== "head") {
    responses["415"] ??= json(errorRef, "The body is not application/json (a body-less request is fine where every field is optional)");
    if (op.requestBody) responses["413"] ??= json(errorRef, `The JSON body is larger than ${JSON_BODY_MAX_BYTES / MB} MB`);
  }
  if (CONFLICTS[id]) responses["409"] ??= json(errorRef, CONFLICTS[id]);
  if (ACTIONS.has(id)) {
    for (const [status, response] of Object.entries(responses)) {
      if (status.startsWith("2") || status === "429") {
        const r = response as { headers?: Record<string, unknown> };
        r.headers = { ...r.headers, ...ACTION_HEADERS };
      }
    }
  }
}

export function buildOpenApiDocument(app: AnyElysia) {
  // Paths with a dot are documented too (the /.well-known/ discovery documents); file assets are hidden routes.
  const generated = toOpenAPISchema(app, { paths: [OPENAPI_PATH], staticFile: false }, undefined, undefined, "3.1.0") as {
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, unknown> };
  };
  fillJsonBodies(app, generated.paths);
  const paths = cleanSchema(generated.paths) as Record<string, Record<string, Operation & { parameters?: Parameter[] }>>;
  const components = cleanSchema(generated.components) as typeof generated.components;
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (!path.startsWith("/api/v1/")) continue;
      const authenticated = Array.isArray(op.security) && op.security.length > 0;
      op.responses ??= {};
      fixParameters(op.parameters);
      for (const [status, response] of Object.entries(op.responses)) {
        if (status.startsWith("2") && authenticated) {
          const r = response as { headers?: Record<string, unknown> };
          r.headers = { ...RATE_HEADERS, ...r.headers };
        }
      }
      for (const [status, response] of Object.entries(COMMON_ERRORS)) {
        if (!authenticated && (status === "401" || status === "403" || status === "429")) continue;
        // A copy each: action operations add headers to theirs.
        op.responses[status] ??= structuredClone(response);
      }
      if (authenticated) addKindResponses(method, op);
    }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Dealgraph API",
      version: API_VERSION,
      description:
        "One firm's deal pipeline, portfolio and LP book, and the network intelligence in its own email and calendar. " +
        "Every request needs an API key (`Authorization: Bearer ak_...` or `X-API-Key: ak_...`). " +
        "Missing data is `null`, usually with an `unavailable_reason`; figures are never invented.",
    },
    servers: [{ url: "/", description: "This server" }],
    paths,
    components: {
      schemas: {
        ...components.schemas,
        Error: {
          type: "object",
          required: ["detail"],
          properties: { detail: { type: "string", description: "What went wrong, in words" } },
        },
        ValidationError: {
          type: "object",
          required: ["detail"],
          properties: {
            detail: {
              type: "array",
              items: {
                type: "object",
                required: ["loc", "msg", "type"],
                properties: {
                  loc: { type: "array", items: { anyOf: [{ type: "string" }, { type: "integer" }] } },
                  msg: { type: "string" },
                  type: { type: "string", examples: ["missing", "json_invalid", "int_parsing", "less_than_equal"] },
                },
              },
            },
          },
        },
      },
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "`Authorization: Bearer ak_...`" },
        apiKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key", description: "`X-API-Key: ak_...`" },
      },
    },
  };
}

const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>Dealgraph API ${API_VERSION}</title>
  <link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css" />
  <style>body { margin: 0; } .swagger-ui .topbar { display: none; }</style>
</head>
<body>
  <div id="docs"></div>
  <script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: "${OPENAPI_PATH}", dom_id: "#docs", deepLinking: true, persistAuthorization: true });
  </script>
</body>
</html>`;

/** Serves the document (built once, on first request: all routes are mounted by then) and the docs page. */
export function openApiRoutes(appOf: () => AnyElysia) {
  let document: ReturnType<typeof buildOpenApiDocument> | null = null;
  const hidden = { detail: { hide: true } };
  const asset = (path: string, type: string) => () =>
    new Response(Bun.file(path), { headers: { "content-type": type, "cache-control": "public, max-age=86400" } });

  return new Elysia()
    .get(OPENAPI_PATH, () => (document ??= buildOpenApiDocument(appOf())), hidden)
    .get(DOCS_PATH, () => new Response(DOCS_HTML, { headers: { "content-type": "text/html; charset=utf-8" } }), hidden)
    .get(`${DOCS_PATH}/swagger-ui-bundle.js`, asset(swaggerBundle, "text/javascript; charset=utf-8"), hidden)
    .get(`${DOCS_PATH}/swagger-ui.css`, asset(swaggerCss, "text/css; charset=utf-8"), hidden);
}
