// A small portfolio book and LP book whose every figure the tests work out by hand, loaded through
// the real importers. CSV text is kept here so tests can also write it to files for the CLI.
import { and, eq } from "drizzle-orm";
import type { Deps } from "../../src/deps.ts";
import { ImportError } from "../../src/lib/csv.ts";
import { fundsImporter } from "../../src/modules/funds/funds.import.ts";
import { portfolioImporter } from "../../src/modules/portfolio/portfolio.import.ts";
import { portfolioHoldings } from "../../src/modules/portfolio/portfolio.tables.ts";

export const PORTFOLIO_CSV = `name,website,sector,stage,status,fund_name,holding_type,investment_date,ownership_percentage,invested,current_valuation,currency
Acme Robotics,acme.com,Robotics,series_a,active,Fund I,direct_company,2020-03-15,12.5,2000000,5000000,USD
Acme Robotics,https://www.acme.com/,Robotics,series_b,active,Fund II,direct_company,2022-06-01,4,3000000,3000000,USD
Bolt Payments,boltpay.io,Fintech,seed,active,Fund I,direct_company,2021-01-10,,1500000,,USD
Cedar Health,cedar.health,Health,series_a,exited,Fund I,direct_company,2019-07-01,8,,,
Delta AI,delta.ai,AI,seed,written_off,Fund II,direct_company,2020-11-20,10,1000000,0,USD
Échelle,echelle.fr,Climate,seed,active,Fund II,direct_company,2023-02-01,6.5,800000,1200000,EUR
`;

export const METRICS_CSV = `company,metric,value,unit,currency,statement_date,kind
acme.com,arr,1000000,,USD,2024-01-31,
acme.com,arr,1200000,,USD,2024-02-29,actual
acme.com,arr,1300000,,USD,2024-02-29,budget
acme.com,arr,1500000,,USD,2024-03-31,budget
Acme Robotics,monthly_burn,150000,usd,USD,2024-02-29,
Acme Robotics,runway_months,18,months,,2024-02-29,
Bolt Payments,arr,400000,,USD,2023-12-31,
Bolt Payments,arr,450000,,USD,2024-01-31T09:30:00+01:00,
Bolt Payments,headcount,14,people,,2024-01-31,budget
`;

export const COMMITMENTS_CSV = `fund_name,vintage_year,commitment,currency
Alpha Fund I,2021,1000000,USD
Beta Growth II,2020,200000,USD
Gamma Seed III,2021,150000,USD
`;

export const CASHFLOWS_CSV = `fund_name,cashflow_date,type,amount,currency
Alpha Fund I,2021-01-01,call,400000,USD
Alpha Fund I,2022-01-01,distribution,110000,
Alpha Fund I,2023-01-01,call,100000,USD
Beta Growth II,2021-01-01,call,100000,
Gamma Seed III,2021-01-01,call,100000,
`;

export const MARKS_CSV = `fund_name,mark_date,nav
Alpha Fund I,2021-12-31,390000
Alpha Fund I,2022-09-30,363000
Beta Growth II,2022-06-30,105000
Beta Growth II,2023-01-01,121000
Gamma Seed III,2023-01-01,144000
`;

/** When the LP book's figures are read: no mark is older than 180 days then. */
export const FUNDS_AS_OF = "2023-02-15T12:00:00.000Z";

export function importPortfolioBook(deps: Deps, orgId: string, csv = { portfolio: PORTFOLIO_CSV, metrics: METRICS_CSV }) {
  const importer = portfolioImporter(deps);
  return {
    portfolio: importer.importPortfolio(orgId, { name: "portfolio.csv", text: csv.portfolio }),
    metrics: csv.metrics ? importer.importMetrics(orgId, { name: "metrics.csv", text: csv.metrics }) : null,
  };
}

export function importFundsBook(deps: Deps, orgId: string, csv = { commitments: COMMITMENTS_CSV, cashflows: CASHFLOWS_CSV, marks: MARKS_CSV }) {
  return fundsImporter(deps).importFunds(orgId, {
    commitments: { name: "commitments.csv", text: csv.commitments },
    cashflows: { name: "cashflows.csv", text: csv.cashflows },
    marks: { name: "marks.csv", text: csv.marks },
  });
}

/** The company_id of an org's holding, importing the standard book first if it is not there. */
export function holdingId(deps: Deps, orgId: string, name = "Acme Robotics", fund = "Fund I"): string {
  const find = () =>
    deps.db
      .select({ id: portfolioHoldings.id })
      .from(portfolioHoldings)
      .where(and(eq(portfolioHoldings.orgId, orgId), eq(portfolioHoldings.name, name), eq(portfolioHoldings.fundName, fund)))
      .get()?.id;
  let id = find();
  if (!id) {
    importPortfolioBook(deps, orgId);
    id = find();
  }
  if (!id) throw new Error(`no holding ${name} in ${fund}`);
  return id;
}

/** The ImportError an import throws (fails the test if it throws nothing, or something else). */
export function importError(run: () => unknown): ImportError {
  try {
    run();
  } catch (error) {
    if (error instanceof ImportError) return error;
    throw error;
  }
  throw new Error("the import was expected to fail");
}
