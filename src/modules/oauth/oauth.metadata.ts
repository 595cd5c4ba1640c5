// Where everything of MCP sign-in is, from the server's public base URL (DEALGRAPH_PUBLIC_URL, else
// the bound address: http/public-origin.ts), and the two discovery documents: the protected
// resource's (RFC 9728) and the authorization server's (RFC 8414). The authorization server is
// Dealgraph itself: its issuer is the base URL.
import { SCOPES_SUPPORTED } from "./oauth.scope.ts";

export const MCP_RESOURCE_PATH = "/mcp";
export const PROTECTED_RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource";
export const AUTHORIZATION_SERVER_METADATA_PATH = "/.well-known/oauth-authorization-server";
export const OAUTH_PATHS = { authorize: "/oauth/authorize", token: "/oauth/token", register: "/oauth/register", revoke: "/oauth/revoke" } as const;
/** The consent page (in the web app, where the session cookie is sent): /oauth/authorize leads there. */
export const CONSENT_PATH = "/app/oauth/authorize";

export const ACCESS_TOKEN_SECONDS = 3600;
export const REFRESH_TOKEN_DAYS = 30;
export const CODE_SECONDS = 60;

/** This server's resource identifier (RFC 8707): the audience every token is bound to. */
export const mcpResource = (base: string) => `${base}${MCP_RESOURCE_PATH}`;

/** The protected resource metadata of /mcp, where a 401 from /mcp points (RFC 9728 section 3.1). */
export const resourceMetadataUrl = (base: string) => `${base}${PROTECTED_RESOURCE_METADATA_PATH}${MCP_RESOURCE_PATH}`;

/** What /mcp's 401 says: where to learn how to sign in (RFC 9728 section 5.1), and, for a refused token, that it is one (RFC 6750 section 3.1). */
export function mcpChallenge(base: string, presented: boolean): string {
  return `Bearer ${presented ? 'error="invalid_token", ' : ""}resource_metadata="${resourceMetadataUrl(base)}"`;
}

export function protectedResourceMetadata(base: string) {
  return {
    resource: mcpResource(base),
    authorization_servers: [base],
    scopes_supported: SCOPES_SUPPORTED,
    bearer_methods_supported: ["header"],
    resource_name: "Dealgraph",
  };
}

export function authorizationServerMetadata(base: string) {
  return {
    issuer: base,
    authorization_endpoint: `${base}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${base}${OAUTH_PATHS.token}`,
    registration_endpoint: `${base}${OAUTH_PATHS.register}`,
    revocation_endpoint: `${base}${OAUTH_PATHS.revoke}`,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    scopes_supported: SCOPES_SUPPORTED,
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    // RFC 9207: redirects back to the client carry `iss`.
    authorization_response_iss_parameter_supported: true,
  };
}
