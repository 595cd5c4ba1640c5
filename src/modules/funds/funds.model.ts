import { t } from "elysia";
import { STALE_NAV_DAYS } from "./fund-math.ts";

const Timestamp = t.String({ format: "date-time" });
const Day = t.String({ format: "date" });
const Money = (description: string) => t.Nullable(t.Number({ description }));
const Ratio = (description: string) => t.Nullable(t.Number({ description: `${description}; 4 decimals; null when an input is missing or nothing was called` }));

const FLAGS =
  "`no_cashflows` (called and distributed are 0 because the ledger has none), `no_mark` (NAV unknown), " +
  `\`stale_nav\` (the last mark is more than ${STALE_NAV_DAYS} days old), \`cashflows_after_last_mark\` (NAV rolled forward), ` +
  "`called_above_commitment`, `negative_rolled_nav`, `irr_not_computable` (no rate: nothing called, or no root), " +
  "`unknown_currency` (the commitment's currency was not given), `mixed_currency` (totals over more than one currency, an unknown one counting as its own)";

const figures = {
  commitment: Money("The commitment"),
  called: Money("Sum of capital calls"),
  distributed: Money("Sum of distributions"),
  nav: Money("The latest mark rolled forward: NAV + calls - distributions dated after it; null without a mark"),
  nav_date: t.Nullable(Day),
  unfunded: Money("commitment - called"),
  tvpi: Ratio("(distributed + nav) / called"),
  dpi: Ratio("distributed / called"),
  rvpi: Ratio("nav / called"),
  irr: t.Nullable(t.Number({ description: "Net IRR (XIRR, 365-day years) as a fraction (0.1 = 10%), 6 decimals: calls out, distributions in, NAV in at nav_date" })),
  data_quality_flags: t.Array(t.String(), { description: FLAGS }),
};

export const PositionModel = t.Object({
  commitment_id: t.String({ format: "uuid" }),
  fund_name: t.String(),
  vintage_year: t.Nullable(t.Integer()),
  currency: t.Nullable(t.String()),
  ...figures,
  nav_date: t.Nullable(t.String({ format: "date", description: "The date the NAV stands at: the last cashflow rolled into it, else the mark's date" })),
  last_mark_date: t.Nullable(t.String({ format: "date", description: "The date of the latest mark (additive)" })),
});

export const TotalsModel = t.Object(
  {
    currency: t.Nullable(
      t.String({ description: "null when the positions are in more than one currency (see totals_by_currency), or in one unknown currency" }),
    ),
    ...figures,
    position_count: t.Integer(),
  },
  { description: "The positions pooled: sums, ratios of the sums, one XIRR over all flows; flags: the union of the positions'" },
);

export const CurrencyTotalsModel = t.Object(
  {
    ...TotalsModel.properties,
    commitment_id: t.Nullable(
      t.String({ format: "uuid", description: "Set on the entry of one commitment of unknown currency (additive); null on a currency's entry" }),
    ),
  },
  { description: "One currency's totals; each commitment of unknown currency is an entry of its own (currency null), pooled with nothing" },
);

export const PositionsModel = t.Object({
  scope: t.Literal("org"),
  positions: t.Array(PositionModel),
  totals: TotalsModel,
  totals_by_currency: t.Array(CurrencyTotalsModel, {
    description: "The totals of each currency (by code), then one entry per commitment of unknown currency; never summed across currencies",
  }),
  as_of: Timestamp,
}, { description: "Every LP commitment's figures, and the totals" });

export const CashflowsModel = t.Object({
  scope: t.Literal("org"),
  cashflows: t.Array(
    t.Object({
      cashflow_id: t.String({ format: "uuid" }),
      commitment_id: t.String({ format: "uuid" }),
      fund_name: t.String(),
      cashflow_date: Day,
      type: t.Union([t.Literal("call"), t.Literal("distribution")]),
      amount: t.Number({ description: "Positive; `type` gives the direction" }),
      currency: t.Nullable(t.String()),
    }),
    { description: "Oldest first" },
  ),
  as_of: Timestamp,
}, { description: "The dated call and distribution ledger" });

export const MarksModel = t.Object({
  scope: t.Literal("org"),
  marks: t.Array(
    t.Object({
      commitment_id: t.String({ format: "uuid" }),
      fund_name: t.String(),
      currency: t.Nullable(t.String()),
      points: t.Array(
        t.Object({
          mark_date: Day,
          nav: t.Number(),
          called_to_date: t.Number({ description: "Calls dated on or before mark_date" }),
          distributed_to_date: t.Number({ description: "Distributions dated on or before mark_date" }),
          tvpi: Ratio("(distributed_to_date + nav) / called_to_date"),
        }),
        { description: "Oldest first; [] when the commitment has no mark" },
      ),
    }),
  ),
  as_of: Timestamp,
}, { description: "Each commitment's dated NAV and TVPI trace" });

export const FundFilterQuery = t.Object({ fund_name: t.Optional(t.String({ minLength: 1, description: "Exact fund name" })) });
