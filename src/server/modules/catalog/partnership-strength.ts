import { normalizeWebsite } from "@shared/website";
import { findCatalogCategory, listIntegrationPartners } from "./catalog";

export type CategoryFit = "complement" | "same" | "unrelated" | "unknown";

export type PartnershipSignals = {
  categoryFit: CategoryFit;
  nativeIntegration: boolean;
  clicksSent: number;
  clicksReceived: number;
  leadsSent: number;
  leadsReceived: number;
  /** Sales (conversions with a value) both ways; a refunded sale still counts (CONTRACT §8). */
  salesSent?: number;
  salesReceived?: number;
  /** The relationship is a competitor's (the block list): at most COMPETITOR_MAX, whatever the traffic. */
  competitor?: boolean;
};

/** What is guessed before any traffic: how the categories fit, and a shipped integration. */
const FIT_POINTS: Record<CategoryFit, number> = { complement: 3, unknown: 2, unrelated: 1, same: 0 };
const NATIVE_INTEGRATION_POINTS = 1;
/** What is measured, each on a log scale up to its cap: 6 points, more than the guess can give. */
const CLICK_POINTS = { per: 0.75, max: 1.5 };
const LEAD_POINTS = { per: 1, max: 1.5 };
const SALE_POINTS = { per: 1.5, max: 1.5 };
/** Give and take: the clicks of the side that sent fewer, so only traffic both ways earns it. */
const GIVE_AND_TAKE_POINTS = 1.5;
const GIVE_AND_TAKE_HALF = 10;
/**
 * Competitors can share traffic and even integrate, but they are not partners. The cap follows the
 * relationship, not the catalog: a company added as a Buddy in one's own category gets no fit
 * points, but what the pair does together counts in full.
 */
const COMPETITOR_MAX = 3;

const logPoints = (count: number, points: { per: number; max: number }) =>
  Math.min(points.max, points.per * Math.log10(1 + count));

/**
 * SPEC §9 'Partnership strength scored out of 10': an integer 0–10, from what is guessed (up to 4)
 * and what the pair measurably did together (up to 6), so a partnership that trades grows past any
 * guess (docs/decisions.md, "Partnership strength").
 *
 * - Category fit: complement 3, unknown 2, unrelated 1, same 0.
 * - Native integration: 1.
 * - Clicks both ways: 0.75 × log10(1 + clicks sent + clicks received), at most 1.5 (100 clicks).
 * - Leads both ways: log10(1 + leads), at most 1.5 (about 30 leads).
 * - Sales both ways: 1.5 × log10(1 + sales), at most 1.5 (9 sales). Revenue counts as its sales:
 *   amounts in different currencies are never added or compared (CONTRACT §8).
 * - Give and take: 1.5 × m / (m + 10), m the clicks of the side that sent fewer: 0 one way,
 *   0.75 at 10 clicks each way, nearing 1.5.
 *
 * The sum is rounded; a competitor relationship (the block list) is capped at 3. Every term is
 * non-decreasing in its input and the fit order same ≤ unrelated ≤ unknown ≤ complement holds
 * through the cap, so the score never drops when any one input grows. Negative or non-numeric
 * counts count as zero.
 */
export function partnershipStrength(signals: PartnershipSignals): number {
  const clicksSent = countOf(signals.clicksSent);
  const clicksReceived = countOf(signals.clicksReceived);
  const leads = countOf(signals.leadsSent) + countOf(signals.leadsReceived);
  const sales = countOf(signals.salesSent ?? 0) + countOf(signals.salesReceived ?? 0);

  const fewer = Math.min(clicksSent, clicksReceived);
  const giveAndTake = Number.isFinite(fewer)
    ? (GIVE_AND_TAKE_POINTS * fewer) / (fewer + GIVE_AND_TAKE_HALF)
    : GIVE_AND_TAKE_POINTS;
  const measured =
    logPoints(clicksSent + clicksReceived, CLICK_POINTS) +
    logPoints(leads, LEAD_POINTS) +
    logPoints(sales, SALE_POINTS) +
    giveAndTake;

  const raw =
    FIT_POINTS[signals.categoryFit] + (signals.nativeIntegration ? NATIVE_INTEGRATION_POINTS : 0) + measured;
  const score = Math.min(10, Math.max(0, Math.round(raw)));
  return signals.competitor ? Math.min(COMPETITOR_MAX, score) : score;
}

/** How two catalog categories relate, from the complements map; 'unknown' when either is missing. */
export function classifyCategoryFit(a: string | null | undefined, b: string | null | undefined): CategoryFit {
  const first = findCatalogCategory(a);
  const second = findCatalogCategory(b);
  if (!first || !second) return "unknown";
  if (first.slug === second.slug) return "same";
  // The data is symmetric, but checking both sides keeps this right if an edit forgets one.
  return first.complements.includes(second.slug) || second.complements.includes(first.slug)
    ? "complement"
    : "unrelated";
}

/** Whether the catalog records a native integration between two websites (any form, either order). */
export function hasNativeIntegration(websiteA: string, websiteB: string): boolean {
  return listIntegrationPartners(normalizeWebsite(websiteA)).has(normalizeWebsite(websiteB));
}

function countOf(value: number): number {
  return Number.isNaN(value) ? 0 : Math.max(value, 0);
}
