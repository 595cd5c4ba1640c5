// What one occurrence of a calendar event says about the user's relationships: when the user
// organizes or attends it, a `meeting` touch for every other participant who is a person and did
// not decline. A recurring series counts at each past occurrence (icalendar-recurrence.ts expands
// it, with its exceptions); a moved occurrence counts where it moved to. Skipped, never an error:
// cancelled occurrences (STATUS:CANCELLED, or sent in a METHOD:CANCEL calendar), ones the user
// declined, ones the user is not on, ones with more than MAX_PARTICIPANTS people (all-hands,
// conferences), ones that have not happened yet. Participants that are no persons (rooms,
// resources, groups, Google group calendars, mailing lists, role addresses) are left out and
// counted by what they are.
import type { CalendarPerson } from "../../../lib/icalendar.ts";
import type { Occurrence } from "../../../lib/icalendar-recurrence.ts";
import type { InteractionInput } from "../network.graph.ts";
import { MAX_PARTICIPANTS, nonPersonReason, type NonPersonReason } from "../network.identity.ts";
import type { SkipReason } from "./errors.ts";

export type CalendarSignal = { interaction: InteractionInput; notPersons: NonPersonReason[] } | { skip: SkipReason; notPersons: NonPersonReason[] };

/**
 * `evt:<UID>` for an event that does not repeat and for a series' first instance (what earlier
 * imports recorded for a series), `evt:<UID>:<instance ISO>` for every other instance: the same
 * meeting from a file and from a calendar sync is one interaction.
 */
export function occurrenceKey(o: Occurrence): string {
  if (o.recurrenceId === null || o.recurrenceId === o.seriesStart) return `evt:${o.uid}`;
  return `evt:${o.uid}:${new Date(o.recurrenceId).toISOString()}`;
}

/** Rooms and resources are not persons; a GROUP stands for people it does not name. */
function notPerson(p: CalendarPerson): NonPersonReason | null {
  if (p.cutype === "ROOM" || p.cutype === "RESOURCE") return "room_or_resource";
  if (p.cutype === "GROUP") return "mailing_list";
  if (p.cutype !== null && p.cutype !== "INDIVIDUAL") return "room_or_resource";
  return nonPersonReason(p.email);
}

export function calendarSignal(o: Occurrence, isOwn: (email: string) => boolean, now: Date): CalendarSignal {
  const notPersons: NonPersonReason[] = [];
  // A cancellation notice (METHOD:CANCEL) withdraws its events even when they carry no STATUS.
  if (o.status === "CANCELLED" || (o.status === null && o.method === "CANCEL")) return { skip: "cancelled", notPersons };
  const byEmail = new Map<string, CalendarPerson>();
  for (const p of [...(o.organizer ? [o.organizer] : []), ...o.attendees]) {
    const seen = byEmail.get(p.email);
    // The attendee line carries PARTSTAT and CUTYPE; the organizer line usually does not.
    if (!seen) byEmail.set(p.email, p);
    else byEmail.set(p.email, { ...seen, partstat: seen.partstat ?? p.partstat, cutype: seen.cutype ?? p.cutype, name: seen.name ?? p.name });
  }
  const people: CalendarPerson[] = [];
  for (const p of byEmail.values()) {
    const why = isOwn(p.email) ? null : notPerson(p);
    if (why) notPersons.push(why);
    else people.push(p);
  }
  const mine = people.filter((p) => isOwn(p.email));
  if (mine.length === 0) return { skip: "not_attended_by_user", notPersons };
  if (mine.every((p) => p.partstat === "DECLINED")) return { skip: "declined", notPersons };
  if (people.length > MAX_PARTICIPANTS) return { skip: "too_many_participants", notPersons };
  if (o.start > now.getTime()) return { skip: "future", notPersons };
  const others = people.filter((p) => !isOwn(p.email) && p.partstat !== "DECLINED");
  if (others.length === 0) return { skip: "no_other_participants", notPersons };
  return {
    notPersons,
    interaction: {
      sourceKey: occurrenceKey(o),
      kind: "meeting",
      occurredAt: new Date(o.start),
      participantCount: people.length,
      touches: others.map((p) => ({ person: { email: p.email, name: p.name }, direction: "meeting" })),
    },
  };
}
