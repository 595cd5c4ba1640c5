CREATE TABLE `founder_analyses` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`created_by` text NOT NULL,
	`founder_key` text NOT NULL,
	`name` text,
	`linkedin_url` text,
	`github_url` text,
	`company` text,
	`overall_score` real,
	`result` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `founder_analyses_org_key_idx` ON `founder_analyses` (`org_id`,`founder_key`);--> statement-breakpoint
CREATE TABLE `research_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`created_by` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`query` text NOT NULL,
	`plan` text NOT NULL,
	`engine` text,
	`executive_summary` text,
	`report_markdown` text,
	`citations` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `research_runs_idempotency_idx` ON `research_runs` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `research_runs_org_created_idx` ON `research_runs` (`org_id`,`created_at`);