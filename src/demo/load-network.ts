// The demo firm's network: each team member's generated mailbox, calendar and address book
// (scripts/gen-network.ts) loaded through the real importers, then the nightly network jobs run
// once so going-stale signals and reach candidates are there from the first request.
import { findJob } from "../../jobs/index.ts";
import type { FirmManifest } from "./firm.ts";
import { writeNetwork } from "./network.ts";
import type { Deps } from "../deps.ts";
import { dealsService } from "../modules/deals/deals.service.ts";
import { importCalendar, importContacts, importMail } from "../modules/network/import/network.import.ts";
import { orgsService } from "../modules/identity/orgs.service.ts";
import { networkService } from "../modules/network/network.service.ts";

const n = (x: number) => x.toLocaleString("en-US");

export async function loadDemoNetwork(deps: Deps, firm: FirmManifest, sourceDir: string, progress: (line: string) => void): Promise<void> {
  const started = performance.now();
  // Companies in the deal flow (the deals are loaded first): some of their CEOs get introduced to the team.
  const orgs = orgsService(deps);
  const lead = orgs.findUserByEmail(firm.team[0].email);
  const pipeline = lead?.orgId
    ? dealsService(deps)
        .list(lead.orgId, { limit: 200, offset: 0 })
        .deals.filter((d) => d.kind === "company" && d.company_name && d.domain && ["new", "screening", "diligence", "ic"].includes(d.stage))
        .map((d) => ({ name: d.company_name!, domain: d.domain! }))
    : [];
  const { files, counts } = writeNetwork(sourceDir, firm, { seed: 7, now: deps.clock.now(), pipeline });
  progress(
    `${pipeline.length ? `${pipeline.length} companies of the deal flow introduced; ` : ""}generated ${n(counts.messages)} messages, ${n(counts.events)} calendar events and ${n(counts.cards)} contact cards ` +
      `(${(counts.bytes / 1e6).toFixed(1)} MB) in ${Math.round(performance.now() - started)} ms`,
  );
  for (const f of files) {
    const user = orgs.findUserByEmail(f.email);
    if (!user) continue;
    const opts = (path: string) => ({ userId: user.id, path });
    const contacts = importContacts(deps, opts(f.vcf));
    const mail = importMail(deps, opts(f.mbox));
    const meetings = importCalendar(deps, opts(f.ics));
    progress(
      `${f.name}: ${n(contacts.imported)} contacts, ${n(mail.imported)} of ${n(mail.read)} messages (${n(mail.skipped)} skipped, ${n(mail.duplicates)} duplicates), ` +
        `${n(meetings.imported)} meetings from ${n(meetings.read)} calendar events (a recurring series counts at each past occurrence)`,
    );
  }
  for (const id of ["cadence-learning", "reach-candidates"]) {
    const job = findJob(id);
    if (job) await job.runOnce(deps);
  }
  const total = networkService(deps).totals();
  progress(
    `network: ${n(total.persons)} persons, ${n(total.relationships)} relationships, ${n(total.interactions)} interactions; ` +
      `loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}
