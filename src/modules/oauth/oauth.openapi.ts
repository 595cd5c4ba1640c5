// How MCP sign-in's endpoints appear in the OpenAPI document. Their bodies are OAuth's (forms, and
// RFC 7591 JSON) and their errors OAuth's, so they are described here rather than by `t` schemas,
// which would turn a bad parameter into the API's 422 instead of OAuth's 400.
import type { OpenAPIV3 } from "openapi-types";

type Schema = OpenAPIV3.SchemaObject;

const oauthError: Schema = {
  type: "object",
  required: ["error", "error_description", "detail"],
  properties: {
    error: { type: "string", example: "invalid_grant" },
    error_description: { type: "string" },
    detail: { type: "string", description: "The same words as error_description" },
  },
};
const errorResponse = (description: string) => ({ description, content: { "application/json": { schema: oauthError } } });
const tooMany = { ...errorResponse("Too many requests from this client address"), headers: { "Retry-After": { schema: { type: "integer" as const } } } };
const json = (description: string, schema: Schema) => ({ description, content: { "application/json": { schema } } });
const form = (properties: Record<string, Schema>, required: string[]) => ({
  required: true,
  content: { "application/x-www-form-urlencoded": { schema: { type: "object" as const, required, properties } } },
});

const tokens: Schema = {
  type: "object",
  required: ["access_token", "token_type", "expires_in", "refresh_token", "scope"],
  properties: {
    access_token: { type: "string", description: "`mcp_at_...`, for /mcp only (the REST API refuses it)" },
    token_type: { type: "string", enum: ["Bearer"] },
    expires_in: { type: "integer", example: 3600 },
    refresh_token: { type: "string", description: "`mcp_rt_...`: single use; a second use revokes the grant" },
    scope: { type: "string", enum: ["read", "read write"] },
  },
};

export const OAUTH_OPENAPI: Record<string, Partial<OpenAPIV3.OperationObject>> = {
  resourceMetadata: {
    operationId: "getProtectedResourceMetadata",
    summary: "Protected resource metadata of /mcp (RFC 9728)",
    responses: { 200: json("resource, authorization_servers, scopes_supported", { type: "object" }) },
  },
  mcpResourceMetadata: {
    operationId: "getMcpProtectedResourceMetadata",
    summary: "The same, at the path RFC 9728 derives from the resource /mcp (where a 401 from /mcp points)",
    responses: { 200: json("resource, authorization_servers, scopes_supported", { type: "object" }) },
  },
  serverMetadata: {
    operationId: "getAuthorizationServerMetadata",
    summary: "Authorization server metadata (RFC 8414)",
    responses: { 200: json("issuer, endpoints, supported grant types, PKCE methods and scopes", { type: "object" }) },
  },
  register: {
    operationId: "registerOAuthClient",
    summary: "Dynamic client registration of a public client (RFC 7591)",
    requestBody: {
      required: true,
      content: {
        "application/json": {
          schema: {
            type: "object",
            required: ["redirect_uris"],
            properties: {
              redirect_uris: { type: "array", items: { type: "string" }, description: "https, or http on 127.0.0.1, [::1] or localhost (any port at authorization)" },
              client_name: { type: "string", maxLength: 200 },
              scope: { type: "string", description: "read, write or read write: the most it will ask for" },
              grant_types: { type: "array", items: { type: "string", enum: ["authorization_code", "refresh_token"] } },
              response_types: { type: "array", items: { type: "string", enum: ["code"] } },
              token_endpoint_auth_method: { type: "string", description: "Registered as none whatever is asked: public clients only" },
            },
          },
        },
      },
    },
    responses: {
      201: json("The client as registered, with its client_id", { type: "object", required: ["client_id", "redirect_uris", "token_endpoint_auth_method"] }),
      400: errorResponse("invalid_redirect_uri or invalid_client_metadata"),
      429: tooMany,
    },
  },
  authorize: {
    operationId: "authorizeOAuth",
    summary: "Authorization endpoint: leads to the consent page (sign-in first when needed)",
    parameters: ["response_type", "client_id", "redirect_uri", "scope", "state", "code_challenge", "code_challenge_method", "resource"].map((name) => ({
      in: "query",
      name,
      required: ["response_type", "client_id", "code_challenge", "code_challenge_method"].includes(name),
      schema: { type: "string" },
    })),
    responses: { 303: { description: "To the consent page; from there to redirect_uri with code (or error) and state" } },
  },
  token: {
    operationId: "exchangeOAuthToken",
    summary: "Token endpoint: authorization_code (with PKCE) or refresh_token (rotating)",
    requestBody: form(
      {
        grant_type: { type: "string", enum: ["authorization_code", "refresh_token"] },
        client_id: { type: "string" },
        code: { type: "string" },
        code_verifier: { type: "string" },
        redirect_uri: { type: "string" },
        refresh_token: { type: "string" },
        scope: { type: "string" },
        resource: { type: "string", description: "RFC 8707: this server's /mcp" },
      },
      ["grant_type", "client_id"],
    ),
    responses: {
      200: json("Access token (1 hour) and a new refresh token", tokens),
      400: errorResponse("invalid_request, invalid_grant, invalid_scope, invalid_target or unsupported_grant_type"),
      401: errorResponse("invalid_client"),
      429: tooMany,
    },
  },
  revoke: {
    operationId: "revokeOAuthToken",
    summary: "Revocation (RFC 7009): either token of a grant revokes the grant",
    requestBody: form({ token: { type: "string" }, token_type_hint: { type: "string" }, client_id: { type: "string" } }, ["token", "client_id"]),
    responses: {
      200: json("Revoked (or not a token this server knows)", { type: "object" }),
      400: errorResponse("invalid_request, or the token is another client's (unauthorized_client)"),
      401: errorResponse("invalid_client"),
      429: tooMany,
    },
  },
};
