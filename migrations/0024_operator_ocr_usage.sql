CREATE TABLE `ocr_usage` (
	`org_id` text NOT NULL,
	`day` text NOT NULL,
	`pages` integer DEFAULT 0 NOT NULL,
	`updated_at` text,
	PRIMARY KEY(`org_id`, `day`)
);
--> statement-breakpoint
ALTER TABLE `users` ADD `is_operator` integer DEFAULT false NOT NULL;