CREATE TABLE `portfolio_holdings` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`name` text NOT NULL,
	`name_fold` text NOT NULL,
	`website` text NOT NULL,
	`company_key` text NOT NULL,
	`sector` text NOT NULL,
	`stage` text NOT NULL,
	`status` text NOT NULL,
	`fund_name` text NOT NULL,
	`holding_type` text NOT NULL,
	`investment_date` text NOT NULL,
	`ownership_percentage` real,
	`invested` real,
	`current_valuation` real,
	`currency` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `portfolio_holdings_natural_key` ON `portfolio_holdings` (`org_id`,`name_fold`,`fund_name`);--> statement-breakpoint
CREATE INDEX `portfolio_holdings_company_idx` ON `portfolio_holdings` (`org_id`,`company_key`);--> statement-breakpoint
CREATE TABLE `portfolio_metric_points` (
	`id` integer PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`company_key` text NOT NULL,
	`metric` text NOT NULL,
	`kind` text NOT NULL,
	`statement_date` text NOT NULL,
	`value` real NOT NULL,
	`unit` text,
	`currency` text,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `portfolio_metric_points_natural_key` ON `portfolio_metric_points` (`org_id`,`company_key`,`kind`,`metric`,`statement_date`);--> statement-breakpoint
CREATE TABLE `fund_cashflows` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`commitment_id` text NOT NULL,
	`cashflow_date` text NOT NULL,
	`type` text NOT NULL,
	`amount` real NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`commitment_id`) REFERENCES `fund_commitments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `fund_cashflows_natural_key` ON `fund_cashflows` (`commitment_id`,`cashflow_date`,`type`,`amount`);--> statement-breakpoint
CREATE INDEX `fund_cashflows_ledger_idx` ON `fund_cashflows` (`org_id`,`commitment_id`,`cashflow_date`,`type`,`amount`);--> statement-breakpoint
CREATE TABLE `fund_commitments` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`fund_name` text NOT NULL,
	`vintage_year` integer,
	`commitment` real NOT NULL,
	`currency` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `fund_commitments_natural_key` ON `fund_commitments` (`org_id`,`fund_name`);--> statement-breakpoint
CREATE TABLE `fund_marks` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`commitment_id` text NOT NULL,
	`mark_date` text NOT NULL,
	`nav` real NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`commitment_id`) REFERENCES `fund_commitments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `fund_marks_natural_key` ON `fund_marks` (`commitment_id`,`mark_date`);--> statement-breakpoint
CREATE INDEX `fund_marks_ledger_idx` ON `fund_marks` (`org_id`,`commitment_id`,`mark_date`,`nav`);