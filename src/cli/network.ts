// `dealgraph network cadence|snooze`: a user's keep-in-touch settings for one contact.
import { networkSignals } from "../modules/network/network.signals.ts";
import { openDeps } from "./context.ts";
import { parse, report, required, UsageError, type Io } from "./io.ts";

export async function networkCommand(args: string[], io: Io) {
  const [verb, ...rest] = args;
  if (verb === "cadence") {
    const { values } = parse(rest, { user: { type: "string" }, contact: { type: "string" }, days: { type: "string" } });
    const raw = required("days", values.days);
    const days = Number(raw);
    if (!/^\d+$/.test(raw)) throw new UsageError(`--days must be a whole number of days (0 clears), got ${JSON.stringify(raw)}`);
    const contact = required("contact", values.contact);
    const result = networkSignals(openDeps(io, values)).declareCadence(required("user", values.user), contact, days);
    report(io, values.json, result, days === 0 ? `cleared the declared cadence for ${contact}` : `keep in touch with ${contact} every ${days} days`);
    return;
  }
  if (verb === "snooze") {
    const { values } = parse(rest, { user: { type: "string" }, contact: { type: "string" }, until: { type: "string" } });
    const contact = required("contact", values.contact);
    const result = networkSignals(openDeps(io, values)).snooze(required("user", values.user), contact, required("until", values.until));
    report(io, values.json, result, `${contact} is snoozed until ${result.snoozed_until}`);
    return;
  }
  throw new UsageError("usage: dealgraph network cadence --user USER_ID --contact EMAIL --days N | network snooze --user USER_ID --contact EMAIL --until DATE");
}
