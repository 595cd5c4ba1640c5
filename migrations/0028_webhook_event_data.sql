ALTER TABLE `outbox_events` ADD `data` text;--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `data` text;