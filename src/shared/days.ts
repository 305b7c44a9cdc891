/**
 * Buddy counts in UTC days (the roll-ups, the ledger's and the overview's windows, exports, the
 * visitor salts), so a day is always this long: there is no 23- or 25-hour day in UTC.
 */
export const DAY_MS = 86_400_000;

/** The UTC day of a moment, YYYY-MM-DD: the name the roll-ups, windows and exports give a day. */
export const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The first day (UTC, YYYY-MM-DD) of a window of `days` days that ends today. */
export function windowStart(days: number, now = new Date()): string {
  return isoDay(now.getTime() - (days - 1) * DAY_MS);
}

/** The message a window of days out of its bounds is refused with (400). */
export const daysMessage = (min: number, max: number) => `days must be a whole number from ${min} to ${max}`;
