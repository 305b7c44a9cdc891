import { z } from "zod";
import { DAY_MS, isoDay } from "./days";

/** CONTRACT §9: an export covers at most this many days, both ends included. */
export const EXPORT_MAX_DAYS = 366;

/**
 * The years an export's dates may name. PostgreSQL has no year 0 and ends at 294276, JavaScript's
 * dates write years past 9999 with six digits: a bound well inside both, and around every event
 * Buddy can have stored.
 */
export const EXPORT_YEARS = { first: 2000, last: 2100 } as const;

export const EXPORT_MESSAGES = {
  date: (field: "from" | "to") => `${field} is required, as a date: YYYY-MM-DD`,
  year: (field: "from" | "to") =>
    `${field} must be a date in the years ${EXPORT_YEARS.first} to ${EXPORT_YEARS.last}`,
  order: "from must not be after to",
  span: `An export covers at most ${EXPORT_MAX_DAYS} days`,
} as const;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar date written YYYY-MM-DD ("2026-02-30" is refused, not rolled over). */
function isIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && isoDay(date.getTime()) === value;
}

/** Of a date isIsoDate accepted: its four-digit year within EXPORT_YEARS. */
function inExportYears(value: string): boolean {
  const year = Number(value.slice(0, 4));
  return year >= EXPORT_YEARS.first && year <= EXPORT_YEARS.last;
}

const dateField = (field: "from" | "to") =>
  z
    .string({ error: EXPORT_MESSAGES.date(field) })
    .refine(isIsoDate, { error: EXPORT_MESSAGES.date(field), abort: true })
    .refine(inExportYears, { error: EXPORT_MESSAGES.year(field), abort: true })
    .describe(
      `${field === "from" ? "First" : "Last"} day, UTC, included (YYYY-MM-DD), in the years ` +
        `${EXPORT_YEARS.first} to ${EXPORT_YEARS.last}.`,
    );

export const exportQuerySchema = z
  .object({ from: dateField("from"), to: dateField("to") })
  .superRefine(({ from, to }, ctx) => {
    if (!isIsoDate(from) || !isIsoDate(to) || !inExportYears(from) || !inExportYears(to)) return;
    const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
    if (days < 1) ctx.addIssue({ code: "custom", message: EXPORT_MESSAGES.order, path: ["from"] });
    else if (days > EXPORT_MAX_DAYS)
      ctx.addIssue({ code: "custom", message: EXPORT_MESSAGES.span, path: ["to"] });
  });
export type ExportQuery = z.infer<typeof exportQuerySchema>;

/** The header rows, exactly as CONTRACT §9 names them. */
export const CONVERSION_EXPORT_COLUMNS = [
  "id",
  "occurred_at",
  "direction",
  "type",
  "partner_id",
  "partner_name",
  "click_id",
  "customer_id",
  "value",
  "currency",
  "event_id",
  "collateral_id",
  "refunded",
] as const;

export const CLICK_EXPORT_COLUMNS = [
  "id",
  "occurred_at",
  "direction",
  "partner_id",
  "partner_name",
  "collateral_id",
  "counted",
  "reason",
] as const;
