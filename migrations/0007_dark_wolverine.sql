CREATE TABLE `webhook_attempts` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`delivery_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`attempted_at` text NOT NULL,
	`duration_ms` integer NOT NULL,
	`response_code` integer,
	`error` text,
	`outcome` text NOT NULL,
	FOREIGN KEY (`delivery_id`) REFERENCES `webhook_deliveries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_delivery_idx` ON `webhook_attempts` (`delivery_id`,`attempt`);--> statement-breakpoint
CREATE TABLE `webhook_cursor` (
	`id` integer PRIMARY KEY NOT NULL,
	`last_seq` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`outbox_event_id` text NOT NULL,
	`event` text NOT NULL,
	`entity_id` text NOT NULL,
	`result_url` text NOT NULL,
	`event_created_at` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`round_attempts` integer DEFAULT 0 NOT NULL,
	`round_started_at` text NOT NULL,
	`last_response_code` integer,
	`last_error` text,
	`last_attempt_at` text,
	`next_attempt_at` text,
	`lease_until` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_event_endpoint_unique` ON `webhook_deliveries` (`outbox_event_id`,`endpoint_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_endpoint_idx` ON `webhook_deliveries` (`endpoint_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`url` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`secret_enc` text,
	`previous_secret_enc` text,
	`previous_secret_until` text,
	`secret_rotated_at` text,
	`created_at` text NOT NULL,
	`deleted_at` text,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_endpoints_org_url_live_unique` ON `webhook_endpoints` (`org_id`,`url`) WHERE "webhook_endpoints"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX `webhook_endpoints_org_created_idx` ON `webhook_endpoints` (`org_id`,`created_at`);