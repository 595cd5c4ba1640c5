// The signed-in pages: overview (the workspace at a glance), API keys, network settings, contacts, admin. Each handler makes
// its service calls (api-keys, orgs, network) and renders; every POST answers with a redirect
// and a flash message (or the same form again with inline errors).
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { ApiError, notFound } from "../../http/errors.ts";
import { isCalendarDate } from "../../lib/dates.ts";
import { BackupInProgress, backupsService } from "../backups/backups.service.ts";
import { apiKeysService } from "../identity/keys.service.ts";
import { keyViews } from "../identity/keys.views.ts";
import { dealsService, type DealFilters } from "../deals/deals.service.ts";
import { fundsService } from "../funds/funds.service.ts";
import { networkSignals } from "../network/network.signals.ts";
import { portfolioService } from "../portfolio/portfolio.service.ts";
import { researchService } from "../research/research.service.ts";
import { orgsService } from "../identity/orgs.service.ts";
import { adminPage } from "./pages/admin.ts";
import { backupsPage } from "./pages/backups.ts";
import { errorPage } from "./pages/home.ts";
import { contactsPage } from "./pages/contacts.ts";
import { homePage } from "./pages/home.ts";
import { EMPTY_KEY_FORM, keysPage, type KeyForm } from "./pages/keys.ts";
import { isoDay } from "./pages/layout.ts";
import { networkPage } from "./pages/network.ts";
import { stageLabel } from "./pages/pipeline.ts";
import { contactCount, searchContacts } from "./web.contacts.ts";
import { guard, refusalText, sessionPrincipal, type WebCtx } from "./web.guard.ts";
import { htmlResponse, pageNumber, redirect, safeNext } from "./web.http.ts";

const hidden = { detail: { hide: true } };
const DAY_MS = 86_400_000;
const CONTACTS_PAGE_SIZE = 25;
const STALE_LIMIT = 100;

export function pageRoutes(deps: Deps) {
  const keys = apiKeysService(deps);
  const orgs = orgsService(deps);
  const signals = networkSignals(deps);
  const deals = dealsService(deps);
  const portfolio = portfolioService(deps);
  const funds = fundsService(deps);
  const research = researchService(deps);
  const inDays = (n: number) => isoDay(new Date(deps.clock.now().getTime() + n * DAY_MS));

  const backups = backupsService(deps);
  const backupsView = () => ({ backups: backups.list().slice(0, 20), freshness: backups.freshness(), inProgress: backups.inProgress(), lastFailure: backups.lastFailure() });

  /** The 403 page for anyone but the server operator, or null for the operator. */
  function operatorOnly(c: WebCtx): Response | null {
    if (c.user.isOperator) return null;
    return htmlResponse(
      errorPage(c.shell("Server operators only"), 403, "Server operators only", "Backups hold every organization's data and the server key, so they belong to whoever runs this server: dealgraph backup on the server, or this page for a user the operator marked with dealgraph admin user operator --user USER_ID on."),
      403,
    );
  }

  /** "Back up now": 409 while a backup is being written (by this server or a `dealgraph backup`), else started in the background. */
  function startBackup(c: WebCtx): Response {
    let started: Promise<unknown>;
    try {
      if (backups.inProgress()) throw new BackupInProgress(null);
      // Written in a child process: the page lists it once it is written and verified.
      started = backups.start({ manual: true });
    } catch (error) {
      if (!(error instanceof BackupInProgress)) throw error;
      return htmlResponse(errorPage(c.shell("Backup already running"), 409, "A backup is already being written", "Wait for it to finish (it appears on the backups page once it is verified), then start another if you still need one."), 409);
    }
    started
      .then(() => backups.rotate())
      .catch((error: Error) => deps.log.error("backup failed", { error: error.message }));
    c.flash({ kind: "success", text: "A backup has started; it appears below when it is written and verified." });
    return redirect("/app/backups");
  }

  function renderKeys(c: WebCtx, form: KeyForm, status = 200): Response {
    const views = keyViews(deps, keys.listForUser(c.user.id));
    return htmlResponse(keysPage(c.shell("API keys", "keys"), { keys: views, form, minExpiry: inDays(1) }), status);
  }

  function validateKeyForm(f: Record<string, string>): { form: KeyForm; expiresAt: Date | null } {
    const form: KeyForm = { name: (f.name ?? "").trim(), scope: f.scope ?? "", expires: (f.expires ?? "").trim(), errors: {} };
    if (!form.name) form.errors.name = "Give the key a name, so you can tell it apart later.";
    else if (form.name.length > 100) form.errors.name = "Keep the name to 100 characters or fewer.";
    if (form.scope !== "read" && form.scope !== "write") form.errors.scope = "Choose read only, or read and write.";
    let expiresAt: Date | null = null;
    if (form.expires) {
      // Strictly a real day: Date would roll 2027-02-30 over into March.
      const parsed = isCalendarDate(form.expires) ? new Date(`${form.expires}T00:00:00.000Z`) : null;
      if (!parsed) form.errors.expires = "Enter a real date as YYYY-MM-DD.";
      else if (parsed <= deps.clock.now()) form.errors.expires = "The expiry must be in the future.";
      else expiresAt = parsed;
    }
    return { form, expiresAt };
  }

  /** Every member with their keys (as the API shows them), for the admin page. */
  function orgMembersWithKeys(orgId: string) {
    return orgs.listMembers(orgId).map((m) => ({ member: m, keys: keyViews(deps, keys.listForUser(m.id)).map((k) => ({ ...k, owner: m.name })) }));
  }

  return (
    new Elysia({ prefix: "/app" })
      .get(
        "",
        guard(deps, {}, (c) => {
          const views = keyViews(deps, keys.listForUser(c.user.id));
          const stale = signals.goingStale(sessionPrincipal(deps, c.user, c.org), 1);
          const counted = (f: Partial<DealFilters>) => deals.list(c.org.id, { limit: 1, offset: 0, ...f }).total;
          const page = homePage(c.shell("Overview", "home"), {
            firstName: c.user.name.split(/\s+/)[0] || c.user.name,
            activeKeys: views.filter((k) => k.status === "active").length,
            contacts: contactCount(deps, c.user.id),
            goingStale: stale.total,
            sharing: c.user.shareNetwork,
            members: c.user.isAdmin ? orgs.listMembers(c.org.id).length : null,
            pipeline: deals.board(c.org.id, {}, 0).map((s) => ({ stage: s.stage, label: stageLabel(s.stage), count: s.total })),
            analysing: counted({ status: "running" }) + counted({ status: "queued" }),
            holdings: { total: portfolio.list(c.org.id, { limit: 1, offset: 0 }).total, active: portfolio.list(c.org.id, { status: "active", limit: 1, offset: 0 }).total },
            funds: funds.fundNames(c.org.id).length,
            research: research.listPage(c.org.id, { limit: 0, offset: 0 }).total,
          });
          return htmlResponse(page);
        }),
        hidden,
      )
      // API keys
      .get("/keys", guard(deps, {}, (c) => renderKeys(c, EMPTY_KEY_FORM)), hidden)
      .post(
        "/keys",
        guard(deps, {}, (c) => {
          const { form, expiresAt } = validateKeyForm(c.fields);
          if (Object.keys(form.errors).length) return renderKeys(c, form, 422);
          const created = keys.create({ userId: c.user.id, scope: form.scope as "read" | "write", name: form.name, expiresAt });
          c.flash({
            kind: "success",
            text: `Created the ${form.scope === "write" ? "read-and-write" : "read-only"} key “${created.key.name}”. Copy its secret now:`,
            secret: { keyId: created.keyId, name: created.key.name, value: created.secret },
          });
          return redirect("/app/keys");
        }),
        hidden,
      )
      .post(
        "/keys/:key_id/rotate",
        guard(deps, {}, (c) => {
          const owned = keys.getOwned(c.user.id, c.params.key_id);
          const raw = (c.fields.overlap_hours ?? "").trim();
          const hours = Number(raw);
          if (!/^\d+$/.test(raw) || hours > 720) {
            c.flash({ kind: "error", text: "The overlap must be a whole number of hours from 0 to 720. Nothing was rotated." });
            return redirect("/app/keys");
          }
          try {
            const rotated = keys.rotate(owned.id, hours);
            const until = rotated.oldKey.expiresAt ? new Date(rotated.oldKey.expiresAt).toISOString().replace("T", " ").slice(0, 16) + " UTC" : "now";
            c.flash({
              kind: "success",
              text: `Rotated “${owned.name}”. The previous secret keeps working until ${until}. The new secret:`,
              secret: { keyId: rotated.keyId, name: owned.name, value: rotated.secret },
            });
          } catch (error) {
            c.flash({ kind: "error", text: refusalText(error) });
          }
          return redirect("/app/keys");
        }),
        hidden,
      )
      .post(
        "/keys/:key_id/revoke",
        guard(deps, {}, (c) => {
          const owned = keys.getOwned(c.user.id, c.params.key_id);
          keys.revoke(owned.id);
          c.flash({ kind: "success", text: `Revoked “${owned.name}”. Requests with it are refused from now on.` });
          return redirect("/app/keys");
        }),
        hidden,
      )
      // Network settings and contacts
      .get(
        "/network",
        guard(deps, {}, (c) => {
          const stale = signals.goingStale(sessionPrincipal(deps, c.user, c.org), STALE_LIMIT);
          const page = networkPage(c.shell("Network", "network"), {
            sharing: c.user.shareNetwork,
            orgName: c.org.name,
            stale: stale.signals,
            staleTotal: stale.total,
            defaultSnooze: inDays(14),
            minSnooze: inDays(1),
          });
          return htmlResponse(page);
        }),
        hidden,
      )
      .post(
        "/network/sharing",
        guard(deps, {}, (c) => {
          const share = c.fields.share === "on";
          if (!share && c.fields.share !== "off") throw new ApiError(422, "Choose on or off.");
          orgs.setSharing(c.user.id, share);
          c.flash({
            kind: "success",
            text: share
              ? `Sharing is on: teammates at ${c.org.name} now see your relationships in who-knows.`
              : "Sharing is off: only you see your relationships.",
          });
          return redirect("/app/network");
        }),
        hidden,
      )
      .post(
        "/network/cadence",
        guard(deps, {}, (c) => {
          const back = safeNext(c.fields.back || "/app/contacts");
          const contact = (c.fields.contact ?? "").trim();
          const raw = (c.fields.days ?? "").trim();
          if (raw !== "" && !/^\d+$/.test(raw)) {
            c.flash({ kind: "error", text: `The cadence for ${contact} must be a whole number of days (empty or 0 clears it).` });
            return redirect(back);
          }
          const days = raw === "" ? 0 : Number(raw);
          try {
            signals.declareCadence(c.user.id, contact, days);
            c.flash({
              kind: "success",
              text: days === 0 ? `Cleared the cadence for ${contact}: the learned one applies.` : `Keeping in touch with ${contact} every ${days} days.`,
            });
          } catch (error) {
            c.flash({ kind: "error", text: refusalText(error) });
          }
          return redirect(back);
        }),
        hidden,
      )
      .post(
        "/network/snooze",
        guard(deps, {}, (c) => {
          const back = safeNext(c.fields.back || "/app/network");
          const contact = (c.fields.contact ?? "").trim();
          const until = (c.fields.until ?? "").trim();
          try {
            const result = signals.snooze(c.user.id, contact, until);
            const active = result.snoozed_until > deps.clock.now().toISOString();
            c.flash({ kind: "success", text: active ? `${contact} is snoozed until ${until}.` : `${contact} is no longer snoozed.` });
          } catch (error) {
            c.flash({ kind: "error", text: refusalText(error) });
          }
          return redirect(back);
        }),
        hidden,
      )
      .get(
        "/contacts",
        guard(deps, {}, (c) => {
          const q = (c.url.searchParams.get("q") ?? "").slice(0, 200);
          const page = pageNumber(c.url);
          const found = searchContacts(deps, c.user.id, { q, offset: (page - 1) * CONTACTS_PAGE_SIZE, limit: CONTACTS_PAGE_SIZE });
          const back = `/app/contacts?${new URLSearchParams({ ...(q ? { q } : {}), ...(page > 1 ? { page: String(page) } : {}) })}`;
          const view = { q, page, pageSize: CONTACTS_PAGE_SIZE, total: found.total, contacts: found.contacts, back, now: deps.clock.now().toISOString(), defaultSnooze: inDays(14), minSnooze: inDays(1) };
          return htmlResponse(contactsPage(c.shell("Contacts", "contacts"), view));
        }),
        hidden,
      )
      // Admin
      .get(
        "/admin",
        guard(deps, { admin: true }, (c) => {
          const all = orgMembersWithKeys(c.org.id);
          const members = all.map(({ member: m, keys: owned }) => ({
            id: m.id,
            name: m.name,
            email: m.email,
            isAdmin: m.isAdmin,
            sharing: m.shareNetwork,
            hasPassword: m.passwordHash !== null,
            activeKeys: owned.filter((k) => k.status === "active").length,
            createdAt: m.createdAt,
          }));
          const allKeys = all.flatMap((m) => m.keys).sort((a, b) => b.created_at.localeCompare(a.created_at));
          return htmlResponse(adminPage(c.shell("Admin", "admin"), { members, keys: allKeys, operator: c.user.isOperator }));
        }),
        hidden,
      )
      // Backups hold every organization's data and the server key: the server operator's, never an
      // org admin's (`dealgraph admin user operator --user ID on`). Anyone else: 403, nothing listed.
      .get("/backups", guard(deps, { org: false }, (c) => operatorOnly(c) ?? htmlResponse(backupsPage(c.shell("Backups"), backupsView()))), hidden)
      .post("/backups", guard(deps, { org: false }, (c) => operatorOnly(c) ?? startBackup(c)), hidden)
      .post("/admin/backups", guard(deps, { org: false }, (c) => operatorOnly(c) ?? startBackup(c)), hidden)
      .post(
        "/admin/keys/:key_id/revoke",
        guard(deps, { admin: true }, (c) => {
          const key = keys.get(c.params.key_id);
          const owner = key ? orgs.getUser(key.userId) : undefined;
          // Another organization's key does not exist for this admin.
          if (!key || !owner || owner.orgId !== c.org.id) throw notFound("No such API key in your organization.");
          keys.revoke(key.id);
          c.flash({ kind: "success", text: `Revoked “${key.name}” of ${owner.name}.` });
          return redirect("/app/admin");
        }),
        hidden,
      )
  );
}
