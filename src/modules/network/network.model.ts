import { t } from "elysia";
import { queryInt } from "../../http/validation.ts";

const Timestamp = t.String({ format: "date-time" });
const Nullable = <T extends Parameters<typeof t.Nullable>[0]>(s: T) => t.Nullable(s);

export const Signals = t.Nullable(
  t.Object(
    {
      first_touch_at: Timestamp,
      last_touch_at: Timestamp,
      last_touch_by: t.UnionEnum(["owner", "contact", "meeting"], { description: "Who wrote last, or a meeting" }),
      days_since_last_touch: t.Integer(),
      emails_sent: t.Integer({ description: "Emails from the path owner to the contact" }),
      emails_received: t.Integer(),
      meetings: t.Integer(),
      two_way_ratio: t.Number({ description: "1 when both sides write about equally, 0 when one-way" }),
    },
    { description: "What made this path warm (additive to the spec)" },
  ),
);

const pathFields = {
  contact_id: Nullable(t.String({ format: "uuid" })),
  name: Nullable(t.String()),
  title: Nullable(t.String()),
  email: Nullable(t.String()),
  domain: Nullable(t.String()),
  warmth: Nullable(t.Number({ description: "0 to 1" })),
  strength_score: Nullable(t.Number({ description: "0 to 100" })),
  relationship: Nullable(t.UnionEnum(["strong", "moderate", "weak", "dormant"])),
  path_owner: Nullable(t.String({ description: "The teammate who owns the relationship" })),
  owner_user_id: Nullable(t.String()),
  unavailable_reason: Nullable(t.UnionEnum(["contact_not_found", "no_relationship_data"])),
  signals: Signals,
};

export const ContactPath = t.Object(pathFields);

export const WhoKnowsQuery = t.Object({
  domain: t.Optional(t.String({ minLength: 1, maxLength: 253, description: "Company domain, e.g. acme.com" })),
  person: t.Optional(t.String({ minLength: 1, maxLength: 320, description: "A name or an email address" })),
  limit: queryInt("limit", { minimum: 1, maximum: 50, default: 10 }),
});

export const WhoKnowsResponse = t.Object({
  target: t.Object({ domain: Nullable(t.String()), person: Nullable(t.String()) }),
  scope: t.Literal("org_shared"),
  paths: t.Array(ContactPath),
  unavailable_reason: Nullable(t.UnionEnum(["contact_not_found", "no_relationship_data"])),
  as_of: Timestamp,
});

export const WarmthLookupBody = t.Object({
  contacts: t.Array(t.String({ minLength: 1, maxLength: 512 }), {
    minItems: 1,
    maxItems: 100,
    description: "Emails, contact ids, LinkedIn URLs or names",
  }),
});

export const WarmthLookupResponse = t.Object({
  scope: t.Literal("org_shared"),
  results: t.Array(t.Object({ ...pathFields, query: t.String() })),
  as_of: Timestamp,
});

export const ContactsQuery = t.Object({
  cursor: t.Optional(t.String({ maxLength: 200, description: "The previous page's next_cursor" })),
  limit: queryInt("limit", { minimum: 1, maximum: 200, default: 100 }),
});

export const ContactsResponse = t.Object({
  scope: t.Literal("key_user"),
  contacts: t.Array(t.Object({ ...pathFields, linkedin_url: Nullable(t.String()), location: Nullable(t.String()) })),
  next_cursor: Nullable(t.String()),
  as_of: Timestamp,
});

export const LimitQuery = (max: number, fallback: number) => t.Object({ limit: queryInt("limit", { minimum: 1, maximum: max, default: fallback }) });

export const GoingStaleResponse = t.Object({
  scope: t.Literal("key_user"),
  signals: t.Array(
    t.Object({
      contact_id: t.String({ format: "uuid" }),
      name: t.String(),
      email: Nullable(t.String()),
      days_since_last_touch: t.Integer(),
      effective_cadence_days: t.Integer(),
      source: t.UnionEnum(["declared", "learned"]),
      last_touch_at: Timestamp,
    }),
  ),
  total: t.Integer(),
  as_of: Timestamp,
});

export const ReachCandidate = t.Object({
  candidate_id: t.String({ format: "uuid" }),
  full_name: t.String(),
  linkedin_url: Nullable(t.String()),
  headline: Nullable(t.String()),
  current_title: Nullable(t.String()),
  current_company: Nullable(t.String()),
  location: Nullable(t.String()),
  candidate_type: t.String(),
  fit_score: t.Number({ description: "0 to 1" }),
  fit_reasons: t.Array(t.String()),
  path_quality: t.String(),
  is_proxy_first_degree: t.Boolean(),
  status: t.String(),
  first_seen_at: Timestamp,
  updated_at: Timestamp,
});

export const ReachCandidatesResponse = t.Object({ scope: t.Literal("key_user"), candidates: t.Array(ReachCandidate), as_of: Timestamp });
