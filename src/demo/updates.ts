// The demo firm's founders' updates: for a few active holdings, the last three months' update
// mails (plain text with bullets, or an HTML table), written from the book's own actuals, so each
// figure confirms a point of the book and the company page shows its quote, then read through the
// real updates reader as `dealgraph import updates` would. Two wait for review: a month whose
// ARR differs from the book's, and a mail that names no period. Written as .eml files beside the
// other demo sources.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Deps } from "../deps.ts";
import { portfolioService } from "../modules/portfolio/portfolio.service.ts";
import { updatesService } from "../modules/updates/updates.service.ts";

const MONTHS = 3;
const COMPANIES = 5;
const FIRST_NAMES = ["Maya", "Jonas", "Priya", "Lukas", "Sofia", "Amara"];

type Point = { value: number; statement_date: string; kind: string };

const money = (v: number, currency: string) => `${currency === "EUR" ? "€" : currency === "GBP" ? "£" : "$"}${v >= 1e6 ? `${(v / 1e6).toFixed(2)}M` : `${Math.round(v / 1000)}k`}`;
const exact = (v: number, currency: string) => `${currency === "EUR" ? "€" : currency === "GBP" ? "£" : "$"}${v.toLocaleString("en-US")}`;
const monthName = (iso: string) => new Date(iso).toLocaleString("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

function mail(o: { from: string; to: string; subject: string; date: Date; id: string; text: string; html?: string }): string {
  const head = [`From: ${o.from}`, `To: ${o.to}`, `Subject: ${o.subject}`, `Date: ${o.date.toUTCString()}`, `Message-ID: ${o.id}`, "MIME-Version: 1.0"];
  if (!o.html) return [...head, 'Content-Type: text/plain; charset="UTF-8"', "", o.text, ""].join("\r\n");
  return [...head, 'Content-Type: multipart/alternative; boundary="demo-alt"', "", "--demo-alt", 'Content-Type: text/plain; charset="UTF-8"', "", o.text, "--demo-alt", 'Content-Type: text/html; charset="UTF-8"', "", o.html, "--demo-alt--", ""].join("\r\n");
}

export async function loadDemoUpdates(deps: Deps, orgId: string, lead: { id: string; email: string }, sourceDir: string, progress: (line: string) => void): Promise<void> {
  const started = performance.now();
  const portfolio = portfolioService(deps);
  const now = deps.clock.now();
  const dir = join(sourceDir, "updates");
  mkdirSync(dir, { recursive: true });
  const holdings = portfolio.list(orgId, { status: "active", limit: 200, offset: 0 }).companies.filter((h) => h.currency && h.metrics.arr);
  const seen = new Set<string>();
  const chosen = holdings.filter((h) => !seen.has(h.website) && seen.add(h.website)).slice(0, COMPANIES);
  const mails: string[] = [];
  for (const [i, h] of chosen.entries()) {
    const host = h.website.replace(/^https?:\/\//, "").replace(/^www\./, "").replace(/\/.*$/, "");
    const founder = `${FIRST_NAMES[i % FIRST_NAMES.length]} <${FIRST_NAMES[i % FIRST_NAMES.length].toLowerCase()}@${host}>`;
    const series = (metric: string) => (portfolio.metricHistory(orgId, h.company_id, { metric }).points as Point[]).filter((p) => p.kind === "actual");
    const arr = series("arr").slice(-MONTHS);
    const burn = new Map(series("monthly_burn").map((p) => [p.statement_date, p.value]));
    const team = new Map(series("headcount").map((p) => [p.statement_date, p.value]));
    const runway = new Map(series("runway_months").map((p) => [p.statement_date, p.value]));
    for (const [m, point] of arr.entries()) {
      const at = point.statement_date;
      const sent = new Date(Math.min(Date.parse(at) + 5 * 86_400_000, now.getTime() - 3_600_000));
      // The last update of the first company reports an ARR the book does not have: a conflict to review.
      const arrValue = i === 0 && m === arr.length - 1 ? Math.round(point.value * 1.07) : point.value;
      const lines = [`- ARR: ${exact(arrValue, h.currency!)}`];
      if (burn.has(at)) lines.push(`- Net burn: ${money(burn.get(at)!, h.currency!)} for the month`);
      if (team.has(at)) lines.push(`- Headcount: ${team.get(at)} FTEs (we hired ${Math.max(1, i)} people)`);
      if (runway.has(at)) lines.push(`- Runway: ${runway.get(at)} months`);
      lines.push(`- We expect to reach ${money(arrValue * 1.5, h.currency!)} ARR by the end of next year.`);
      const text = [`Hi ${lead.email.split("@")[0]},`, "", `Here is our ${monthName(at)} update.`, "", ...lines, "", "Thanks for your support,", founder.split(" ")[0]].join("\n");
      const html =
        m % 2 === 1
          ? `<p>Here is our ${monthName(at)} update.</p><table><tr><th>Metric</th><th>${monthName(at)}</th><th>MoM</th></tr><tr><td>ARR</td><td>${exact(arrValue, h.currency!)}</td><td>+3%</td></tr></table><p>We expect to reach ${money(arrValue * 1.5, h.currency!)} ARR by the end of next year.</p>`
          : undefined;
      mails.push(mail({ from: founder, to: lead.email, subject: `${h.name}: ${monthName(at)} update`, date: sent, id: `<demo-${i}-${m}@${host}>`, text, html }));
    }
    // A quick note without a period: its figures wait for review.
    if (i === 1 && arr.length) {
      const last = arr[arr.length - 1];
      mails.push(mail({ from: founder, to: lead.email, subject: `${h.name}: quick numbers`, date: new Date(now.getTime() - 7_200_000), id: `<demo-${i}-quick@${host}>`, text: `Quick metrics update before the board call:\nARR: ${money(last.value * 1.02, h.currency!)}\nCash: ${money(last.value * 2.4, h.currency!)}\n\nBest,\nthe team` }));
    }
  }
  const updates = updatesService(deps);
  let applied = 0;
  let review = 0;
  for (const [n, raw] of mails.entries()) {
    writeFileSync(join(dir, `update-${String(n + 1).padStart(2, "0")}.eml`), raw);
    const r = await updates.ingest(orgId, raw, { userId: lead.id, origin: "demo" });
    if (r.outcome === "applied") {
      applied += r.counts.applied;
      review += r.counts.needs_review;
    }
  }
  progress(`${mails.length} founders' updates from ${chosen.length} holdings: ${applied} figures confirm the book, ${review} wait for review (${Math.round(performance.now() - started)} ms)`);
}
