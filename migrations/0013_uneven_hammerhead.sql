ALTER TABLE `persons` ADD `name_key` text;--> statement-breakpoint
CREATE INDEX `persons_org_name_key_idx` ON `persons` (`org_id`,`name_key`);--> statement-breakpoint
ALTER TABLE `reach_candidates` ADD `evidence_user_ids` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
-- Backfill for plain-ASCII names (lower() is right for them); the others are folded in JS by the network service (backfillNameKeys).
UPDATE `persons` SET `name_key` = lower(trim(`display_name`)) WHERE `display_name` IS NOT NULL AND trim(`display_name`) != '' AND `display_name` NOT GLOB '*[^ -~]*' AND `display_name` NOT LIKE '%  %';
