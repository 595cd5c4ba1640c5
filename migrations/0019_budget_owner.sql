ALTER TABLE `api_keys` ADD `budget_owner_id` text;--> statement-breakpoint
-- Backfill: every key's budget owner is the first key of its rotation chain.
WITH RECURSIVE chain(id, root) AS (
  SELECT id, id FROM api_keys WHERE rotated_from_id IS NULL
  UNION ALL
  SELECT k.id, c.root FROM api_keys k JOIN chain c ON k.rotated_from_id = c.id
)
UPDATE api_keys SET budget_owner_id = COALESCE((SELECT root FROM chain WHERE chain.id = api_keys.id), id);--> statement-breakpoint
-- The counters a rotated key has so far join its owner's row of the same day (its own row keeps
-- its last use): the owner's row carries the chain's budget.
INSERT INTO key_usage (key_id, day, requests, actions, last_used_at)
  SELECT k.budget_owner_id, u.day, SUM(u.requests), SUM(u.actions), NULL
  FROM key_usage u JOIN api_keys k ON k.id = u.key_id
  WHERE k.budget_owner_id <> k.id
  GROUP BY k.budget_owner_id, u.day
  ON CONFLICT (key_id, day) DO UPDATE SET requests = requests + excluded.requests, actions = actions + excluded.actions;--> statement-breakpoint
UPDATE key_usage SET requests = 0, actions = 0 WHERE key_id IN (SELECT id FROM api_keys WHERE budget_owner_id <> id);
