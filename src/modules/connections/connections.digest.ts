// The weekly going-stale digest: for each member who asked for it (web app), the relationships
// past their keep-in-touch cadence, most overdue first, as a plain mail: who, how long since the
// last touch, their cadence (declared by the member, or learned), and a link to the person in the
// web app. Nothing is sent when nothing is going stale, and never twice within six days (a job
// run by hand as well as by the schedule sends once).
import { and, eq, isNull, lt, or } from "drizzle-orm";
import { publicOrigin } from "../../config.ts";
import { perDeps, type Deps } from "../../deps.ts";
import { orgsService } from "../identity/orgs.service.ts";
import { networkSignals, type StaleSignal } from "../network/network.signals.ts";
import { NOT_CONFIGURED, OutboundMailError, outboundMail } from "./connections.outbound.ts";
import { digestSubscriptions } from "./connections.tables.ts";

/** Relationships listed in one digest; the rest are counted. */
export const DIGEST_LIMIT = 25;
const MIN_GAP_MS = 6 * 86_400_000;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The digest's text for one member. */
export function digestText(deps: Deps, name: string, signals: StaleSignal[], total: number): { subject: string; text: string } {
  const origin = publicOrigin(deps.config);
  const lines = signals.map((s) => {
    const who = s.email && s.name !== s.email ? `${s.name} <${s.email}>` : s.name;
    const cadence = s.source === "declared" ? `you keep in touch every ${plural(s.effective_cadence_days, "day")}` : `you usually talk every ${plural(s.effective_cadence_days, "day")}`;
    const link = `${origin}/app/who-knows?person=${encodeURIComponent(s.email ?? s.contact_id)}`;
    return `- ${who}: last touch ${plural(s.days_since_last_touch, "day")} ago (${s.last_touch_at.slice(0, 10)}); ${cadence}.\n  ${link}`;
  });
  const more = total > signals.length ? `\n...and ${total - signals.length} more: ${origin}/app\n` : "";
  return {
    subject: `${plural(total, "relationship")} going stale this week`,
    text: [
      `Hello ${name},`,
      "",
      `${plural(total, "relationship is", "relationships are")} past the rhythm you keep with ${total === 1 ? "that person" : "those people"}, most overdue first:`,
      "",
      ...lines,
      more,
      "To stop these mails, turn the weekly digest off on your connections page:",
      `${origin}/app/connections`,
    ].join("\n"),
  };
}

export const staleDigest = perDeps((deps: Deps) => {
  const orgs = orgsService(deps);
  const signals = networkSignals(deps);
  const mail = outboundMail(deps);

  /** Sends each subscribed member their digest (at most one per six days). */
  async function sendDue() {
    if (!mail.configured) {
      deps.log.warn("stale-digest: nothing sent", { reason: NOT_CONFIGURED });
      return { sent: 0, not_sent: NOT_CONFIGURED };
    }
    const now = deps.clock.now();
    const cutoff = new Date(now.getTime() - MIN_GAP_MS).toISOString();
    const due = deps.db
      .select({ userId: digestSubscriptions.userId })
      .from(digestSubscriptions)
      .where(and(eq(digestSubscriptions.enabled, true), or(isNull(digestSubscriptions.lastSentAt), lt(digestSubscriptions.lastSentAt, cutoff))))
      .all();
    let sent = 0;
    let nothingStale = 0;
    let failed = 0;
    for (const { userId } of due) {
      const user = orgs.getUser(userId);
      if (!user?.orgId) continue;
      const stale = signals.goingStaleOf(userId, DIGEST_LIMIT);
      if (stale.total === 0) {
        nothingStale++;
        continue;
      }
      try {
        await mail.send({ to: user.email, ...digestText(deps, user.name, stale.signals, stale.total) });
      } catch (error) {
        if (!(error instanceof OutboundMailError)) throw error;
        failed++;
        deps.log.warn("stale-digest: not sent", { user_id: userId, error: error.message });
        continue;
      }
      deps.db.update(digestSubscriptions).set({ lastSentAt: now.toISOString() }).where(eq(digestSubscriptions.userId, userId)).run();
      sent++;
    }
    return { sent, nothing_stale: nothingStale, failed };
  }

  return { sendDue };
});
