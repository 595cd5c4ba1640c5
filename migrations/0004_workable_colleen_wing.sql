CREATE TABLE `action_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`user_id` text NOT NULL,
	`key_id` text,
	`kind` text NOT NULL,
	`subject_id` text NOT NULL,
	`status` text NOT NULL,
	`progress` text,
	`error` text,
	`input` text NOT NULL,
	`waiting_for` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`heartbeat_at` text,
	`created_at` text NOT NULL,
	`started_at` text,
	`finished_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `action_runs_status_idx` ON `action_runs` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `action_runs_subject_idx` ON `action_runs` (`subject_id`);--> statement-breakpoint
CREATE TABLE `outbox_events` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`org_id` text NOT NULL,
	`event` text NOT NULL,
	`entity_id` text NOT NULL,
	`result_url` text NOT NULL,
	`run_id` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_events_id_unique` ON `outbox_events` (`id`);--> statement-breakpoint
CREATE INDEX `outbox_events_org_idx` ON `outbox_events` (`org_id`,`seq`);