CREATE TABLE `portfolio_latest_actuals` (
	`org_id` text NOT NULL,
	`company_key` text NOT NULL,
	`metric` text NOT NULL,
	`point_id` integer NOT NULL,
	`statement_date` text NOT NULL,
	`value` real NOT NULL,
	`unit` text,
	`currency` text,
	PRIMARY KEY(`org_id`, `company_key`, `metric`),
	FOREIGN KEY (`org_id`) REFERENCES `orgs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
DROP INDEX `action_runs_subject_idx`;--> statement-breakpoint
CREATE INDEX `action_runs_subject_idx` ON `action_runs` (`subject_id`,`created_at`,`id`);--> statement-breakpoint
DROP INDEX `person_emails_person_idx`;--> statement-breakpoint
CREATE INDEX `person_emails_person_idx` ON `person_emails` (`person_id`,`email`);--> statement-breakpoint
DROP INDEX `persons_org_domain_idx`;--> statement-breakpoint
CREATE INDEX `persons_org_domain_idx` ON `persons` (`org_id`,`domain`,`id`);--> statement-breakpoint
CREATE INDEX `relationships_user_idx` ON `relationships` (`user_id`);--> statement-breakpoint
CREATE INDEX `relationships_user_recent_idx` ON `relationships` (`user_id`,last_touch_at IS NULL,last_touch_at DESC);--> statement-breakpoint
-- portfolio_latest_actuals holds, per company and metric, a copy of its actual point with the
-- latest statement_date (a metric has one actual per date: the natural key). Filled here from the
-- points, then kept by the triggers below on every insert, update and delete of a point, whoever
-- writes it (importer, restore, a bench seeding by SQL).
INSERT INTO `portfolio_latest_actuals` (org_id, company_key, metric, point_id, statement_date, value, unit, currency)
  SELECT org_id, company_key, metric, id, max(statement_date), value, unit, currency
  FROM portfolio_metric_points WHERE kind = 'actual' GROUP BY org_id, company_key, metric;--> statement-breakpoint
CREATE TRIGGER `portfolio_latest_actuals_point_insert` AFTER INSERT ON `portfolio_metric_points` WHEN NEW.kind = 'actual' BEGIN
  INSERT INTO portfolio_latest_actuals (org_id, company_key, metric, point_id, statement_date, value, unit, currency)
    VALUES (NEW.org_id, NEW.company_key, NEW.metric, NEW.id, NEW.statement_date, NEW.value, NEW.unit, NEW.currency)
  ON CONFLICT (org_id, company_key, metric) DO UPDATE SET
    point_id = excluded.point_id, statement_date = excluded.statement_date, value = excluded.value, unit = excluded.unit, currency = excluded.currency
  WHERE excluded.statement_date > portfolio_latest_actuals.statement_date;
END;--> statement-breakpoint
-- A changed figure of the latest point (what a re-import updates) is copied as it is.
CREATE TRIGGER `portfolio_latest_actuals_point_figures` AFTER UPDATE OF value, unit, currency ON `portfolio_metric_points` BEGIN
  UPDATE portfolio_latest_actuals SET value = NEW.value, unit = NEW.unit, currency = NEW.currency WHERE point_id = NEW.id;
END;--> statement-breakpoint
-- A point moved to another company, metric, kind or date, or removed: the metrics it left and
-- joined are worked out again from their points.
CREATE TRIGGER `portfolio_latest_actuals_point_moved` AFTER UPDATE OF id, org_id, company_key, metric, kind, statement_date ON `portfolio_metric_points` BEGIN
  DELETE FROM portfolio_latest_actuals
    WHERE (org_id = OLD.org_id AND company_key = OLD.company_key AND metric = OLD.metric)
       OR (org_id = NEW.org_id AND company_key = NEW.company_key AND metric = NEW.metric);
  INSERT INTO portfolio_latest_actuals (org_id, company_key, metric, point_id, statement_date, value, unit, currency)
    SELECT org_id, company_key, metric, id, max(statement_date), value, unit, currency FROM portfolio_metric_points
    WHERE kind = 'actual' AND ((org_id = OLD.org_id AND company_key = OLD.company_key AND metric = OLD.metric)
       OR (org_id = NEW.org_id AND company_key = NEW.company_key AND metric = NEW.metric))
    GROUP BY org_id, company_key, metric;
END;--> statement-breakpoint
CREATE TRIGGER `portfolio_latest_actuals_point_delete` AFTER DELETE ON `portfolio_metric_points` WHEN OLD.kind = 'actual' BEGIN
  DELETE FROM portfolio_latest_actuals WHERE org_id = OLD.org_id AND company_key = OLD.company_key AND metric = OLD.metric AND point_id = OLD.id;
  INSERT INTO portfolio_latest_actuals (org_id, company_key, metric, point_id, statement_date, value, unit, currency)
    SELECT org_id, company_key, metric, id, max(statement_date), value, unit, currency FROM portfolio_metric_points
    WHERE org_id = OLD.org_id AND company_key = OLD.company_key AND kind = 'actual' AND metric = OLD.metric
    GROUP BY org_id, company_key, metric
  ON CONFLICT (org_id, company_key, metric) DO NOTHING;
END;
