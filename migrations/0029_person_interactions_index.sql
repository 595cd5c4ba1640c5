DROP INDEX `interaction_people_person_idx`;--> statement-breakpoint
CREATE INDEX `interaction_people_person_idx` ON `interaction_people` (`person_id`,`interaction_id`);