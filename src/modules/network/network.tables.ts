import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { orgs, users } from "../identity/orgs.tables.ts";

// Persons are org-wide identities: the same address seen in two partners' mailboxes is one person.
export const persons = sqliteTable(
  "persons",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => orgs.id, { onDelete: "cascade" }),
    displayName: text("display_name"),
    // nameKey(display_name) (network.identity.ts): Unicode case-folded, what name lookups match.
    // SQLite's lower() folds ASCII only ("ÉLODIE" would never find "Élodie").
    nameKey: text("name_key"),
    title: text("title"),
    company: text("company"),
    // Lower-cased email domain; null for free-mail providers (they say nothing about an employer).
    domain: text("domain"),
    linkedinUrl: text("linkedin_url"),
    location: text("location"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    // With the id: who-knows at a company joins its persons' relationships from the index alone.
    index("persons_org_domain_idx").on(t.orgId, t.domain, t.id),
    index("persons_org_name_key_idx").on(t.orgId, t.nameKey),
    index("persons_org_linkedin_idx").on(t.orgId, t.linkedinUrl),
  ],
);

export const personEmails = sqliteTable(
  "person_emails",
  {
    orgId: text("org_id").notNull(),
    email: text("email").notNull(),
    personId: text("person_id")
      .notNull()
      .references(() => persons.id, { onDelete: "cascade" }),
  },
  // By person, in address order: a path's email (the first address) is a seek, not a sort.
  (t) => [primaryKey({ columns: [t.orgId, t.email] }), index("person_emails_person_idx").on(t.personId, t.email)],
);

// One row per user x person: the aggregates every score is computed from at read time (so the
// scores decay with the clock instead of freezing at import time).
export const relationships = sqliteTable(
  "relationships",
  {
    // Insertion order: the keyset of the contacts export (new rows only ever come after).
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull(),
    orgId: text("org_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    personId: text("person_id")
      .notNull()
      .references(() => persons.id, { onDelete: "cascade" }),
    firstTouchAt: text("first_touch_at"),
    lastTouchAt: text("last_touch_at"),
    lastTouchDirection: text("last_touch_direction", { enum: ["sent", "received", "meeting"] }),
    sentCount: integer("sent_count").notNull().default(0),
    receivedCount: integer("received_count").notNull().default(0),
    meetingCount: integer("meeting_count").notNull().default(0),
    // Sum of touch weights decayed exponentially to `score_at` (see network.scoring.ts).
    decayedScore: real("decayed_score").notNull().default(0),
    scoreAt: text("score_at"),
    declaredCadenceDays: integer("declared_cadence_days"),
    learnedCadenceDays: integer("learned_cadence_days"),
    snoozedUntil: text("snoozed_until"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("relationships_id_unique").on(t.id),
    uniqueIndex("relationships_user_person_unique").on(t.userId, t.personId),
    // By person, holding every column who-knows ranks by (the owner, the last touch, the decayed
    // score and its date, the counts; seq is the rowid every index carries): a company's pooled
    // relationships are ranked from this index alone, no table row read until the top few.
    index("relationships_person_rank_idx").on(
      t.personId,
      t.userId,
      t.lastTouchAt,
      t.decayedScore,
      t.scoreAt,
      t.sentCount,
      t.receivedCount,
      t.meetingCount,
    ),
    // A user's relationships in insertion order (seq is the rowid every index carries): the
    // contacts export's keyset pages seek here instead of scanning every user's rows.
    index("relationships_user_idx").on(t.userId),
    // The workspace's contacts page order (most recently touched first, never-touched last, then
    // seq, the rowid every index ends with): a page is read in index order up to its offset and limit.
    index("relationships_user_recent_idx").on(t.userId, sql`last_touch_at IS NULL`, sql`last_touch_at DESC`),
  ],
);

// An email or a meeting, once per user however often it is imported.
export const interactions = sqliteTable(
  "interactions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // `msg:<Message-ID>` or `evt:<UID>`: the dedupe key.
    sourceKey: text("source_key").notNull(),
    kind: text("kind", { enum: ["email", "meeting"] }).notNull(),
    occurredAt: text("occurred_at").notNull(),
    participantCount: integer("participant_count").notNull(),
  },
  (t) => [uniqueIndex("interactions_user_source_unique").on(t.userId, t.sourceKey)],
);

// Which relationships an interaction touched: the history cadence learning reads.
export const touches = sqliteTable(
  "touches",
  {
    relationshipSeq: integer("relationship_seq").notNull(),
    interactionId: integer("interaction_id").notNull(),
    occurredAt: text("occurred_at").notNull(),
    direction: text("direction", { enum: ["sent", "received", "meeting"] }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.relationshipSeq, t.interactionId] }), index("touches_interaction_idx").on(t.interactionId)],
);

// Everyone an interaction involved besides the user, touched or not (a co-recipient of a received
// message is no relationship of the user's, but shows who is in contact with whom: proxy paths).
export const interactionPeople = sqliteTable(
  "interaction_people",
  {
    interactionId: integer("interaction_id").notNull(),
    personId: text("person_id")
      .notNull()
      .references(() => persons.id, { onDelete: "cascade" }),
  },
  // By person with the interaction's id: a person's interactions are read from this index alone (reach
  // candidates' one ordered pass), never from the table's rows at random.
  (t) => [primaryKey({ columns: [t.interactionId, t.personId] }), index("interaction_people_person_idx").on(t.personId, t.interactionId)],
);

// Output of the nightly reach-candidates job; the endpoint only serves what is stored here.
export const reachCandidates = sqliteTable(
  "reach_candidates",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    personId: text("person_id")
      .notNull()
      .references(() => persons.id, { onDelete: "cascade" }),
    proxyPersonId: text("proxy_person_id").references(() => persons.id, { onDelete: "set null" }),
    fullName: text("full_name").notNull(),
    linkedinUrl: text("linkedin_url"),
    headline: text("headline"),
    currentTitle: text("current_title"),
    currentCompany: text("current_company"),
    location: text("location"),
    candidateType: text("candidate_type").notNull(),
    fitScore: real("fit_score").notNull(),
    // JSON array of sentences.
    fitReasons: text("fit_reasons").notNull(),
    // JSON array of the users whose mail and calendar showed the proxy with the founder: the
    // candidate is served only while each of them is the key user or still shares their network.
    evidenceUserIds: text("evidence_user_ids").notNull().default("[]"),
    pathQuality: text("path_quality").notNull(),
    status: text("status").notNull(),
    firstSeenAt: text("first_seen_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("reach_candidates_user_person_unique").on(t.userId, t.personId), index("reach_candidates_user_fit_idx").on(t.userId, t.fitScore)],
);
