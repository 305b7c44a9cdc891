import { adWeight } from "@shared/reciprocity";
import type { PartnerLedger } from "@shared/reciprocity-schemas";

/** A partner as GET /api/metrics/partners lists it; the balance and weight follow from the clicks. */
export function makePartner(overrides: Partial<PartnerLedger> & { organizationId: string }): PartnerLedger {
  const clicks = overrides.clicks ?? { sent: 0, received: 0 };
  return {
    name: overrides.organizationId,
    leads: { sent: 0, received: 0 },
    revenue: { sent: [], received: [] },
    balance: clicks.received - clicks.sent,
    adWeight: adWeight(clicks),
    ...overrides,
    clicks,
  };
}
