// The five network endpoints of the spec.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { authPlugin } from "../identity/auth.macro.ts";
import { invalid } from "../../http/errors.ts";
import { jsonResponses } from "../../http/openapi.ts";
import {
  ContactsQuery,
  ContactsResponse,
  GoingStaleResponse,
  LimitQuery,
  ReachCandidatesResponse,
  WarmthLookupBody,
  WarmthLookupResponse,
  WhoKnowsQuery,
  WhoKnowsResponse,
} from "./network.model.ts";
import { reachService } from "./network.reach.ts";
import { networkService } from "./network.service.ts";
import { networkSignals } from "./network.signals.ts";

const tags = ["Network"];

export function networkRoutes(deps: Deps) {
  const network = networkService(deps);
  const signals = networkSignals(deps);
  const reach = reachService(deps);

  return new Elysia({ prefix: "/api/v1/network" })
    .use(authPlugin(deps))
    .get(
      "/who-knows",
      ({ principal, query }) => {
        if (query.domain === undefined && query.person === undefined) {
          throw invalid(["query", "domain"], "Give a company domain, a person (name or email), or both", "missing");
        }
        return network.whoKnows(principal, query);
      },
      {
        auth: "read",
        query: WhoKnowsQuery,
        detail: {
          operationId: "whoKnows",
          tags,
          summary: "Ranked warm paths to a company or a person, pooled across teammates who share",
          responses: jsonResponses({ 200: WhoKnowsResponse }),
        },
      },
    )
    .post("/warmth/lookup", ({ principal, body }) => network.warmthLookup(principal, body.contacts), {
      auth: "read",
      body: WarmthLookupBody,
      detail: {
        operationId: "lookupWarmth",
        tags,
        summary: "The warmest pooled path to each of up to 100 contacts, one row per identifier in order",
        responses: jsonResponses({ 200: WarmthLookupResponse }),
      },
    })
    .get("/contacts", ({ principal, query }) => network.contacts(principal, query), {
      auth: "read",
      query: ContactsQuery,
      detail: {
        operationId: "listContacts",
        tags,
        summary: "The key user's contacts, keyset paginated (stable under concurrent imports)",
        responses: jsonResponses({ 200: ContactsResponse }),
      },
    })
    .get("/reach/candidates", ({ principal, query }) => reach.candidates(principal, query.limit), {
      auth: "read",
      query: LimitQuery(200, 60),
      detail: {
        operationId: "listReachCandidates",
        tags,
        summary: "Founders the key user can reach through someone they know well (stored nightly output)",
        responses: jsonResponses({ 200: ReachCandidatesResponse }),
      },
    })
    .get("/signals/going-stale", ({ principal, query }) => signals.goingStale(principal, query.limit), {
      auth: "read",
      query: LimitQuery(200, 25),
      detail: {
        operationId: "listGoingStale",
        tags,
        summary: "Relationships past their cadence (declared, else learned), most overdue first",
        responses: jsonResponses({ 200: GoingStaleResponse }),
      },
    });
}
