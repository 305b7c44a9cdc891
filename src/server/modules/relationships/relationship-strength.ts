import type { organizations } from "../../db/schema";
import { resolveProviderDomain } from "../catalog/catalog";
import {
  classifyCategoryFit,
  hasNativeIntegration,
  partnershipStrength,
} from "../catalog/partnership-strength";

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
 * integration, and the clicks and leads exchanged both ways once tracking counts them.
 */
export function strengthBetween(
  source: Org,
  target: Org,
  traffic = { clicksSent: 0, clicksReceived: 0, leadsSent: 0, leadsReceived: 0 },
): number {
  // The target plugs into the source's product or its providers, or the other way round.
  const nativeIntegration =
    stackOf(source).some((domain) => hasNativeIntegration(domain, target.domain)) ||
    stackOf(target).some((domain) => hasNativeIntegration(domain, source.domain));
  return partnershipStrength({
    categoryFit: classifyCategoryFit(source.category, target.category),
    nativeIntegration,
    ...traffic,
  });
}
