// Generated calendars and address books for the demo network: iCalendar events (UTC, TZID and
// all-day times; organizers and attendees with CN and PARTSTAT; a weekly recurring meeting; the
// cancelled, declined, crowded and future events the importer must skip) and vCard 3/4 cards.
import type { Addr } from "./network-mail.ts";
import { DAY } from "./network-mail.ts";
import type { Person } from "./network-people.ts";
import type { Rng } from "./rng.ts";

export type Attendee = Addr & { partstat?: "ACCEPTED" | "DECLINED" | "TENTATIVE" | "NEEDS-ACTION"; cutype?: "ROOM" };

export type CalEvent = {
  uid: string;
  at: number;
  minutes: number;
  summary: string;
  organizer: Addr | null;
  attendees: Attendee[];
  status?: "CONFIRMED" | "CANCELLED";
  rrule?: string;
  tzid?: string;
  allDay?: boolean;
  /** Adds a VALARM (whose ATTENDEE is an address to notify, not a guest). */
  alarm?: boolean;
};

const pad = (n: number) => String(n).padStart(2, "0");
const utcStamp = (t: number) => {
  const d = new Date(t);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`;
};

/** The wall-clock time of an instant in a zone, as an iCalendar local date-time. */
function localStamp(t: number, tzid: string): string {
  const parts: Record<string, string> = {};
  const f = new Intl.DateTimeFormat("en-US", { timeZone: tzid, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" });
  for (const p of f.formatToParts(new Date(t))) parts[p.type] = p.value;
  return `${parts.year}${parts.month}${parts.day}T${parts.hour}${parts.minute}${parts.second}`;
}

/** RFC 5545 folding: lines longer than 75 octets continue on the next line after a space. */
function fold(line: string): string {
  const bytes = Buffer.from(line, "utf8");
  if (bytes.length <= 75) return line;
  const out: string[] = [];
  let cur = "";
  for (const ch of line) {
    if (Buffer.byteLength(cur + ch, "utf8") > (out.length ? 74 : 75)) {
      out.push(cur);
      cur = "";
    }
    cur += ch;
  }
  out.push(cur);
  return out.join("\r\n ");
}

const cn = (a: Addr) => (a.name ? `;CN="${a.name.replace(/"/g, "'")}"` : "");

export function renderIcs(events: CalEvent[], calName: string, now: number): string {
  const lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Dealgraph demo//Calendar export//EN", "CALSCALE:GREGORIAN", `X-WR-CALNAME:${calName}`];
  for (const e of events) {
    lines.push("BEGIN:VEVENT", `UID:${e.uid}`, `DTSTAMP:${utcStamp(now)}`);
    if (e.allDay) {
      const d = new Date(e.at);
      lines.push(`DTSTART;VALUE=DATE:${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`);
    } else if (e.tzid) {
      lines.push(`DTSTART;TZID=${e.tzid}:${localStamp(e.at, e.tzid)}`, `DTEND;TZID=${e.tzid}:${localStamp(e.at + e.minutes * 60_000, e.tzid)}`);
    } else lines.push(`DTSTART:${utcStamp(e.at)}`, `DTEND:${utcStamp(e.at + e.minutes * 60_000)}`);
    if (e.rrule) lines.push(`RRULE:${e.rrule}`);
    lines.push(`SUMMARY:${e.summary.replace(/([,;\\])/g, "\\$1")}`);
    if (e.status) lines.push(`STATUS:${e.status}`);
    if (e.organizer) lines.push(`ORGANIZER${cn(e.organizer)}:mailto:${e.organizer.email}`);
    for (const a of e.attendees) {
      const cutype = a.cutype ? `;CUTYPE=${a.cutype}` : "";
      lines.push(`ATTENDEE${cn(a)}${cutype};ROLE=REQ-PARTICIPANT;PARTSTAT=${a.partstat ?? "ACCEPTED"}:mailto:${a.email}`);
    }
    if (e.alarm && e.organizer) {
      lines.push("BEGIN:VALARM", "ACTION:EMAIL", "TRIGGER:-PT10M", "SUMMARY:Reminder", "DESCRIPTION:Reminder", `ATTENDEE:mailto:${e.organizer.email}`, "END:VALARM");
    }
    lines.push("END:VEVENT");
  }
  lines.push("END:VCALENDAR");
  return lines.map(fold).join("\r\n") + "\r\n";
}

/** A meeting `daysAgo` days before `now`, on the hour or half hour. */
export function meetingAt(r: Rng, now: number, daysAgo: number): number {
  const day = Math.floor((now - daysAgo * DAY) / DAY) * DAY;
  return Math.min(now - 3600_000, day + (r.int(8, 17) * 60 + (r.chance(0.5) ? 30 : 0)) * 60_000);
}

// --- vCard ----------------------------------------------------------------------------------------

const esc = (s: string) => s.replace(/\\/g, "\\\\").replace(/([,;])/g, "\\$1");

/** Location "City, Region, Country" (or "City, Country") as an ADR value. */
function adr(location: string): string {
  const parts = location.split(", ");
  const [city, region, country] = parts.length === 3 ? parts : [parts[0], "", parts[1] ?? ""];
  return `;;;${esc(city)};${esc(region)};;${esc(country)}`;
}

export function renderVcard(p: Person, version: "3.0" | "4.0"): string {
  const [first, ...rest] = p.name.split(" ");
  const lines = ["BEGIN:VCARD", `VERSION:${version}`, `FN:${esc(p.name)}`, `N:${esc(rest.join(" "))};${esc(first)};;;`];
  lines.push(version === "4.0" ? `EMAIL;TYPE=work;PREF=1:${p.email}` : `EMAIL;TYPE=INTERNET,WORK,pref:${p.email}`);
  if (p.altEmail) lines.push(version === "4.0" ? `EMAIL;TYPE=home:${p.altEmail}` : `EMAIL;TYPE=INTERNET,HOME:${p.altEmail}`);
  lines.push(`TITLE:${esc(p.title)}`);
  if (p.company) lines.push(`ORG:${esc(p.company)};`);
  if (p.linkedinUrl) lines.push(version === "4.0" ? `URL;TYPE=linkedin:${p.linkedinUrl}` : `item1.URL:${p.linkedinUrl}`, ...(version === "3.0" ? ["item1.X-ABLabel:LinkedIn"] : []));
  lines.push(`ADR;TYPE=work:${adr(p.location)}`);
  lines.push("END:VCARD");
  return lines.map(fold).join("\r\n") + "\r\n";
}
