ALTER TABLE `mail_servers` ADD `provider` text DEFAULT 'imap' NOT NULL;--> statement-breakpoint
ALTER TABLE `mail_servers` ADD `provider_settings` text;--> statement-breakpoint
ALTER TABLE `mail_servers` ADD `provider_sealed` text;