// `dealgraph deals verify DEAL_ID (--link URL | --email-file FILE.eml)`: completes a gated document
// link's email verification from the command line (the operator's door; the API's is
// POST /api/v1/deals/{deal_id}/verification). A running server takes the resumed run on its next poll.
import { dealVerificationService } from "../modules/deals/deals.verification.service.ts";
import { openDeps } from "./context.ts";
import { parse, report, UsageError, type Io } from "./io.ts";

export const DEALS_VERIFY_USAGE = "usage: dealgraph deals verify DEAL_ID (--link URL | --email-file FILE.eml) [--json]";

export async function dealsVerifyCommand(args: string[], io: Io) {
  const { values, positionals } = parse(args, { link: { type: "string" }, "email-file": { type: "string" } });
  const [dealId, ...extra] = positionals;
  const link = values.link as string | undefined;
  const file = values["email-file"] as string | undefined;
  if (!dealId || extra.length || (link === undefined) === (file === undefined)) throw new UsageError(DEALS_VERIFY_USAGE);
  let message: string | undefined;
  if (file !== undefined) {
    const f = Bun.file(file);
    if (!(await f.exists())) throw new UsageError(`--email-file: no such file ${JSON.stringify(file)}`);
    message = await f.text();
  }
  const deps = openDeps(io, values);
  try {
    const accepted = await dealVerificationService(deps).complete(null, dealId, link !== undefined ? { verification_url: link } : { message });
    report(io, values.json, accepted, `deal ${accepted.deal_id}: verification recorded; the analysis proceeds (poll ${accepted.status_url})`);
  } finally {
    deps.db.$client.close();
  }
}
