// What one calendar event says about the user's relationships: when the user organizes or
// attends it, a `meeting` touch for every other participant who did not decline. Skipped, never
// an error: cancelled events (STATUS:CANCELLED, or sent in a METHOD:CANCEL calendar), events the
// user declined, events the user is not on, events with more than MAX_PARTICIPANTS people
// (all-hands, conferences), events that have not happened yet.
// A recurring event (RRULE/RDATE) counts once, at its DTSTART: expanding the rule would invent
// meetings nobody can confirm took place. A moved or edited occurrence (RECURRENCE-ID) is its own
// interaction.
import type { InteractionInput } from "../network.graph.ts";
import { isAutomatedAddress, MAX_PARTICIPANTS } from "../network.identity.ts";
import type { SkipReason } from "./errors.ts";
import type { CalendarEvent, CalendarPerson } from "./ics.ts";

export type CalendarSignal = { interaction: InteractionInput } | { skip: SkipReason };

/** `evt:<UID>`, plus `:<RECURRENCE-ID>` for one occurrence of a recurring event. */
export const eventKey = (e: CalendarEvent) => `evt:${e.uid}${e.recurrenceId ? `:${e.recurrenceId}` : ""}`;

/** Rooms and resources (and groups, which stand for people not named) are not persons. */
const isPerson = (p: CalendarPerson) => p.cutype === null || p.cutype === "INDIVIDUAL";

export function calendarSignal(event: CalendarEvent, isOwn: (email: string) => boolean, now: Date): CalendarSignal {
  // A cancellation notice (METHOD:CANCEL) withdraws its events even when they carry no STATUS.
  if (event.status === "CANCELLED" || (event.status === null && event.method === "CANCEL")) return { skip: "cancelled" };
  const byEmail = new Map<string, CalendarPerson>();
  for (const p of [...(event.organizer ? [event.organizer] : []), ...event.attendees]) {
    if (!isPerson(p)) continue;
    const seen = byEmail.get(p.email);
    // The attendee line carries PARTSTAT; the organizer line usually does not.
    if (!seen || (!seen.partstat && p.partstat)) byEmail.set(p.email, { ...p, name: p.name ?? seen?.name ?? null });
  }
  const people = [...byEmail.values()];
  const mine = people.filter((p) => isOwn(p.email));
  if (mine.length === 0) return { skip: "not_attended_by_user" };
  if (mine.every((p) => p.partstat === "DECLINED")) return { skip: "declined" };
  if (people.length > MAX_PARTICIPANTS) return { skip: "too_many_participants" };
  if (event.start.getTime() > now.getTime()) return { skip: "future" };
  const others = people.filter((p) => !isOwn(p.email) && !isAutomatedAddress(p.email) && p.partstat !== "DECLINED");
  if (others.length === 0) return { skip: "no_other_participants" };
  return {
    interaction: {
      sourceKey: eventKey(event),
      kind: "meeting",
      occurredAt: event.start,
      participantCount: people.length,
      touches: others.map((p) => ({ person: { email: p.email, name: p.name }, direction: "meeting" })),
    },
  };
}
