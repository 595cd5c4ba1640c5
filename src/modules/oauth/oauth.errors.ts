// OAuth's error vocabulary (RFC 6749 section 5.2, RFC 7591 section 3.2.2, RFC 7009, RFC 8707) and
// how the machine endpoints answer: JSON bodies with `error` and `error_description`, plus the
// contract's `detail` (the same words), never cached.

export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "invalid_scope"
  | "invalid_target"
  | "access_denied"
  | "invalid_redirect_uri"
  | "invalid_client_metadata"
  | "too_many_requests";

/** A refusal in OAuth's terms; `status` is the HTTP status of a JSON answer (a redirect carries only code and words). */
export class OAuthError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

export const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

export function oauthJson(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", ...NO_STORE, ...headers } });
}

export function oauthErrorResponse(error: OAuthError): Response {
  return oauthJson(error.status, { error: error.code, error_description: error.description, detail: error.description }, error.headers);
}
