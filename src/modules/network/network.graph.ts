// Writes what the importers read (messages, meetings, contact cards) into the graph: persons
// merged org-wide by email, one relationship per user x person, interactions deduplicated by
// Message-ID / event UID. One writer per imported file, used inside that file's transaction:
// relationship aggregates are kept in memory while the file is read and written once by flush().
import { eq, sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { ApiError } from "../../http/errors.ts";
import { newId } from "../../lib/ids.ts";
import { orgsService } from "../identity/orgs.service.ts";
import { nameKey } from "../../lib/names.ts";
import { employerDomain, normalizeEmail, normalizeLinkedin } from "./network.identity.ts";
import { addTouch, type Aggregates, type Direction } from "./network.scoring.ts";
import { interactionPeople, interactions, personEmails, persons, relationships, touches } from "./network.tables.ts";

export type PersonFacts = {
  email: string;
  name?: string | null;
  title?: string | null;
  company?: string | null;
  linkedinUrl?: string | null;
  location?: string | null;
};

export type InteractionInput = {
  /** `msg:<Message-ID>` or `evt:<UID>`. */
  sourceKey: string;
  kind: "email" | "meeting";
  occurredAt: Date;
  participantCount: number;
  touches: { person: PersonFacts; direction: Direction }[];
  /** Others involved without a relationship signal (co-recipients of a received message). */
  others?: PersonFacts[];
};

export type GraphStats = { interactions: number; duplicates: number; personsCreated: number; relationshipsCreated: number };

type RelState = Aggregates & { seq: number; dirty: boolean };

/**
 * @param aliases the user's other addresses: never a person, never a relationship of their own.
 */
export function graphWriter(deps: Deps, userId: string, aliases: string[] = []) {
  const { db, clock } = deps;
  const user = orgsService(deps).getUser(userId);
  if (!user) throw new ApiError(404, `No user with id ${userId}`);
  if (!user.orgId) throw new ApiError(422, [{ loc: ["user"], msg: `User ${userId} belongs to no organization`, type: "value_error" }]);
  const orgId = user.orgId;
  const now = clock.now().toISOString();
  const own = new Set([user.email.toLowerCase(), ...aliases.map((a) => normalizeEmail(a)).filter((a): a is string => a !== null)]);
  /** True for the user's own address or one of their aliases. */
  const isOwn = (email: string | null | undefined) => {
    const e = normalizeEmail(email);
    return e !== null && own.has(e);
  };

  const personByEmail = db
    .select({ id: personEmails.personId })
    .from(personEmails)
    .where(sql`${personEmails.orgId} = ${orgId} AND ${personEmails.email} = ${sql.placeholder("email")}`)
    .prepare();
  const personRow = db.select().from(persons).where(eq(persons.id, sql.placeholder("id"))).prepare();
  const relByPerson = db
    .select()
    .from(relationships)
    .where(sql`${relationships.userId} = ${userId} AND ${relationships.personId} = ${sql.placeholder("personId")}`)
    .prepare();
  const insertInteraction = db
    .insert(interactions)
    .values({
      userId,
      sourceKey: sql.placeholder("sourceKey"),
      kind: sql.placeholder("kind"),
      occurredAt: sql.placeholder("occurredAt"),
      participantCount: sql.placeholder("participantCount"),
    })
    .onConflictDoNothing()
    .returning({ id: interactions.id })
    .prepare();
  const insertTouch = db
    .insert(touches)
    .values({
      relationshipSeq: sql.placeholder("seq"),
      interactionId: sql.placeholder("interactionId"),
      occurredAt: sql.placeholder("occurredAt"),
      direction: sql.placeholder("direction"),
    })
    .onConflictDoNothing()
    .prepare();

  const insertPerson = db
    .insert(interactionPeople)
    .values({ interactionId: sql.placeholder("interactionId"), personId: sql.placeholder("personId") })
    .onConflictDoNothing()
    .prepare();

  // Imports create persons and relationships by the thousand: every statement is prepared once.
  const insertPersonRow = db.$client.query(
    `INSERT INTO persons (id, org_id, display_name, name_key, title, company, domain, linkedin_url, location, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertEmail = db.$client.query("INSERT INTO person_emails (org_id, email, person_id) VALUES (?, ?, ?)");
  const insertRelationship = db
    .insert(relationships)
    .values({ id: sql.placeholder("id"), orgId, userId, personId: sql.placeholder("personId"), createdAt: now, updatedAt: now })
    .returning()
    .prepare();

  // LinkedIn-only persons (a connection known by profile, no address yet): found by profile.
  const personByProfile = db.$client.query<{ id: string; emails: number }, [string, string]>(
    "SELECT p.id, (SELECT count(*) FROM person_emails e WHERE e.person_id = p.id) AS emails FROM persons p WHERE p.org_id = ? AND p.linkedin_url = ? ORDER BY p.created_at LIMIT 1",
  );
  const moveRelationships = db.$client.query(
    "UPDATE relationships SET person_id = $to WHERE person_id = $from AND user_id NOT IN (SELECT user_id FROM relationships WHERE person_id = $to)",
  );
  const deletePerson = db.$client.query("DELETE FROM persons WHERE id = ?");

  const personIds = new Map<string, string>();
  const rels = new Map<string, RelState>();
  const stats: GraphStats = { interactions: 0, duplicates: 0, personsCreated: 0, relationshipsCreated: 0 };

  /** The person for an address, created on first sight; facts fill what is unknown, or overwrite when authoritative. */
  function person(facts: PersonFacts, authoritative = false): string | null {
    const email = normalizeEmail(facts.email);
    if (!email || own.has(email)) return null;
    let id = personIds.get(email) ?? personByEmail.get({ email })?.id;
    const linkedin = normalizeLinkedin(facts.linkedinUrl);
    const clean = (v: string | null | undefined) => (v?.trim() ? v.trim() : null);
    // A card giving both an address and a profile joins them: the LinkedIn-only person of that
    // profile gets the address, or (when the address already has its person) is merged into it.
    const profileOnly = linkedin && authoritative ? personByProfile.get(orgId, linkedin) : null;
    if (profileOnly && profileOnly.emails === 0 && profileOnly.id !== id) {
      if (!id) {
        id = profileOnly.id;
        insertEmail.run(orgId, email, id);
      } else {
        // What the profile says fills what the mail person lacks; touch-less relationships (all a
        // LinkedIn-only person has) move where the mail person has none.
        const [a, b] = [personRow.get({ id })!, personRow.get({ id: profileOnly.id })!];
        const displayName = a.displayName ?? b.displayName;
        db.update(persons)
          .set({ displayName, nameKey: nameKey(displayName), title: a.title ?? b.title, company: a.company ?? b.company, location: a.location ?? b.location, linkedinUrl: a.linkedinUrl ?? b.linkedinUrl, updatedAt: now })
          .where(eq(persons.id, id))
          .run();
        moveRelationships.run({ $to: id, $from: profileOnly.id });
        rels.delete(profileOnly.id);
        deletePerson.run(profileOnly.id);
      }
    }
    if (!id) {
      id = newId();
      insertPersonRow.run(id, orgId, clean(facts.name), nameKey(facts.name), clean(facts.title), clean(facts.company), employerDomain(email), linkedin, clean(facts.location), now, now);
      insertEmail.run(orgId, email, id);
      stats.personsCreated++;
    } else if (!personIds.has(email) || authoritative) {
      // Fill in (or, from a contact card, correct) what is known about an existing person.
      const row = personRow.get({ id })!;
      const pick = (known: string | null, given: string | null) => (authoritative ? (given ?? known) : (known ?? given));
      const next = {
        displayName: pick(row.displayName, clean(facts.name)),
        title: pick(row.title, clean(facts.title)),
        company: pick(row.company, clean(facts.company)),
        linkedinUrl: pick(row.linkedinUrl, linkedin),
        location: pick(row.location, clean(facts.location)),
      };
      if (Object.entries(next).some(([k, v]) => row[k as keyof typeof row] !== v) || row.nameKey !== nameKey(next.displayName)) {
        db.update(persons).set({ ...next, nameKey: nameKey(next.displayName), updatedAt: now }).where(eq(persons.id, id)).run();
      }
    }
    personIds.set(email, id);
    return id;
  }

  function relationship(personId: string): RelState {
    let rel = rels.get(personId);
    if (rel) return rel;
    let row = relByPerson.get({ personId });
    if (!row) {
      row = insertRelationship.get({ id: newId(), personId })!;
      stats.relationshipsCreated++;
    }
    rel = { ...row, dirty: false };
    rels.set(personId, rel);
    return rel;
  }

  /** A contact card: the person and a relationship entry, even with no touch yet. */
  function contact(facts: PersonFacts): string | null {
    const id = person(facts, true);
    if (id) relationship(id);
    return id;
  }

  /**
   * A contact known only by a LinkedIn profile (no address): the person of that profile, created
   * on first sight, and the user's relationship. Null when the URL is no readable profile.
   */
  function contactByProfile(facts: Omit<PersonFacts, "email">): string | null {
    const linkedin = normalizeLinkedin(facts.linkedinUrl);
    if (!linkedin) return null;
    const clean = (v: string | null | undefined) => (v?.trim() ? v.trim() : null);
    let id = personByProfile.get(orgId, linkedin)?.id;
    if (!id) {
      id = newId();
      insertPersonRow.run(id, orgId, clean(facts.name), nameKey(facts.name), clean(facts.title), clean(facts.company), null, linkedin, clean(facts.location), now, now);
      stats.personsCreated++;
    } else {
      const row = personRow.get({ id })!;
      const next = {
        displayName: clean(facts.name) ?? row.displayName,
        title: clean(facts.title) ?? row.title,
        company: clean(facts.company) ?? row.company,
        location: clean(facts.location) ?? row.location,
      };
      if (Object.entries(next).some(([k, v]) => row[k as keyof typeof row] !== v)) {
        db.update(persons).set({ ...next, nameKey: nameKey(next.displayName), updatedAt: now }).where(eq(persons.id, id)).run();
      }
    }
    relationship(id);
    return id;
  }

  /** Records one message or meeting; false when it was imported before (nothing changes). */
  function interaction(input: InteractionInput): boolean {
    const at = input.occurredAt.toISOString();
    const inserted = insertInteraction.get({
      sourceKey: input.sourceKey,
      kind: input.kind,
      occurredAt: at,
      participantCount: input.participantCount,
    });
    if (!inserted) {
      stats.duplicates++;
      return false;
    }
    stats.interactions++;
    for (const touch of input.touches) {
      const personId = person(touch.person);
      if (!personId) continue;
      insertPerson.run({ interactionId: inserted.id, personId });
      const rel = relationship(personId);
      insertTouch.run({ seq: rel.seq, interactionId: inserted.id, occurredAt: at, direction: touch.direction });
      addTouch(rel, input.occurredAt, touch.direction);
      rel.dirty = true;
    }
    for (const other of input.others ?? []) {
      const personId = person(other);
      if (personId) insertPerson.run({ interactionId: inserted.id, personId });
    }
    return true;
  }

  /** Writes the aggregates of every relationship this file touched. */
  function flush(): void {
    const update = db.$client.query(
      `UPDATE relationships SET first_touch_at = ?, last_touch_at = ?, last_touch_direction = ?, sent_count = ?,
         received_count = ?, meeting_count = ?, decayed_score = ?, score_at = ?, updated_at = ? WHERE seq = ?`,
    );
    for (const rel of rels.values()) {
      if (!rel.dirty) continue;
      update.run(
        rel.firstTouchAt,
        rel.lastTouchAt,
        rel.lastTouchDirection,
        rel.sentCount,
        rel.receivedCount,
        rel.meetingCount,
        rel.decayedScore,
        rel.scoreAt,
        now,
        rel.seq,
      );
      rel.dirty = false;
    }
  }

  return { orgId, isOwn, person, contact, contactByProfile, interaction, flush, stats };
}

export type GraphWriter = ReturnType<typeof graphWriter>;
