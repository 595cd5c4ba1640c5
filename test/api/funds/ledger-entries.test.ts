// fundsService.ledgerEntries: the LP ledger as typed rows (fund, date, type, amount, the fund's
// currency), oldest first, the org's own or one fund's; what the `ask` tool totals calls and
// distributions over.
import { expect, test } from "bun:test";
import { fundsService } from "../../../src/modules/funds/funds.service.ts";
import { seededApp } from "../../helpers/app.ts";
import { FUNDS_AS_OF, importFundsBook } from "../../helpers/book.ts";
import { TestClock } from "../../helpers/clock.ts";

test("every cashflow of the org with its fund and currency, oldest first; one fund's; another org's book is not read", () => {
  const { t, f } = seededApp({ clock: new TestClock(FUNDS_AS_OF) });
  importFundsBook(t.deps, f.orgs.acme.id);
  const funds = fundsService(t.deps);
  const rows = funds.ledgerEntries(f.orgs.acme.id).map(({ id, ...r }) => (expect(id).toBeString(), r));
  expect(rows).toEqual([
    { fund_name: "Alpha Fund I", cashflow_date: "2021-01-01", type: "call", amount: 400_000, currency: "USD" },
    { fund_name: "Beta Growth II", cashflow_date: "2021-01-01", type: "call", amount: 100_000, currency: "USD" },
    { fund_name: "Gamma Seed III", cashflow_date: "2021-01-01", type: "call", amount: 100_000, currency: "USD" },
    { fund_name: "Alpha Fund I", cashflow_date: "2022-01-01", type: "distribution", amount: 110_000, currency: "USD" },
    { fund_name: "Alpha Fund I", cashflow_date: "2023-01-01", type: "call", amount: 100_000, currency: "USD" },
  ]);
  expect(funds.ledgerEntries(f.orgs.acme.id, "Alpha Fund I").map((r) => r.cashflow_date)).toEqual(["2021-01-01", "2022-01-01", "2023-01-01"]);
  expect(funds.ledgerEntries(f.orgs.globex.id)).toEqual([]);
});
