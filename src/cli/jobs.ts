import { findJob, jobs, nextRun, patternOf } from "../../jobs/index.ts";
import { loadConfig } from "../config.ts";
import { openDeps } from "./context.ts";
import { parse, UsageError, type Io } from "./io.ts";

export async function jobsCommand(args: string[], io: Io) {
  const [verb, ...rest] = args;
  if (verb === "list") {
    const { values } = parse(rest, {});
    const now = new Date();
    const config = loadConfig(io.env);
    const rows = jobs.map((j) => ({ id: j.id, pattern: patternOf(j, config) ?? "off", description: j.description, next_run: nextRun(j, now, config)?.toISOString() ?? null }));
    if (values.json) io.out(JSON.stringify({ jobs: rows }));
    else for (const r of rows) io.out(`${r.id.padEnd(20)} ${r.pattern.padEnd(14)} next ${r.next_run}  ${r.description}`);
    return;
  }
  if (verb === "run") {
    const { values, positionals } = parse(rest, {});
    const id = positionals[0];
    const job = id ? findJob(id) : undefined;
    if (!job) throw new UsageError(`unknown job ${JSON.stringify(id ?? "")}; known: ${jobs.map((j) => j.id).join(", ")}`);
    const started = performance.now();
    const result = await job.runOnce(openDeps(io, values));
    const ms = Math.round(performance.now() - started);
    if (values.json) io.out(JSON.stringify({ job: job.id, ms, result }));
    else io.out(`${job.id}: done in ${ms} ms ${JSON.stringify(result)}`);
    return;
  }
  throw new UsageError("usage: dealgraph jobs list | dealgraph jobs run ID");
}
