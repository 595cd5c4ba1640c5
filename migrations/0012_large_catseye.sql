ALTER TABLE `web_sign_in_failures` ADD `client_address` text;--> statement-breakpoint
CREATE INDEX `web_sign_in_failures_client_address_at_idx` ON `web_sign_in_failures` (`client_address`,`at`);