CREATE TABLE `web_action_usage` (
	`user_id` text NOT NULL,
	`day` text NOT NULL,
	`actions` integer DEFAULT 0 NOT NULL,
	`last_used_at` text,
	PRIMARY KEY(`user_id`, `day`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `web_sign_in_links` ADD `reusable` integer DEFAULT false NOT NULL;