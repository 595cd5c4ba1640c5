// Named reads of deals that other modules make, through the deals service (which hands these out
// with its own verbs): the firm's book for the reach job, the MCP door's directory and the `ask`
// tool's pipeline and document inventory, what founder evidence and research retrieval look up. Each statement is prepared once and org-scoped by its
// caller's org (a deal id given here came from an org-scoped read).
import { perDeps, type Deps } from "../../deps.ts";
import type { SqlRowOf } from "../../db/rows.ts";
import type { dealDocuments, deals } from "./deals.tables.ts";

/** A deal's row as `SELECT *` reads it. */
export type DealRow = SqlRowOf<typeof deals>;

/** A deal document's row as `SELECT *` reads it. */
export type DealDocumentRow = SqlRowOf<typeof dealDocuments>;

/** A deal as the firm's book sees it (the reach-candidates job's thesis and fit). */
export type DealBookFacts = {
  name: string | null;
  domain: string | null;
  kind: DealRow["kind"];
  /** Pipeline stage: new, screening, diligence, ic, invested, passed. */
  pipelineStage: string;
  sector: string | null;
  /** The round the deal is raising, as its analysis found it (free text). */
  roundStage: string | null;
};

/** What a person may call a deal by. */
export type DealDirectoryEntry = { deal_id: string } & Pick<DealRow, "company_name" | "domain" | "website">;

/** A deal with its score and analysis (JSON), as evidence about a company or a founder. */
export type DealScoreRow = Pick<DealRow, "id" | "company_name" | "domain" | "stage" | "score" | "analysis">;

/** The round a deal is raising, as its analysis found it (all null before an analysis). */
export type DealRound = { stage: string | null; amount: number | null; currency: string | null };

/** A document of a deal with its extracted pages (JSON), as the web app's document page reads it. */
export type DealDocument = Omit<DealDocumentRow, "id" | "org_id"> & { document_id: string };

/** A team member listed in a deal's analysed facts. */
export type TeamListing = { dealId: string; name: string | null; title: string | null; linkedin: string | null };

/** A deal with what its analysis read of its company and round (the `ask` tool's pipeline). */
export type PipelineDeal = { deal_id: string } & Pick<DealRow, "company_name" | "domain" | "kind" | "stage" | "score" | "analysis_status" | "created_at"> & {
  sector: string | null;
  location: string | null;
  round_stage: string | null;
  round_amount: number | null;
  round_currency: string | null;
  round_pre_money: number | null;
  founded_year: number | null;
};

/** A document held on a deal, without its text. */
export type DocumentInventoryEntry = { document_id: string; company_name: string | null } & Pick<
  DealDocumentRow,
  "deal_id" | "filename" | "kind" | "category" | "page_count" | "status" | "uploaded_at"
>;

const SCORE_COLUMNS = "id, company_name, domain, stage, score, analysis";

export const dealQueries = perDeps((deps: Deps) => {
  const sqlite = deps.db.$client;

  // What detail() would say of each deal's company and round, read by SQLite from the stored facts:
  // no JSON is parsed per deal, and the analysis is never read.
  const bookRows = sqlite.query<DealBookFacts, [string]>(
    `SELECT COALESCE(json_extract(facts, '$.company.name'), company_name) AS name,
            COALESCE(json_extract(facts, '$.company.domain'), domain) AS domain,
            kind, stage AS pipelineStage,
            json_extract(facts, '$.company.sector') AS sector,
            json_extract(facts, '$.round.stage') AS roundStage
     FROM deals WHERE org_id = ? ORDER BY created_at DESC, id DESC`,
  );
  // What a person may call a deal by (its name, domain or website), newest first: one statement,
  // no count, no analysis JSON (the MCP door matches questions against it).
  const directoryRows = sqlite.query<DealDirectoryEntry, { org: string; limit: number }>(
    `SELECT id AS deal_id, company_name, domain, website FROM deals WHERE org_id = $org ORDER BY created_at DESC, id DESC LIMIT $limit`,
  );
  // The same host key a submission's 409 is judged by (indexed), else a deal whose domain was read from its material.
  const byHost = sqlite.query<{ id: string }, { org: string; target: string; host: string }>(
    `SELECT id FROM (
       SELECT id, created_at FROM deals WHERE org_id = $org AND target_key = $target
       UNION ALL SELECT id, created_at FROM deals WHERE org_id = $org AND domain = $host
     ) ORDER BY created_at DESC, id DESC LIMIT 1`,
  );
  const domainOfCompany = sqlite.query<{ domain: string }, [string, string]>(
    "SELECT domain FROM deals WHERE org_id = ? AND lower(company_name) = ? AND domain IS NOT NULL ORDER BY updated_at DESC LIMIT 1",
  );
  // Every team listing of the org's analysed deals, newest deal first. Names are compared by the
  // caller in JS: SQLite's lower() folds ASCII only, so "ÉLODIE" never equalled "Élodie" in SQL.
  const teamRows = sqlite.query<TeamListing, [string]>(
    `SELECT d.id AS dealId, json_extract(t.value, '$.name') AS name, json_extract(t.value, '$.title') AS title, json_extract(t.value, '$.linkedin_url') AS linkedin
     FROM deals d, json_each(d.facts, '$.team') t
     WHERE d.org_id = ? AND d.facts IS NOT NULL
     ORDER BY d.updated_at DESC, d.id`,
  );
  const scoreRow = sqlite.query<DealScoreRow, [string, string]>(`SELECT ${SCORE_COLUMNS} FROM deals WHERE id = ? AND org_id = ?`);
  const namedScoreRows = sqlite.query<DealScoreRow, [string]>(
    `SELECT ${SCORE_COLUMNS} FROM deals WHERE org_id = ? AND company_name IS NOT NULL ORDER BY updated_at DESC`,
  );
  const scoreRowsByName = sqlite.query<DealScoreRow & { company_name: string }, [string, string, number]>(
    `SELECT ${SCORE_COLUMNS} FROM deals WHERE org_id = ? AND lower(company_name) = ? ORDER BY created_at DESC LIMIT ?`,
  );
  const companyNameRows = sqlite.query<{ name: string; domain: string | null }, [string]>(
    "SELECT company_name AS name, min(domain) AS domain FROM deals WHERE org_id = ? AND company_name IS NOT NULL GROUP BY lower(company_name)",
  );

  // Every deal with what its analysis found of its company and round, read by SQLite from the
  // stored facts (no JSON parsed per deal, the analysis never read): the `ask` tool filters,
  // ranks and totals the pipeline over it.
  const pipelineRows = sqlite.query<PipelineDeal, [string]>(
    `SELECT id AS deal_id, COALESCE(company_name, json_extract(facts, '$.company.name')) AS company_name,
            COALESCE(domain, json_extract(facts, '$.company.domain')) AS domain, kind, stage, score, analysis_status, created_at,
            json_extract(facts, '$.company.sector') AS sector, json_extract(facts, '$.company.location') AS location,
            json_extract(facts, '$.round.stage') AS round_stage, json_extract(facts, '$.round.amount') AS round_amount,
            json_extract(facts, '$.round.currency') AS round_currency, json_extract(facts, '$.round.pre_money_valuation') AS round_pre_money,
            json_extract(facts, '$.company.founded_year') AS founded_year
     FROM deals WHERE org_id = ? ORDER BY created_at DESC, id DESC`,
  );
  const inventoryRows = sqlite.query<DocumentInventoryEntry, [string]>(
    `SELECT dd.id AS document_id, dd.deal_id, d.company_name, dd.filename, dd.kind, dd.category, dd.page_count, dd.status, dd.uploaded_at
     FROM deal_documents dd JOIN deals d ON d.id = dd.deal_id WHERE dd.org_id = ? ORDER BY dd.uploaded_at DESC, dd.id`,
  );

  // The web app's reads: the round of the deals a page shows (read by SQLite from the stored facts,
  // no JSON parsed per deal; driven from the ids, CROSS JOIN keeping that order, so each deal is one
  // primary-key lookup, where "org_id = ? AND id IN (...)" walked the org's whole index), one
  // document with its pages, and the deal a document belongs to (a research citation's link).
  const roundsOf = sqlite.query<DealRound & { id: string }, { org: string; ids: string }>(
    `SELECT d.id, json_extract(d.facts, '$.round.stage') AS stage, json_extract(d.facts, '$.round.amount') AS amount,
            json_extract(d.facts, '$.round.currency') AS currency
     FROM json_each($ids) AS ids CROSS JOIN deals d ON d.id = ids.value WHERE d.org_id = $org`,
  );
  const documentById = sqlite.query<DealDocument, { org: string; deal: string; id: string }>(
    `SELECT id AS document_id, deal_id, filename, kind, folder, category, content_type, size_bytes, sha256, page_count, status, uploaded_at, pages
     FROM deal_documents WHERE id = $id AND deal_id = $deal AND org_id = $org`,
  );
  const dealOfDocument = sqlite.query<{ deal_id: string }, { org: string; id: string }>("SELECT deal_id FROM deal_documents WHERE id = $id AND org_id = $org");

  return {
    /** Every deal of the org, newest first, with its analysed sector, location and round (null before an analysis). */
    pipeline: (orgId: string): PipelineDeal[] => pipelineRows.all(orgId),
    /** Every document the org holds on its deals (decks and data rooms), newest first, without their text. */
    documentInventory: (orgId: string): DocumentInventoryEntry[] => inventoryRows.all(orgId),
    /** The round each of these deals of the org is raising (absent for a deal of another org). */
    rounds: (orgId: string, dealIds: string[]): Map<string, DealRound> =>
      new Map(dealIds.length ? roundsOf.all({ org: orgId, ids: JSON.stringify(dealIds) }).map(({ id, ...round }) => [id, round]) : []),
    documentRow: (orgId: string, dealId: string, documentId: string): DealDocument | null => documentById.get({ org: orgId, deal: dealId, id: documentId }),
    /** The deal of the org a document belongs to, or null. */
    documentDeal: (orgId: string, documentId: string): string | null => dealOfDocument.get({ org: orgId, id: documentId })?.deal_id ?? null,
    /** Every deal of the org, newest first, with its analysed sector and round (null before an analysis). */
    bookFacts: (orgId: string): DealBookFacts[] => bookRows.all(orgId),
    directory: (orgId: string, limit: number): DealDirectoryEntry[] => directoryRows.all({ org: orgId, limit }),
    /** The org's newest deal at a website host (lower-cased, without www. or a trailing dot), if any. */
    findByHost: (orgId: string, host: string): string | null => byHost.get({ org: orgId, target: `host:${host}`, host })?.id ?? null,
    /** The domain of the org's most recently updated deal named `company` (compared lower-cased, as SQLite folds ASCII). */
    companyDomain: (orgId: string, company: string): string | null => domainOfCompany.get(orgId, company.toLowerCase())?.domain ?? null,
    teamListings: (orgId: string): TeamListing[] => teamRows.all(orgId),
    scoreRow: (orgId: string, dealId: string): DealScoreRow | null => scoreRow.get(dealId, orgId),
    /** The org's deals that have a company name, most recently updated first. */
    namedScoreRows: (orgId: string): DealScoreRow[] => namedScoreRows.all(orgId),
    /** The org's newest deals named `company` (compared lower-cased), at most `limit`. */
    scoreRowsNamed: (orgId: string, company: string, limit: number) => scoreRowsByName.all(orgId, company.toLowerCase(), limit),
    /** Each company name of the org's deals once (case-insensitively), with the least of its deals' domains. */
    companyNames: (orgId: string): { name: string; domain: string | null }[] => companyNameRows.all(orgId),
  };
});
