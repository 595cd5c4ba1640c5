CREATE TABLE `deal_documents` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`deal_id` text NOT NULL,
	`filename` text NOT NULL,
	`kind` text NOT NULL,
	`folder` text,
	`category` text,
	`content_type` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`sha256` text NOT NULL,
	`page_count` integer,
	`status` text NOT NULL,
	`pages` text,
	`uploaded_at` text NOT NULL,
	FOREIGN KEY (`deal_id`) REFERENCES `deals`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `deal_documents_deal_idx` ON `deal_documents` (`deal_id`);--> statement-breakpoint
CREATE TABLE `deals` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`created_by` text NOT NULL,
	`company_name` text,
	`domain` text,
	`website` text,
	`kind` text NOT NULL,
	`stage` text DEFAULT 'new' NOT NULL,
	`source` text NOT NULL,
	`target_key` text NOT NULL,
	`score` real,
	`score_confidence` real,
	`facts` text,
	`analysis` text,
	`document_url` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `deals_org_created_idx` ON `deals` (`org_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `deals_org_target_idx` ON `deals` (`org_id`,`target_key`);