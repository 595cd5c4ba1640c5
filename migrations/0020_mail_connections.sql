CREATE TABLE `connection_folders` (
	`connection_id` text NOT NULL,
	`name` text NOT NULL,
	`uid_validity` text NOT NULL,
	`last_uid` integer DEFAULT 0 NOT NULL,
	`highest_modseq` text,
	`backfilled` integer DEFAULT false NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`connection_id`, `name`),
	FOREIGN KEY (`connection_id`) REFERENCES `connections`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `connection_items` (
	`connection_id` text NOT NULL,
	`href` text NOT NULL,
	`etag` text,
	`due_at` text,
	PRIMARY KEY(`connection_id`, `href`),
	FOREIGN KEY (`connection_id`) REFERENCES `connections`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `connection_items_due_idx` ON `connection_items` (`connection_id`,`due_at`);--> statement-breakpoint
CREATE TABLE `connections` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`source` text NOT NULL,
	`account` text NOT NULL,
	`account_key` text NOT NULL,
	`secret_sealed` text NOT NULL,
	`url` text,
	`folders` text,
	`since` text,
	`last_synced_at` text,
	`last_error` text,
	`last_result` text,
	`items_synced` integer DEFAULT 0 NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text,
	`lease_token` text,
	`lease_until` text,
	`progress` text,
	`cursor` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `connections_user_account_unique` ON `connections` (`user_id`,`kind`,`account_key`);--> statement-breakpoint
CREATE INDEX `connections_org_idx` ON `connections` (`org_id`);--> statement-breakpoint
CREATE TABLE `digest_subscriptions` (
	`user_id` text PRIMARY KEY NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`last_sent_at` text,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `mail_servers` (
	`org_id` text PRIMARY KEY NOT NULL,
	`imap_host` text NOT NULL,
	`imap_port` integer NOT NULL,
	`imap_security` text NOT NULL,
	`caldav_url` text,
	`ca_pem` text,
	`insecure` integer DEFAULT false NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE cascade
);
