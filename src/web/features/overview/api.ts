import { UNCOUNTED_DAYS_DEFAULT } from "@shared/click-reasons";
import type { Relationship } from "@shared/relationships";
import type {
  Activity,
  DailyFigures,
  DailyRevenue,
  Revenue,
  SentReceived,
  UncountedClicks,
} from "@shared/tracking";
import { useQuery } from "@tanstack/react-query";
import { OVERVIEW_LEDGER_DAYS, partnersPath } from "@/features/overview/partners/api";
import { liveFigures } from "@/lib/live-figures";

export const CLICK_TOTALS_PATH = "/api/metrics/clicks";
export const LEAD_TOTALS_PATH = "/api/metrics/leads";
export const DAILY_FIGURES_PATH = "/api/metrics/daily";
export const ACTIVITY_PATH = "/api/activity";
export const REVENUE_PATH = "/api/metrics/revenue";
export const DAILY_REVENUE_PATH = "/api/metrics/revenue/daily";
/** The window the clicks cards explain on demand ("Why?"). */
export const UNCOUNTED_DAYS = UNCOUNTED_DAYS_DEFAULT;
export const UNCOUNTED_CLICKS_PATH = `/api/metrics/clicks/uncounted?days=${UNCOUNTED_DAYS}`;
/** The same key as the Buddies page, so both share one cache entry and one invalidation. */
const RELATIONSHIPS_PATH = "/api/relationships";

export function useClickTotals() {
  return useQuery<SentReceived>({ queryKey: [CLICK_TOTALS_PATH], ...liveFigures });
}

/**
 * Why clicks did not count (CONTRACT §5), fetched only once someone asks; not polled, as it is
 * read on demand (asked again on focus, as every query).
 */
export function useUncountedClicks(enabled: boolean) {
  return useQuery<UncountedClicks>({ queryKey: [UNCOUNTED_CLICKS_PATH], enabled });
}

export function useLeadTotals() {
  return useQuery<SentReceived>({ queryKey: [LEAD_TOTALS_PATH], ...liveFigures });
}

/** 30 days, oldest first, zeros included (the server fills the gaps). */
export function useDailyFigures() {
  return useQuery<DailyFigures>({ queryKey: [DAILY_FIGURES_PATH], ...liveFigures });
}

/** Per currency, sorted; with a partner, that pair's revenue both ways (CONTRACT §8). */
export function useRevenue(partnerId?: string) {
  const path =
    partnerId === undefined ? REVENUE_PATH : `${REVENUE_PATH}?partnerId=${encodeURIComponent(partnerId)}`;
  return useQuery<Revenue>({ queryKey: [path], ...liveFigures });
}

/** Revenue per day and currency over the same 30 days: only the days and currencies with some. */
export function useDailyRevenue() {
  return useQuery<DailyRevenue>({ queryKey: [DAILY_REVENUE_PATH], ...liveFigures });
}

/** Newest first. */
export function useActivity() {
  return useQuery<Activity>({ queryKey: [ACTIVITY_PATH], ...liveFigures });
}

export function useRelationshipList() {
  return useQuery<Relationship[]>({ queryKey: [RELATIONSHIPS_PATH] });
}

/** The answers of what the overview's first view shows: the key figures and the revenue card. */
export const FIRST_VIEW_API_PATHS = [RELATIONSHIPS_PATH, CLICK_TOTALS_PATH, LEAD_TOTALS_PATH, REVENUE_PATH];

/**
 * The overview's GETs, to start before it renders; the shell's route starts the organization's.
 * In the order the page shows them: the key figures first, what is below the first view after.
 */
export const OVERVIEW_API_PATHS = [
  ...FIRST_VIEW_API_PATHS,
  DAILY_FIGURES_PATH,
  DAILY_REVENUE_PATH,
  partnersPath(OVERVIEW_LEDGER_DAYS),
  ACTIVITY_PATH,
];
