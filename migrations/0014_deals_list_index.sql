DROP INDEX `deals_org_created_idx`;--> statement-breakpoint
ALTER TABLE `deals` ADD `analysis_status` text;--> statement-breakpoint
CREATE INDEX `deals_org_list_idx` ON `deals` (`org_id`,`created_at`,`id`,`stage`,`kind`,`analysis_status`,`company_name`);--> statement-breakpoint
-- deals.analysis_status is the status of the deal's latest run (newest created_at, then id), the
-- value the list used to compute with a subquery per deal. Filled for existing deals here, then
-- kept by the triggers below on every run insert, status change and delete. A run of another kind
-- has no deal with its subject id, so its trigger updates nothing.
UPDATE `deals` SET `analysis_status` = (SELECT a.status FROM action_runs a WHERE a.subject_id = deals.id ORDER BY a.created_at DESC, a.id DESC LIMIT 1);--> statement-breakpoint
CREATE TRIGGER `deals_analysis_status_run_insert` AFTER INSERT ON `action_runs` BEGIN
  UPDATE deals SET analysis_status = (SELECT a.status FROM action_runs a WHERE a.subject_id = NEW.subject_id ORDER BY a.created_at DESC, a.id DESC LIMIT 1) WHERE id = NEW.subject_id;
END;--> statement-breakpoint
CREATE TRIGGER `deals_analysis_status_run_update` AFTER UPDATE OF status, subject_id, created_at ON `action_runs` BEGIN
  UPDATE deals SET analysis_status = (SELECT a.status FROM action_runs a WHERE a.subject_id = deals.id ORDER BY a.created_at DESC, a.id DESC LIMIT 1) WHERE id IN (NEW.subject_id, OLD.subject_id);
END;--> statement-breakpoint
CREATE TRIGGER `deals_analysis_status_run_delete` AFTER DELETE ON `action_runs` BEGIN
  UPDATE deals SET analysis_status = (SELECT a.status FROM action_runs a WHERE a.subject_id = OLD.subject_id ORDER BY a.created_at DESC, a.id DESC LIMIT 1) WHERE id = OLD.subject_id;
END;
--> statement-breakpoint
CREATE TRIGGER `deals_analysis_status_deal_insert` AFTER INSERT ON `deals` WHEN NEW.analysis_status IS NULL BEGIN
  UPDATE deals SET analysis_status = (SELECT a.status FROM action_runs a WHERE a.subject_id = NEW.id ORDER BY a.created_at DESC, a.id DESC LIMIT 1) WHERE id = NEW.id;
END;
