import { Elysia } from "elysia";

// Every response carries X-Request-Id: the caller's own when it sent a sane one (so a trace can
// span systems), else a fresh one. Error logs carry the same id.
const SANE = /^[\w.:@-]{1,128}$/;

export function requestIdOf(request: Request): string {
  const given = request.headers.get("x-request-id");
  return given && SANE.test(given) ? given : crypto.randomUUID();
}

export const requestIdPlugin = new Elysia({ name: "request-id" }).onRequest(({ request, set }) => {
  set.headers["x-request-id"] = requestIdOf(request);
});
