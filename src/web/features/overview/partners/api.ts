import { LEDGER_DAYS_DEFAULT } from "@shared/reciprocity";
import type { PartnersLedger } from "@shared/reciprocity-schemas";
import { useQuery } from "@tanstack/react-query";
import { liveFigures } from "@/lib/live-figures";

export const PARTNERS_PATH = "/api/metrics/partners";
/** No SPEC §8 text for this load; worded like the others. */
export const PARTNERS_LOAD_ERROR = "Failed to fetch partners";
/** The overview's window: the one the Ads API weighs partners over, so its weights are today's. */
export const OVERVIEW_LEDGER_DAYS = LEDGER_DAYS_DEFAULT;
/** A Buddy's page compares the weight's window with a longer one. */
export const BUDDY_LEDGER_DAYS = [LEDGER_DAYS_DEFAULT, 90] as const;

/** Always with `days`, so the overview and a Buddy's page share the 30-day answer. */
export function partnersPath(days: number): string {
  return `${PARTNERS_PATH}?days=${days}`;
}

/** CONTRACT §10: every partner's clicks, leads and revenue both ways over `days`, most traffic first. */
export function usePartnersLedger(days: number) {
  return useQuery<PartnersLedger>({ queryKey: [partnersPath(days)], ...liveFigures });
}
