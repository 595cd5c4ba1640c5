CREATE TABLE `connection_ledger` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`connection_id` text NOT NULL,
	`run` text NOT NULL,
	`synced_at` text NOT NULL,
	`folder` text NOT NULL,
	`uid_validity` text NOT NULL,
	`uid_from` integer NOT NULL,
	`uid_to` integer NOT NULL,
	`seen` integer DEFAULT 0 NOT NULL,
	`imported` integer DEFAULT 0 NOT NULL,
	`duplicates` integer DEFAULT 0 NOT NULL,
	`skipped` text DEFAULT '{}' NOT NULL,
	`failed` text DEFAULT '{}' NOT NULL,
	FOREIGN KEY (`connection_id`) REFERENCES `connections`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `connection_ledger_run_folder_unique` ON `connection_ledger` (`run`,`folder`);--> statement-breakpoint
CREATE INDEX `connection_ledger_connection_idx` ON `connection_ledger` (`connection_id`,`id`);