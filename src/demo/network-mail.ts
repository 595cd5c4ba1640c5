// Generated mail for the demo network: threads between a partner and their contacts, rendered as
// mboxrd (RFC 4155) with realistic headers: RFC 2047 names, time-zone offsets, In-Reply-To, the
// occasional body line that needs `>From ` escaping, and the noise a real mailbox carries.
import type { Person } from "./network-people.ts";
import type { Rng } from "./rng.ts";

export type Addr = { name: string | null; email: string };

export type Msg = {
  at: number;
  from: Addr;
  to: Addr[];
  cc: Addr[];
  subject: string;
  id: string;
  inReplyTo: string | null;
  /** Extra header lines (List-Id, Precedence, Auto-Submitted ...). */
  extra: string[];
  body: string[];
};

export const DAY = 86_400_000;

export const addr = (p: { name: string; email: string }): Addr => ({ name: p.name, email: p.email });

const SUBJECTS = {
  core: ["Catch up next week?", "Board deck draft", "Q3 numbers", "Quick question on the round", "Follow-up from Tuesday", "Hiring: VP Sales", "Term sheet questions", "Pipeline review", "Co-investment in", "Dinner on Thursday", "Reference call", "Thoughts on pricing"],
  regular: ["Checking in", "Update from", "Coffee?", "Intro to your portfolio", "Deck attached", "Following up", "Quarterly update", "LP meeting"],
  outreach: ["Would love to connect", "Investor update", "Partnership idea", "Saw your post", "Raising our seed round", "Quick intro"],
  intro: ["Intro:", "Introduction:", "Connecting you two:"],
  internal: ["IC memo", "Pipeline for Monday", "Portfolio review", "Diligence notes", "Hiring plan", "Offsite agenda", "Reference checks"],
};
const LINES = [
  "Thanks for the quick turnaround on this.",
  "Happy to jump on a call this week if useful.",
  "Attaching the latest version; the numbers on page 4 changed.",
  "Let me know what you think about the pricing section.",
  "We closed two more design partners last week.",
  "Could you send over the data room link?",
  "Looping back on this: any update from the partnership?",
  "Great to see you at the event yesterday.",
  "From my side this all looks good.",
  "From what I hear they are raising again in the spring.",
  "Sounds good, talk soon.",
  "I'll circle back once we have the board's view.",
];

const hex = (r: Rng, n: number) => Array.from({ length: n }, () => r.int(0, 15).toString(16)).join("");

/** A business-hours instant `daysAgo` days before `now` (weekdays mostly). */
export function businessTime(r: Rng, now: number, daysAgo: number): number {
  // The same draws whatever the date, so the network's shape does not depend on `now`.
  const [moveOffWeekend, hour, minute, second] = [r.chance(0.8), r.int(7, 19), r.int(0, 59), r.int(0, 59)];
  let t = now - Math.max(1, daysAgo) * DAY;
  const d = new Date(t);
  if ((d.getUTCDay() === 0 || d.getUTCDay() === 6) && moveOffWeekend) t -= 2 * DAY;
  const day = Math.floor(t / DAY) * DAY;
  return Math.min(now - 3600_000, day + (hour * 60 + minute) * 60_000 + second * 1000);
}

export function makeId(r: Rng, from: Addr): string {
  return `${hex(r, 12)}.${hex(r, 6)}@${from.email.slice(from.email.indexOf("@") + 1)}`;
}

/** A thread of `n` messages between `me` and `them`, each `gap` days apart (+-), the last `lastDaysAgo` days ago. */
export function thread(
  r: Rng,
  now: number,
  me: Addr,
  them: Addr,
  o: { n: number; gap: number; lastDaysAgo: number; mode: "two-way" | "sent" | "received"; cc?: Addr[]; subject: string },
): Msg[] {
  const out: Msg[] = [];
  let prev: string | null = null;
  let meFirst = o.mode === "two-way" ? r.chance(0.5) : o.mode === "sent";
  const start = o.lastDaysAgo + (o.n - 1) * o.gap;
  for (let i = 0; i < o.n; i++) {
    const daysAgo = Math.max(0.05, start - i * o.gap + (r.next() - 0.5) * Math.min(o.gap, 1.5));
    const mine = meFirst;
    if (o.mode === "two-way") meFirst = !meFirst;
    const from = mine ? me : them;
    const id = makeId(r, from);
    out.push({
      at: businessTime(r, now, daysAgo),
      from,
      to: [mine ? them : me],
      cc: o.cc ?? [],
      subject: i === 0 ? o.subject : `Re: ${o.subject}`,
      id,
      inReplyTo: prev,
      extra: [],
      body: body(r, from),
    });
    prev = id;
  }
  return out;
}

export function body(r: Rng, from: Addr): string[] {
  const lines = ["Hi,", ""];
  for (let i = r.int(1, 4); i > 0; i--) lines.push(r.pick(LINES));
  lines.push("", "Best,", from.name?.split(" ")[0] ?? "");
  return lines;
}

export const subject = (r: Rng, kind: keyof typeof SUBJECTS, company?: string | null) => {
  const s = r.pick(SUBJECTS[kind]);
  return s.endsWith(" in") || s.endsWith(":") || s.endsWith("from") ? `${s} ${company ?? "the deal"}` : s;
};

const NEWSLETTERS = [
  { name: "StrictlyVC", email: "newsletter@strictlyvc.example.com", list: "strictlyvc.lists.example.com" },
  { name: "The Information", email: "news@theinformation.example.com", list: "daily.theinformation.example.com" },
  { name: "Term Sheet", email: "termsheet@fortune.example.com", list: "termsheet.fortune.example.com" },
];
const NOTIFIERS = ["no-reply@docsend.example.com", "notifications@carta.example.com", "noreply@calendly.example.com", "alerts@crunchbase.example.com", "do-not-reply@angellist.example.com"];

/** What a real mailbox also holds and the importer must skip; `people` supply the senders of auto-replies. */
export function noise(r: Rng, now: number, me: Addr, count: number, people: Person[], firmDomain: string): Msg[] {
  const out: Msg[] = [];
  const at = () => businessTime(r, now, r.int(1, 720));
  const base = (from: Addr, to: Addr[], subjectLine: string, extra: string[], cc: Addr[] = []): Msg => ({
    at: at(),
    from,
    to,
    cc,
    subject: subjectLine,
    id: makeId(r, from),
    inReplyTo: null,
    extra,
    body: ["This is an automated message.", "You are receiving this because you subscribed."],
  });
  for (let i = 0; i < count; i++) {
    const roll = r.next();
    if (roll < 0.4) {
      const n = r.pick(NEWSLETTERS);
      out.push(base({ name: n.name, email: n.email }, [me], `${n.name}: ${r.pick(["Monday", "Weekly", "Today"])} edition`, [`List-Id: ${n.name} <${n.list}>`, `List-Unsubscribe: <mailto:unsubscribe@${n.list}>`]));
    } else if (roll < 0.7) {
      const from = r.pick(NOTIFIERS);
      out.push(base({ name: null, email: from }, [me], r.pick(["Someone viewed your document", "New cap table update", "New event scheduled", "Your weekly digest"]), []));
    } else if (roll < 0.8) {
      // Marketing sent to a hidden list: List-Unsubscribe and no personal To.
      out.push(base({ name: "SaaS Summit", email: "events@saassummit.example.com" }, [{ name: null, email: "undisclosed-recipients@saassummit.example.com" }], "Last chance: early-bird tickets", ["List-Unsubscribe: <https://saassummit.example.com/u>"]));
    } else if (roll < 0.85) {
      out.push(base({ name: "Venture Digest", email: "digest@venturedigest.example.com" }, [me], "Deals of the week", ["Precedence: bulk"]));
    } else if (roll < 0.9) {
      const p = r.pick(people);
      out.push(base(addr(p), [me], "Out of office", ["Auto-Submitted: auto-replied"]));
    } else if (roll < 0.95) {
      // An LP update or a demo-day mail to far more than 20 people.
      const crowd = Array.from({ length: r.int(25, 45) }, () => addr(r.pick(people)));
      out.push(base(addr(r.pick(people)), [me, ...crowd.slice(0, 10)], "Demo Day: the full list of companies", [], crowd.slice(10)));
    } else {
      // A message the partner was blind-copied on: nobody wrote to them.
      const [a, b] = [r.pick(people), r.pick(people)];
      out.push(base(addr(a), [addr(b)], "Fwd: notes", [], [{ name: null, email: `deals@${firmDomain}` }]));
    }
  }
  return out;
}

// --- rendering ------------------------------------------------------------------------------------

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number) => String(n).padStart(2, "0");
const OFFSETS = [0, 0, 60, 120, -300, -420, -240, 330];

function encodeName(name: string): string {
  if (/^[\x20-\x7e]*$/.test(name)) return /[",.;:@<>()]/.test(name) ? `"${name.replace(/"/g, '\\"')}"` : name;
  return `=?UTF-8?B?${Buffer.from(name, "utf8").toString("base64")}?=`;
}
const fmtAddr = (a: Addr) => (a.name ? `${encodeName(a.name)} <${a.email}>` : a.email);

function rfc5322Date(t: number, offsetMin: number): string {
  const d = new Date(t + offsetMin * 60_000);
  const sign = offsetMin < 0 ? "-" : "+";
  const o = Math.abs(offsetMin);
  return `${DAYS[d.getUTCDay()]}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ${sign}${pad(Math.floor(o / 60))}${pad(o % 60)}`;
}

function asctime(t: number): string {
  const d = new Date(t);
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, " ")} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ${d.getUTCFullYear()}`;
}

/** One message as an mboxrd entry (separator line, headers, blank line, escaped body, blank line). */
export function renderMboxEntry(m: Msg): string {
  const offset = OFFSETS[Math.floor(m.at / 1000) % OFFSETS.length];
  const h = [
    `From ${m.from.email} ${asctime(m.at)}`,
    `Return-Path: <${m.from.email}>`,
    `Received: from mail.${m.from.email.split("@")[1]} by mx.example.net with ESMTPS id ${m.id.slice(0, 10)};`,
    `\t${rfc5322Date(m.at, 0)}`,
    `From: ${fmtAddr(m.from)}`,
    `To: ${m.to.map(fmtAddr).join(",\n ")}`,
    ...(m.cc.length ? [`Cc: ${m.cc.map(fmtAddr).join(",\n ")}`] : []),
    `Subject: ${m.subject}`,
    `Date: ${rfc5322Date(m.at, offset)}`,
    `Message-ID: <${m.id}>`,
    ...(m.inReplyTo ? [`In-Reply-To: <${m.inReplyTo}>`, `References: <${m.inReplyTo}>`] : []),
    ...m.extra,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: 8bit",
  ];
  const bodyLines = m.body.map((l) => (/^>*From /.test(l) ? `>${l}` : l));
  return `${h.join("\n")}\n\n${bodyLines.join("\n")}\n\n`;
}
