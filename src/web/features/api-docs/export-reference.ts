import type { ClickReason } from "@shared/click-reasons";
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
  counted: "`true` or `false`: every click is stored, only some count (see `reason`).",
  reason:
    "Why it counted or not: `counted`, `bot`, `repeat`, `burst`, `source_cap`, `own_click`, `blocked` or `not_live` (see Clicks that count).",
};

/**
 * CONTRACT §5: why a stored click counts or not, the `reason` column's values in the order the
 * rules are applied (the first that refuses a click names it).
 */
export const CLICK_REASON_TEXT: Record<ClickReason, string> = {
  bot: "A bot's user agent, a HEAD request or a mail security gateway's referrer.",
  burst:
    "The same visitor (address and user agent) opened another link of the same sender within a second, as mail scanners do.",
  repeat: "The same visitor on the same link within the hour.",
  own_click:
    "From a network source (IPv4 /24, IPv6 /64) a member of the sending company signed in from in the last 30 days.",
  source_cap:
    "Past the 3 clicks counted per network source (IPv4 /24, IPv6 /64) per sender → advertiser pair per UTC day, whatever the user agent.",
  blocked: "Either side blocks the other now: the reader lands without a click id.",
  not_live: "The ad is a draft, or its author's domain is not proven: the reader lands without a click id.",
  counted: "None of the above: the click counts, in the metrics, the ledger and ad weights.",
};

export const CLICK_REASON_RULES = [
  "Every click of a valid tracked link is stored and exported; only `counted` ones count.",
  "A click from a loopback address (a trial on one machine) is judged by the visitor rules alone: no daily limit per network source, no own click.",
  "Clicks that are not a person's (`bot`, `burst`, `blocked`, `not_live`) carry no click id a lead could be recorded with.",
] as const;

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
