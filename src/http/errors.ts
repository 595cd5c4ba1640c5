// The error shapes of the contract: `{"detail": string}` for every error, and for 422 a list of
// `{loc, msg, type}`. Services throw ApiError; everything unexpected becomes a plain 500 with no
// stack trace, logged with the request id.

export type ValidationIssue = { loc: (string | number)[]; msg: string; type: string };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | ValidationIssue[],
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === "string" ? detail : detail.map((d) => d.msg).join("; "));
  }
}

export const notFound = (what = "Not found"): ApiError => new ApiError(404, what);

export const invalid = (loc: (string | number)[], msg: string, type = "value_error"): ApiError =>
  new ApiError(422, [{ loc, msg, type }]);

export const conflict = (detail: string): ApiError => new ApiError(409, detail);

/** A dependency is down (database locked past its busy timeout, disk full): retry later. */
export const unavailable = (detail: string, retryAfterSeconds = 5): ApiError =>
  new ApiError(503, detail, { "Retry-After": String(retryAfterSeconds) });

// SQLite answers these when the database is locked, full or failing underneath us. They are a
// dependency being unavailable, not a bug: 503, never an empty result.
const UNAVAILABLE_SQLITE = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|READONLY|PROTOCOL|NOMEM)/;

export function asDependencyFailure(error: unknown): ApiError | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && UNAVAILABLE_SQLITE.test(code)) {
    return unavailable("The database is temporarily unavailable; retry with backoff.");
  }
  return null;
}
