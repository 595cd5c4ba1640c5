-- The firm's own corpus for research, in FTS5: one row per document page and one per analysed
-- deal. Kept in step with its sources by triggers, so no writer can forget to index.
CREATE VIRTUAL TABLE `search_index` USING fts5(
	`title`,
	`body`,
	`org_id` UNINDEXED,
	`source_type` UNINDEXED,
	`source_id` UNINDEXED,
	`page` UNINDEXED,
	tokenize = 'porter unicode61 remove_diacritics 2'
);
--> statement-breakpoint
CREATE TRIGGER `deal_documents_search_ai` AFTER INSERT ON `deal_documents` WHEN new.pages IS NOT NULL BEGIN
	INSERT INTO search_index (title, body, org_id, source_type, source_id, page)
	SELECT new.filename, value, new.org_id, 'document', new.id, CAST(key AS INTEGER) + 1 FROM json_each(new.pages) WHERE trim(value) <> '';
END;
--> statement-breakpoint
CREATE TRIGGER `deal_documents_search_au` AFTER UPDATE OF pages, filename ON `deal_documents` BEGIN
	DELETE FROM search_index WHERE source_type = 'document' AND source_id = old.id;
	INSERT INTO search_index (title, body, org_id, source_type, source_id, page)
	SELECT new.filename, value, new.org_id, 'document', new.id, CAST(key AS INTEGER) + 1 FROM json_each(coalesce(new.pages, '[]')) WHERE trim(value) <> '';
END;
--> statement-breakpoint
CREATE TRIGGER `deal_documents_search_ad` AFTER DELETE ON `deal_documents` BEGIN
	DELETE FROM search_index WHERE source_type = 'document' AND source_id = old.id;
END;
--> statement-breakpoint
CREATE TRIGGER `deals_search_au` AFTER UPDATE OF analysis, company_name ON `deals` BEGIN
	DELETE FROM search_index WHERE source_type = 'deal' AND source_id = old.id;
	INSERT INTO search_index (title, body, org_id, source_type, source_id, page)
	SELECT coalesce(new.company_name, new.domain, 'Deal'),
		trim(coalesce(json_extract(new.analysis, '$.summary'), '') || ' ' ||
			coalesce((SELECT group_concat(coalesce(json_extract(s.value, '$.title'), '') || ': ' || coalesce(json_extract(s.value, '$.summary'), ''), ' ') FROM json_each(new.analysis, '$.sections') AS s), '')),
		new.org_id, 'deal', new.id, NULL
	WHERE new.analysis IS NOT NULL;
END;
--> statement-breakpoint
CREATE TRIGGER `deals_search_ad` AFTER DELETE ON `deals` BEGIN
	DELETE FROM search_index WHERE source_type = 'deal' AND source_id = old.id;
END;
