// The demo firm's network, generated: for each team member an mbox, an .ics calendar and a vCard
// address book, written the way mail and calendar clients export them, for the real importers to
// load (`dealgraph demo` does; so does the import-rate benchmark). Deterministic for a seed and a
// `now` (dates are relative to it: the last two years).
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { FirmManifest } from "./firm.ts";
import { rng } from "./rng.ts";
import { renderIcs, renderVcard, type CalEvent } from "./network-calendar.ts";
import { addr, body, DAY, makeId, renderMboxEntry, subject, type Addr, type Msg } from "./network-mail.ts";
import { partnerNetwork, type PartnerNetwork, type PartnerSizes } from "./network-partner.ts";
import { generatePeople, pipelineFounder, slug, type Person } from "./network-people.ts";

export type NetworkOptions = {
  seed?: number;
  now: Date;
  /** People in the firm's world (default 4,000). */
  people?: number;
  /** Per team member (defaults: 900 contacts, 6,000 messages, 500 meetings). */
  sizes?: Partial<PartnerSizes>;
  /** Companies in the firm's deal flow: their CEOs get introduced to the team (see pipelineIntros). */
  pipeline?: { name: string; domain: string }[];
};

export type NetworkFiles = { email: string; name: string; mbox: string; ics: string; vcf: string };
export type NetworkCounts = { people: number; cards: number; messages: number; events: number; bytes: number };

/** Writes mbox entries in time order, a megabyte at a time (never one giant string). */
function writeMbox(path: string, msgs: Msg[]): number {
  msgs.sort((a, b) => a.at - b.at);
  const fd = openSync(path, "w");
  let bytes = 0;
  try {
    let buf: string[] = [];
    let size = 0;
    const flush = () => {
      bytes += writeSync(fd, buf.join(""));
      buf = [];
      size = 0;
    };
    for (const m of msgs) {
      const entry = renderMboxEntry(m);
      buf.push(entry);
      size += entry.length;
      if (size > 1 << 20) flush();
    }
    flush();
  } finally {
    closeSync(fd);
  }
  return bytes;
}

/** Mail and meetings among the team: each lands in every participant's own mailbox and calendar. */
function teamTraffic(firm: FirmManifest, now: number, seed: number, universe: Person[]) {
  const r = rng(seed ^ 0x5eed);
  const team = firm.team.map((m) => addr(m));
  const mail = new Map<string, Msg[]>(team.map((t) => [t.email, []]));
  const events = new Map<string, CalEvent[]>(team.map((t) => [t.email, []]));
  const deliver = (m: Msg) => {
    for (const a of new Set([m.from, ...m.to, ...m.cc].map((x) => x.email))) mail.get(a)?.push(m);
  };
  const founders = universe.filter((p) => p.kind === "founder");
  for (let i = 0; i < team.length * 120 && team.length > 1; i++) {
    const from = r.pick(team);
    const to = r.pick(team.filter((t) => t !== from));
    // Often about a company: its founder on the thread, so two partners share a contact.
    const founder = r.chance(0.35) ? addr(r.pick(founders)) : null;
    const m: Msg = { at: now - r.int(1, 720) * DAY + r.int(8, 18) * 3600_000, from, to: founder ? [founder] : [to], cc: founder ? [to] : [], subject: subject(r, "internal"), id: makeId(r, from), inReplyTo: null, extra: [], body: body(r, from) };
    deliver(m);
  }
  const lead = team[0];
  const all = (e: CalEvent) => team.forEach((t) => events.get(t.email)!.push(e));
  // The weekly partners' meeting: one recurring event, counted once (at its first occurrence).
  all({ uid: `partners-weekly@${firm.org.domain}`, at: now - 700 * DAY + 9 * 3600_000, minutes: 60, summary: "Partners' meeting", organizer: lead, attendees: team.map((t) => ({ ...t, partstat: "ACCEPTED" as const })), rrule: "FREQ=WEEKLY;BYDAY=MO", tzid: "America/New_York" });
  // An all-hands with the portfolio's CEOs: far more than 20 people, not a relationship signal.
  const crowd = Array.from({ length: 26 }, () => addr(r.pick(founders)));
  all({ uid: `all-hands-${now}@${firm.org.domain}`, at: now - 45 * DAY + 16 * 3600_000, minutes: 90, summary: "Portfolio all-hands", organizer: lead, attendees: [...team, ...crowd].map((t) => ({ ...t, partstat: "ACCEPTED" as const })) });
  return { mail, events };
}

/**
 * Founders of companies in the firm's deal flow, each introduced to one partner by that partner's
 * closest contact (two emails in the last year with the founder on copy) and known to the partner
 * only from a contact card: what the reach job finds as a CEO whose round the firm has on record.
 */
function pipelineIntros(r: ReturnType<typeof rng>, now: number, member: Addr, net: PartnerNetwork, companies: { name: string; domain: string }[], teamEmails: Set<string>) {
  // The closest person in the partner's address book (a mailbox's busiest senders are often newsletters).
  const known = new Set(net.cards.map((p) => p.email));
  const counts = new Map<string, { addr: Addr; n: number }>();
  for (const m of net.msgs) {
    for (const a of [m.from, ...m.to]) {
      if (a.email === member.email || teamEmails.has(a.email) || !known.has(a.email)) continue;
      const c = counts.get(a.email) ?? { addr: a, n: 0 };
      c.n++;
      counts.set(a.email, c);
    }
  }
  const closest = [...counts.values()].sort((a, b) => b.n - a.n)[0]?.addr;
  const msgs: Msg[] = [];
  const cards: Person[] = [];
  if (!closest) return { msgs, cards };
  for (const company of companies) {
    const founder = pipelineFounder(r, company);
    cards.push(founder);
    for (const daysAgo of [r.int(20, 150), r.int(160, 330)]) {
      const at = now - daysAgo * DAY + r.int(9, 17) * 3600_000;
      msgs.push({ at, from: closest, to: [member], cc: [addr(founder)], subject: `Intro: ${company.name}`, id: makeId(r, closest), inReplyTo: null, extra: [], body: body(r, closest) });
    }
  }
  return { msgs, cards };
}

/** Generates and writes the network; returns the files per team member and what they hold. */
export function writeNetwork(outDir: string, firm: FirmManifest, opts: NetworkOptions): { files: NetworkFiles[]; counts: NetworkCounts } {
  const seed = opts.seed ?? 7;
  const now = opts.now.getTime();
  const sizes: PartnerSizes = { contacts: 900, messages: 6000, meetings: 500, ...opts.sizes };
  const { people } = generatePeople(seed, opts.people ?? 4000);
  const dir = join(outDir, "network");
  mkdirSync(dir, { recursive: true });
  const team = teamTraffic(firm, now, seed, people);
  const files: NetworkFiles[] = [];
  const counts: NetworkCounts = { people: people.length, cards: 0, messages: 0, events: 0, bytes: 0 };
  firm.team.forEach((member, i) => {
    const r = rng(seed * 1000 + i + 1);
    const net = partnerNetwork(r, now, addr(member), people, 1000, sizes, firm.org.domain);
    const mine = (opts.pipeline ?? []).filter((_, k) => k % firm.team.length === i).slice(0, 2);
    const intros = pipelineIntros(rng(seed * 1000 + 500 + i), now, addr(member), net, mine, new Set(firm.team.map((m) => m.email)));
    net.cards.push(...intros.cards);
    const base = join(dir, slug(member.name));
    const msgs = [...net.msgs, ...intros.msgs, ...team.mail.get(member.email)!];
    const events = [...net.events, ...team.events.get(member.email)!];
    const f: NetworkFiles = { email: member.email, name: member.name, mbox: `${base}.mbox`, ics: `${base}.ics`, vcf: `${base}.vcf` };
    counts.bytes += writeMbox(f.mbox, msgs);
    const ics = renderIcs(events, `${member.name} (${member.email})`, now);
    const vcf = net.cards.map((p, k) => renderVcard(p, k % 3 === 0 ? "4.0" : "3.0")).join("");
    writeFileSync(f.ics, ics);
    writeFileSync(f.vcf, vcf);
    counts.bytes += ics.length + vcf.length;
    counts.messages += msgs.length;
    counts.events += events.length;
    counts.cards += net.cards.length;
    files.push(f);
  });
  return { files, counts };
}

/** One mailbox of about `messages` messages for `me` (the import-rate benchmark's sample). */
export function writeMailbox(path: string, o: { seed?: number; now: Date; messages: number; me: Addr; contacts?: number }): { messages: number; bytes: number } {
  const seed = o.seed ?? 11;
  const contacts = o.contacts ?? Math.max(900, Math.round(o.messages / 12));
  const { people } = generatePeople(seed, Math.round(contacts * 1.4));
  const make = (budget: number) => partnerNetwork(rng(seed + 1), o.now.getTime(), o.me, people, Math.round(contacts / 3), { contacts, messages: budget, meetings: 0 }, o.me.email.split("@")[1]);
  // The mix (noise, duplicates, one-way mail) is not exactly the budget: grow it until there are enough.
  let budget = o.messages;
  let net = make(budget);
  while (net.msgs.length < o.messages) net = make((budget = Math.ceil(budget * (o.messages / net.msgs.length) * 1.005)));
  const bytes = writeMbox(path, net.msgs);
  return { messages: net.msgs.length, bytes };
}
