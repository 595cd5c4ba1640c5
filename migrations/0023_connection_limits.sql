CREATE TABLE `connection_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `connection_attempts_user_idx` ON `connection_attempts` (`user_id`,`at`);--> statement-breakpoint
ALTER TABLE `connection_items` ADD `kept` text;