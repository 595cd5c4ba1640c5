// GET /app/who-knows?domain=&person=: the network service's who-knows for the member (their own
// relationships and those of teammates who share), with each path owner's address for the intro
// request read from the org's members.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { invalid } from "../../http/errors.ts";
import { orgsService } from "../identity/orgs.service.ts";
import { networkService } from "../network/network.service.ts";
import { whoKnowsPage } from "./pages/who-knows.ts";
import { guard, sessionPrincipal } from "./web.guard.ts";
import { htmlResponse } from "./web.http.ts";

const hidden = { detail: { hide: true } };
export const PATHS_SHOWN = 25;

export function whoKnowsPages(deps: Deps) {
  const network = networkService(deps);
  const orgs = orgsService(deps);

  return new Elysia().get(
    "/app/who-knows",
    guard(deps, {}, (c) => {
      const domain = (c.url.searchParams.get("domain") ?? "").trim();
      const person = (c.url.searchParams.get("person") ?? "").trim();
      if (domain.length > 253) throw invalid(["query", "domain"], "A domain has at most 253 characters.");
      if (person.length > 320) throw invalid(["query", "person"], "Give a name or an email address of at most 320 characters.");
      const searched = domain !== "" || person !== "";
      const found = searched
        ? network.whoKnows(sessionPrincipal(deps, c.user, c.org), { domain: domain || undefined, person: person || undefined, limit: PATHS_SHOWN })
        : null;
      const emails = new Map(orgs.listMembers(c.org.id).map((m) => [m.id, m.email]));
      const page = whoKnowsPage(c.shell("Who knows", "who-knows"), {
        domain,
        person,
        searched,
        paths: (found?.paths ?? []).map((p) => ({ ...p, owner_email: p.owner_user_id ? (emails.get(p.owner_user_id) ?? null) : null })),
        unavailable_reason: found?.unavailable_reason ?? null,
        me: { name: c.user.name, userId: c.user.id },
        orgName: c.org.name,
      });
      return htmlResponse(page);
    }),
    hidden,
  );
}
