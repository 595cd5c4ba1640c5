CREATE TABLE `interaction_people` (
	`interaction_id` integer NOT NULL,
	`person_id` text NOT NULL,
	PRIMARY KEY(`interaction_id`, `person_id`),
	FOREIGN KEY (`person_id`) REFERENCES `persons`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `interaction_people_person_idx` ON `interaction_people` (`person_id`);