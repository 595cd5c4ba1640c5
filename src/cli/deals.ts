// `dealgraph deals stage DEAL_ID STAGE`: moves a deal along the pipeline (CONTRACT.md's stages);
// `dealgraph deals verify` (deals-verify.ts) completes a gated document link's email verification.
import { DEAL_STAGES } from "../modules/deals/deals.model.ts";
import { dealsService } from "../modules/deals/deals.service.ts";
import { notFound } from "../http/errors.ts";
import { openDeps } from "./context.ts";
import { DEALS_VERIFY_USAGE, dealsVerifyCommand } from "./deals-verify.ts";
import { parse, report, UsageError, type Io } from "./io.ts";

export const DEALS_USAGE = `usage: dealgraph deals stage DEAL_ID ${DEAL_STAGES.join("|")} [--json]; or ${DEALS_VERIFY_USAGE.replace("usage: ", "")}`;

const isStage = (s: string): s is (typeof DEAL_STAGES)[number] => (DEAL_STAGES as readonly string[]).includes(s);

export async function dealsCommand(args: string[], io: Io) {
  const [verb, ...rest] = args;
  if (verb === "verify") return dealsVerifyCommand(rest, io);
  if (verb !== "stage") throw new UsageError(DEALS_USAGE);
  const { values, positionals } = parse(rest, {});
  const [dealId, stage, ...extra] = positionals;
  if (!dealId || !stage || extra.length) throw new UsageError(DEALS_USAGE);
  if (!isStage(stage)) throw new UsageError(`unknown stage ${JSON.stringify(stage)}; ${DEALS_USAGE}`);
  const result = dealsService(openDeps(io, values)).setStage(dealId, stage);
  if (!result) throw notFound(`No deal ${dealId}`);
  report(io, values.json, result, `deal ${result.deal_id} is now at stage ${result.stage}`);
}
