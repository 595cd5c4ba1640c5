// One partner's generated mailbox, calendar and address book: a core of strong two-way
// relationships, regular ones, some that went quiet months ago, many weak one-way ones, contacts
// known only from the address book, introductions where a close contact copies in a founder the
// partner does not know yet (proxy paths), and noise the importer must skip.
import type { CalEvent } from "./network-calendar.ts";
import { meetingAt } from "./network-calendar.ts";
import { addr, DAY, makeId, noise, subject, thread, type Addr, type Msg } from "./network-mail.ts";
import type { Person } from "./network-people.ts";
import type { Rng } from "./rng.ts";

export type PartnerSizes = { contacts: number; messages: number; meetings: number };

export type PartnerNetwork = { msgs: Msg[]; events: CalEvent[]; cards: Person[] };

const shuffle = <T>(r: Rng, xs: T[]): T[] => {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(r.next() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
};

/** Days ago, leaning recent: most relationships are busier now than two years ago. */
const recentish = (r: Rng, from: number, to: number) => from + (to - from) * Math.pow(r.next(), 1.4);

export function partnerNetwork(r: Rng, now: number, me: Addr, universe: Person[], sharedPool: number, sizes: PartnerSizes, firmDomain: string): PartnerNetwork {
  // Who this partner knows: some of the firm's common circle (overlapping with teammates), the rest their own.
  const chosen = new Set<Person>();
  const target = Math.min(sizes.contacts, universe.length - 50);
  while (chosen.size < target) {
    const p = r.chance(0.3) ? universe[r.int(0, Math.min(sharedPool, universe.length) - 1)] : r.pick(universe);
    chosen.add(p);
  }
  const contacts = shuffle(r, [...chosen]);
  const n = contacts.length;
  const cut = (f: number) => Math.max(1, Math.round(n * f));
  const core = contacts.slice(0, cut(0.035));
  const regular = contacts.slice(core.length, core.length + cut(0.15));
  const stale = contacts.slice(core.length + regular.length, core.length + regular.length + cut(0.05));
  const rest = contacts.slice(core.length + regular.length + stale.length);
  const weak = rest.slice(0, Math.round(rest.length * 0.45));
  const cardOnly = rest.slice(weak.length);

  const msgs: Msg[] = [];
  const B = sizes.messages;
  const spread = (people: Person[], budget: number, o: { from: number; to: number; len: [number, number]; gap: [number, number]; kind: "core" | "regular" }) => {
    let left = budget;
    for (let i = 0; left > 0; i = (i + 1) % people.length) {
      const p = people[i];
      const len = Math.min(left, r.int(o.len[0], o.len[1]));
      msgs.push(...thread(r, now, me, addr(p), { n: len, gap: r.int(o.gap[0], o.gap[1]) / 2, lastDaysAgo: recentish(r, o.from, o.to), mode: "two-way", subject: subject(r, o.kind, p.company) }));
      left -= len;
    }
  };
  spread(core, Math.round(B * 0.42), { from: 0.5, to: 720, len: [2, 4], gap: [1, 4], kind: "core" });
  spread(regular, Math.round(B * 0.25), { from: 2, to: 720, len: [2, 3], gap: [1, 6], kind: "regular" });
  // Going stale: a steady rhythm that stopped 3 to 10 months ago.
  const quietSince = new Map(stale.map((p) => [p, r.int(95, 300)]));
  let staleLeft = Math.round(B * 0.08);
  for (let i = 0; staleLeft > 0; i = (i + 1) % stale.length) {
    const p = stale[i];
    const since = quietSince.get(p)!;
    const len = Math.min(staleLeft, r.int(2, 3));
    msgs.push(...thread(r, now, me, addr(p), { n: len, gap: 1, lastDaysAgo: since + r.int(0, 720 - since), mode: "two-way", subject: subject(r, "regular", p.company) }));
    staleLeft -= len;
  }
  // Weak and one-way: cold outreach that got no answer, pitches the partner never answered.
  for (const p of weak) {
    const mode = p.kind === "founder" || p.kind === "startup" ? (r.chance(0.8) ? "received" : "sent") : r.chance(0.5) ? "sent" : "received";
    msgs.push(...thread(r, now, me, addr(p), { n: r.int(1, 2), gap: r.int(3, 20), lastDaysAgo: r.int(5, 700), mode, subject: subject(r, "outreach", p.company) }));
  }
  // Introductions: a close contact writes to the partner, copying in a founder the partner does not know.
  const known = new Set(contacts);
  const strangers = universe.filter((p) => p.kind === "founder" && !known.has(p));
  const intros = Math.max(1, Math.round((B * 0.03) / 3));
  for (let i = 0; i < intros && strangers.length; i++) {
    const proxy = addr(r.pick(core));
    const founder = addr(strangers.splice(r.int(0, strangers.length - 1), 1)[0]);
    const company = universe.find((p) => p.email === founder.email)?.company ?? null;
    const last = r.int(3, 300);
    const subj = `Intro: ${founder.name} (${company ?? "stealth"}) <> ${me.name}`;
    const first: Msg = { at: now - (last + 6) * DAY, from: proxy, to: [me], cc: [founder], subject: subj, id: makeId(r, proxy), inReplyTo: null, extra: [], body: [`${me.name?.split(" ")[0]}, meet ${founder.name?.split(" ")[0]}: one of the best founders I know.`, "", "Thanks!"] };
    const reply: Msg = { ...first, at: now - (last + 5) * DAY, from: founder, to: [me], cc: [proxy], subject: `Re: ${subj}`, id: makeId(r, founder), inReplyTo: first.id, body: ["Thanks for the intro (moving you to bcc).", "", "Would love to find time next week."] };
    msgs.push(first, reply);
    if (r.chance(0.3)) msgs.push({ ...first, at: now - last * DAY, id: makeId(r, proxy), inReplyTo: reply.id, subject: `Re: ${subj}`, body: ["Following up on this one: they are moving fast."] });
  }
  msgs.push(...noise(r, now, me, Math.round(B * 0.12), universe, firmDomain));
  // The same message saved twice (an Inbox and an archive folder exported together).
  for (let i = Math.round(msgs.length * 0.005); i > 0; i--) msgs.push({ ...r.pick(msgs) });

  const events: CalEvent[] = [];
  const E = sizes.meetings;
  const meet = (p: Person, daysAgo: number, summary: string) => {
    const mine = r.chance(0.5);
    const colleague = r.chance(0.15) ? universe.find((q) => q.company === p.company && q !== p) : undefined;
    const others = [addr(p), ...(colleague ? [addr(colleague)] : [])];
    const tzid = r.chance(0.25) ? r.pick(["America/New_York", "Europe/London", "America/Los_Angeles", "Europe/Berlin"]) : undefined;
    events.push({
      uid: `${makeId(r, mine ? me : addr(p)).replace("@", "-evt@")}`,
      at: meetingAt(r, now, daysAgo),
      minutes: r.pick([30, 45, 60]),
      summary,
      organizer: mine ? me : addr(p),
      attendees: [{ ...me, partstat: "ACCEPTED" }, ...others.map((a) => ({ ...a, partstat: "ACCEPTED" as const })), ...(r.chance(0.2) ? [{ name: "Board Room", email: `board-room@${firmDomain}`, cutype: "ROOM" as const }] : [])],
      tzid,
      alarm: r.chance(0.2),
    });
  };
  const perTier = (people: Person[], count: number, from: (p: Person) => number, to: number, what: (p: Person) => string) => {
    for (let i = 0; i < count; i++) {
      const p = people[i % people.length];
      meet(p, recentish(r, from(p), to), what(p));
    }
  };
  perTier(core, Math.round(E * 0.45), () => 1, 720, (p) => `${p.company ?? p.name} / ${me.name?.split(" ")[0]}`);
  perTier(regular, Math.round(E * 0.25), () => 2, 720, (p) => `Catch-up: ${p.name}`);
  perTier(stale, Math.round(E * 0.08), (p) => quietSince.get(p)!, 720, (p) => `Coffee with ${p.name}`);
  const pitches = weak.filter((p) => p.kind === "founder");
  if (pitches.length) perTier(pitches, Math.round(E * 0.12), () => 5, 700, (p) => `Pitch: ${p.company}`);
  // What must be skipped: a cancelled meeting, one the partner declined, one not yet happened, an all-day block.
  const someone = core[0] ?? regular[0];
  meet(someone, 40, "Board prep (cancelled)");
  events.at(-1)!.status = "CANCELLED";
  meet(someone, 60, "Conference panel");
  events.at(-1)!.attendees[0].partstat = "DECLINED";
  events.at(-1)!.organizer = addr(someone);
  meet(someone, 20, "Follow-up meeting");
  events.at(-1)!.at = now + 7 * DAY;
  events.push({ uid: makeId(r, me).replace("@", "-ooo@"), at: now - 90 * DAY, minutes: 0, summary: "Out of office", organizer: null, attendees: [], allDay: true });

  const cards = [...core, ...regular, ...stale, ...weak.filter(() => r.chance(0.6)), ...cardOnly];
  return { msgs, events, cards };
}
