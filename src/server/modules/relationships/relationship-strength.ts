import type { RelationshipType } from "@shared/relationships";
import type { organizations } from "../../db/schema";
import { resolveProviderDomain } from "../catalog/catalog";
import {
  classifyCategoryFit,
  hasNativeIntegration,
  partnershipStrength,
} from "../catalog/partnership-strength";
import { NO_TRAFFIC, type PairTraffic } from "../reciprocity/pair-traffic";

type Org = Pick<
  typeof organizations.$inferSelect,
  "domain" | "category" | "transactionalEmailProvider" | "marketingEmailProvider"
>;

/** The domains a company works with natively: its own and its e-mail providers'. */
function stackOf(org: Org): string[] {
  return [
    org.domain,
    resolveProviderDomain("transactional", org.transactionalEmailProvider),
    resolveProviderDomain("marketing", org.marketingEmailProvider),
  ].filter((domain): domain is string => Boolean(domain));
}

/**
 * Partnership strength (0–10) of source → target from what is known: category fit and native
 * integration, and the clicks, leads and sales exchanged both ways over the last STRENGTH_DAYS;
 * a competitor relationship (the block list) stays at 3 or below.
 */
export function strengthBetween(
  source: Org,
  target: Org,
  traffic: PairTraffic = NO_TRAFFIC,
  type: RelationshipType = "complement",
): number {
  // The target plugs into the source's product or its providers, or the other way round.
  const nativeIntegration =
    stackOf(source).some((domain) => hasNativeIntegration(domain, target.domain)) ||
    stackOf(target).some((domain) => hasNativeIntegration(domain, source.domain));
  return partnershipStrength({
    categoryFit: classifyCategoryFit(source.category, target.category),
    nativeIntegration,
    ...traffic,
    competitor: type === "competitor",
  });
}
