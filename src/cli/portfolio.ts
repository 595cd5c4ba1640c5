// `dealgraph portfolio update-senders add|list|remove`: the addresses whose mail is read as a
// holding's updates besides its website's domain (a founder writing from a personal address).
import { updatesRecognition } from "../modules/updates/updates.recognise.ts";
import { orgsService } from "../modules/identity/orgs.service.ts";
import { portfolioService } from "../modules/portfolio/portfolio.service.ts";
import { openDeps } from "./context.ts";
import { parse, report, required, UsageError, type Io } from "./io.ts";

export const USAGE_LINES = [
  "dealgraph portfolio update-senders add --company COMPANY_ID EMAIL",
  "dealgraph portfolio update-senders list (--company COMPANY_ID | --org ORG_ID)",
  "dealgraph portfolio update-senders remove --org ORG_ID EMAIL",
];

export async function portfolioCommand(args: string[], io: Io): Promise<void> {
  const [group, action, ...rest] = args;
  if (group !== "update-senders" || !["add", "list", "remove"].includes(action ?? "")) throw new UsageError(`usage:\n${USAGE_LINES.join("\n")}`);
  const { values, positionals } = parse(rest, { company: { type: "string" }, org: { type: "string" } });
  const deps = openDeps(io, values);
  const senders = updatesRecognition(deps);
  // A holding's id names its org: the command needs no --org beside --company.
  const orgOfCompany = (companyId: string) => {
    const orgId = portfolioService(deps).orgOfHolding(companyId);
    if (!orgId) throw new UsageError(`no portfolio company with id ${companyId}`);
    return orgId;
  };
  if (action === "add") {
    const company = required("company", values.company);
    if (positionals.length !== 1) throw new UsageError(USAGE_LINES[0]);
    const added = senders.addSender(orgOfCompany(company), company, positionals[0]);
    report(io, values.json, added, `${added.email} is read as ${added.company_name}'s updates`);
    return;
  }
  if (action === "list") {
    const orgId = values.company ? orgOfCompany(values.company) : required("org", values.org);
    if (!values.company && !orgsService(deps).getOrg(orgId)) throw new UsageError(`no organization with id ${orgId}`);
    const list = senders.listSenders(orgId, values.company);
    if (values.json) io.out(JSON.stringify({ senders: list }));
    else if (list.length === 0) io.out("no update senders listed (mail from a holding's website domain is read without one)");
    else for (const s of list) io.out(`${s.email}\t${s.company_name ?? "?"}\t${s.company_id}`);
    return;
  }
  const orgId = values.company ? orgOfCompany(values.company) : required("org", values.org);
  if (positionals.length !== 1) throw new UsageError(USAGE_LINES[2]);
  senders.removeSender(orgId, positionals[0]);
  report(io, values.json, { removed: positionals[0].toLowerCase() }, `${positionals[0].toLowerCase()} removed`);
}
