// Free of zod, so that the dashboard's first screen can name them without loading it.
import { daysMessage } from "./days";

/**
 * CONTRACT §5: why a stored click did or did not count. `counted` is the only one that counts;
 * `bot` (a bot's user agent, a HEAD request, a mail scanner's referrer), `repeat` (the same visitor
 * on the same link within the hour), `burst` (another link of the same sender within a second),
 * `source_cap` (past 3 a day from one network source for the pair), `own_click` (from where a
 * member of the sender signed in), `blocked` (either side blocks the other) and `not_live` (a
 * draft, or an ad of an unproven author) do not.
 */
export const CLICK_REASONS = [
  "counted",
  "bot",
  "repeat",
  "burst",
  "source_cap",
  "own_click",
  "blocked",
  "not_live",
] as const;
export type ClickReason = (typeof CLICK_REASONS)[number];

/** Every reason a stored click did not count (CLICK_REASONS less `counted`). */
export const UNCOUNTED_CLICK_REASONS = CLICK_REASONS.filter(
  (reason): reason is Exclude<ClickReason, "counted"> => reason !== "counted",
);
export type UncountedClickReason = (typeof UNCOUNTED_CLICK_REASONS)[number];

/** The window the uncounted clicks are explained over, in UTC days up to today. */
export const UNCOUNTED_DAYS_MIN = 1;
export const UNCOUNTED_DAYS_MAX = 366;
export const UNCOUNTED_DAYS_DEFAULT = 30;
export const UNCOUNTED_DAYS_MESSAGE = daysMessage(UNCOUNTED_DAYS_MIN, UNCOUNTED_DAYS_MAX);
