ALTER TABLE `action_runs` ADD `event_prefix` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `action_runs` ADD `result_url` text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Runs dispatched before these columns existed: the three kinds there were then.
UPDATE `action_runs` SET `event_prefix` = 'deal.analysis', `result_url` = '/api/v1/deals/' || `subject_id` WHERE `kind` = 'deal_analysis';--> statement-breakpoint
UPDATE `action_runs` SET `event_prefix` = 'founder.analysis', `result_url` = '/api/v1/founders/analyses/' || `subject_id` WHERE `kind` = 'founder_analysis';--> statement-breakpoint
UPDATE `action_runs` SET `event_prefix` = 'research', `result_url` = '/api/v1/research/' || `subject_id` WHERE `kind` = 'research';
