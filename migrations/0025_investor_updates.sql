CREATE TABLE `investor_updates` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`holding_id` text NOT NULL,
	`company_key` text NOT NULL,
	`message_id` text NOT NULL,
	`from_address` text NOT NULL,
	`user_id` text,
	`subject` text NOT NULL,
	`received_at` text NOT NULL,
	`period_end` text,
	`origin` text NOT NULL,
	`problems` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `investor_updates_message_key` ON `investor_updates` (`org_id`,`message_id`);--> statement-breakpoint
CREATE INDEX `investor_updates_company_idx` ON `investor_updates` (`org_id`,`company_key`,`received_at`);--> statement-breakpoint
CREATE TABLE `update_figures` (
	`id` integer PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`update_id` text NOT NULL,
	`position` integer NOT NULL,
	`metric` text NOT NULL,
	`value` real NOT NULL,
	`unit` text,
	`currency` text,
	`period_end` text,
	`status` text NOT NULL,
	`reason` text,
	`quote` text NOT NULL,
	`document_id` text,
	`page` integer,
	`point_id` integer,
	`reviewed_by` text,
	`reviewed_at` text,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`update_id`) REFERENCES `investor_updates`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `update_figures_update_idx` ON `update_figures` (`update_id`,`position`);--> statement-breakpoint
CREATE INDEX `update_figures_status_idx` ON `update_figures` (`org_id`,`status`);--> statement-breakpoint
CREATE TABLE `update_senders` (
	`org_id` text NOT NULL,
	`email` text NOT NULL,
	`holding_id` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`org_id`, `email`),
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `portfolio_metric_points` ADD `source` text DEFAULT 'import' NOT NULL;--> statement-breakpoint
ALTER TABLE `portfolio_metric_points` ADD `evidence_update_id` text;--> statement-breakpoint
ALTER TABLE `portfolio_metric_points` ADD `evidence_quote` text;