import { CLICK_EXPORT_COLUMNS, CONVERSION_EXPORT_COLUMNS, EXPORT_MAX_DAYS } from "@shared/exports";

type Column<T extends readonly string[]> = T[number];

/** Every column of the conversions export, in the file's order (CONTRACT §9). */
const CONVERSION_COLUMN_TEXT: Record<Column<typeof CONVERSION_EXPORT_COLUMNS>, string> = {
  id: "The conversion's id.",
  occurred_at: "When it was recorded (ISO 8601, UTC).",
  direction:
    "`sent` when your link earned it at a partner, `received` when a partner's link earned it for you.",
  type: "signup, trial, purchase, upgrade, activation or referral.",
  partner_id: "The other company's id.",
  partner_name: "The other company's name.",
  click_id: "The click it is credited to.",
  customer_id: "The advertiser's own customer id; empty when none was sent.",
  value: "Major units with the currency's decimals (49.99); empty when the conversion has no value.",
  currency: "ISO 4217 code.",
  event_id: "The advertiser's idempotency key; empty when none was sent.",
  collateral_id: "The ad whose tracked link was clicked.",
  refunded:
    "What refunds and disputes took back from it (less what won disputes gave back), in major units of its currency; empty when nothing.",
};

const CLICK_COLUMN_TEXT: Record<Column<typeof CLICK_EXPORT_COLUMNS>, string> = {
  id: "The click's id (the `bclickid` its landing page received).",
  occurred_at: "When it happened (ISO 8601, UTC).",
  direction: "`sent` for a click on your link to a partner, `received` for a partner's link to you.",
  partner_id: "The other company's id.",
  partner_name: "The other company's name.",
  collateral_id: "The ad whose tracked link was clicked.",
  counted: "`true` or `false`: bots, repeats and bursts are stored but not counted.",
};

export const EXPORTS = [
  {
    path: "/api/exports/conversions.csv",
    title: "Conversions",
    columns: CONVERSION_EXPORT_COLUMNS.map((name) => [name, CONVERSION_COLUMN_TEXT[name]] as const),
  },
  {
    path: "/api/exports/clicks.csv",
    title: "Clicks",
    columns: CLICK_EXPORT_COLUMNS.map((name) => [name, CLICK_COLUMN_TEXT[name]] as const),
  },
] as const;

export const EXPORT_RULES = [
  "`from` and `to` are required dates written `YYYY-MM-DD`: UTC days, both included.",
  `An export covers at most ${EXPORT_MAX_DAYS} days; \`from\` after \`to\`, a missing or malformed date is a 400 with a \`message\`.`,
  "One row per event of your company in either direction, after a header row, as a `text/csv` attachment.",
  "Fields are quoted as RFC 4180 says. A field starting with `=`, `+`, `-` or `@` is prefixed with `'`, so a spreadsheet never runs it as a formula.",
] as const;
