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
};

/** Fit points: complements are what partnerships are made of; unknown sits between because it may be either. */
const FIT_POINTS: Record<CategoryFit, number> = { complement: 4, unknown: 2, unrelated: 1, same: 0 };
const NATIVE_INTEGRATION_POINTS = 2;
const CLICK_POINTS_MAX = 1.5;
const LEAD_POINTS_MAX = 1.5;
const RECIPROCITY_POINTS = 1;
/** Competitors can share traffic and even integrate, but they are not partners. */
const COMPETITOR_MAX = 3;

/**
 * SPEC §9 'Partnership strength scored out of 10': an integer 0–10 from three kinds of evidence.
 *
 * - Category fit, up to 4: complement 4, unknown 2, unrelated 1, same 0.
 * - Native integration, 2: a shipped integration is the clearest sign two products go together.
 * - Engagement, up to 4, on log scales so the first clicks and leads count most and big partners
 *   cannot run away with it: clicks both ways 0.5 × log10(1 + clicks), capped at 1.5 (1,000 clicks);
 *   leads both ways 0.75 × log10(1 + leads), capped at 1.5 (100 leads, as a lead is worth more than
 *   a click); plus 1 for reciprocity when traffic (clicks or leads) flows in both directions.
 *
 * The sum is rounded; competitor ('same') pairs are capped at 3. Every term is non-decreasing in its
 * input, and the fit order same ≤ unrelated ≤ unknown ≤ complement holds through the cap, so the
 * score is monotonic in each input. Negative or non-numeric counts count as zero.
 */
export function partnershipStrength(signals: PartnershipSignals): number {
  const clicksSent = countOf(signals.clicksSent);
  const clicksReceived = countOf(signals.clicksReceived);
  const leadsSent = countOf(signals.leadsSent);
  const leadsReceived = countOf(signals.leadsReceived);

  const clickPoints = Math.min(CLICK_POINTS_MAX, 0.5 * Math.log10(1 + clicksSent + clicksReceived));
  const leadPoints = Math.min(LEAD_POINTS_MAX, 0.75 * Math.log10(1 + leadsSent + leadsReceived));
  const reciprocal = clicksSent + leadsSent > 0 && clicksReceived + leadsReceived > 0;
  const engagement = clickPoints + leadPoints + (reciprocal ? RECIPROCITY_POINTS : 0);

  const raw =
    FIT_POINTS[signals.categoryFit] +
    (signals.nativeIntegration ? NATIVE_INTEGRATION_POINTS : 0) +
    engagement;
  const score = Math.min(10, Math.max(0, Math.round(raw)));
  return signals.categoryFit === "same" ? Math.min(COMPETITOR_MAX, score) : score;
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
