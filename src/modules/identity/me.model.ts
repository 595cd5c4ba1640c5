import { t } from "elysia";
import { ApiKeyModel } from "./keys.model.ts";

export const MeModel = t.Object(
  {
    user: t.Object({
      user_id: t.String(),
      name: t.String(),
      email: t.String(),
      share_network: t.Boolean({ description: "Whether the user's relationships are pooled into who-knows" }),
    }),
    org: t.Object({ org_id: t.String({ format: "uuid" }), name: t.String() }),
    key: ApiKeyModel,
    scope: t.Literal("key_user"),
    as_of: t.String({ format: "date-time" }),
  },
  { description: "The identity a key resolves to, and the key's budgets today" },
);
