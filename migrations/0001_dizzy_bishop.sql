CREATE TABLE `interactions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`source_key` text NOT NULL,
	`kind` text NOT NULL,
	`occurred_at` text NOT NULL,
	`participant_count` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `interactions_user_source_unique` ON `interactions` (`user_id`,`source_key`);--> statement-breakpoint
CREATE TABLE `person_emails` (
	`org_id` text NOT NULL,
	`email` text NOT NULL,
	`person_id` text NOT NULL,
	PRIMARY KEY(`org_id`, `email`),
	FOREIGN KEY (`person_id`) REFERENCES `persons`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `person_emails_person_idx` ON `person_emails` (`person_id`);--> statement-breakpoint
CREATE TABLE `persons` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`display_name` text,
	`title` text,
	`company` text,
	`domain` text,
	`linkedin_url` text,
	`location` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `persons_org_domain_idx` ON `persons` (`org_id`,`domain`);--> statement-breakpoint
CREATE INDEX `persons_org_name_idx` ON `persons` (`org_id`,lower("display_name"));--> statement-breakpoint
CREATE INDEX `persons_org_linkedin_idx` ON `persons` (`org_id`,`linkedin_url`);--> statement-breakpoint
CREATE TABLE `reach_candidates` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`user_id` text NOT NULL,
	`person_id` text NOT NULL,
	`proxy_person_id` text,
	`full_name` text NOT NULL,
	`linkedin_url` text,
	`headline` text,
	`current_title` text,
	`current_company` text,
	`location` text,
	`candidate_type` text NOT NULL,
	`fit_score` real NOT NULL,
	`fit_reasons` text NOT NULL,
	`path_quality` text NOT NULL,
	`status` text NOT NULL,
	`first_seen_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`person_id`) REFERENCES `persons`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`proxy_person_id`) REFERENCES `persons`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reach_candidates_user_person_unique` ON `reach_candidates` (`user_id`,`person_id`);--> statement-breakpoint
CREATE INDEX `reach_candidates_user_fit_idx` ON `reach_candidates` (`user_id`,`fit_score`);--> statement-breakpoint
CREATE TABLE `relationships` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`org_id` text NOT NULL,
	`user_id` text NOT NULL,
	`person_id` text NOT NULL,
	`first_touch_at` text,
	`last_touch_at` text,
	`last_touch_direction` text,
	`sent_count` integer DEFAULT 0 NOT NULL,
	`received_count` integer DEFAULT 0 NOT NULL,
	`meeting_count` integer DEFAULT 0 NOT NULL,
	`decayed_score` real DEFAULT 0 NOT NULL,
	`score_at` text,
	`declared_cadence_days` integer,
	`learned_cadence_days` integer,
	`snoozed_until` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`person_id`) REFERENCES `persons`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `relationships_id_unique` ON `relationships` (`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `relationships_user_person_unique` ON `relationships` (`user_id`,`person_id`);--> statement-breakpoint
CREATE INDEX `relationships_person_idx` ON `relationships` (`person_id`);--> statement-breakpoint
CREATE TABLE `touches` (
	`relationship_seq` integer NOT NULL,
	`interaction_id` integer NOT NULL,
	`occurred_at` text NOT NULL,
	`direction` text NOT NULL,
	PRIMARY KEY(`relationship_seq`, `interaction_id`)
);
--> statement-breakpoint
CREATE INDEX `touches_interaction_idx` ON `touches` (`interaction_id`);