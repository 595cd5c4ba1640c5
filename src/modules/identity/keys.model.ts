import { t } from "elysia";

const Timestamp = t.String({ format: "date-time" });

const Usage = t.Object({
  used: t.Integer({ description: "Counted today (UTC)" }),
  limit: t.Integer({ description: "The key's daily budget" }),
});

export const ApiKeyModel = t.Object(
  {
    key_id: t.String({ format: "uuid" }),
    name: t.String(),
    scope: t.UnionEnum(["read", "write"]),
    prefix: t.String({ description: "The first characters of the secret, to tell keys apart" }),
    status: t.UnionEnum(["active", "expired", "revoked"]),
    created_at: Timestamp,
    expires_at: t.Nullable(Timestamp),
    revoked_at: t.Nullable(Timestamp),
    last_used_at: t.Nullable(Timestamp),
    rotated_from_key_id: t.Nullable(t.String({ format: "uuid" })),
    usage_today: t.Object({ requests: Usage, actions: Usage }),
  },
  { description: "An API key of the key's own user. The secret is never shown again after creation." },
);

export const ApiKeyListModel = t.Object({
  scope: t.Literal("key_user"),
  keys: t.Array(ApiKeyModel),
  as_of: Timestamp,
});

export const ApiKeyDetailModel = t.Object({ scope: t.Literal("key_user"), key: ApiKeyModel, as_of: Timestamp });

export const RotateBodyModel = t.Object(
  {
    overlap_hours: t.Optional(
      t.Integer({ minimum: 0, maximum: 720, description: "How long the old key keeps working (default 24)" }),
    ),
  },
);

export const RotatedKeyModel = t.Object({
  key: ApiKeyModel,
  secret: t.String({ description: "The new key's secret (`ak_...`), shown this once" }),
  previous_key: ApiKeyModel,
  as_of: Timestamp,
});

export const KeyIdParams = t.Object({ key_id: t.String() });
