import { AD_WEIGHT_DAYS, adWeight } from "@shared/reciprocity";
import type { DbOrTx } from "../../db/client";
import { trafficWithPartners } from "./pair-traffic";

/**
 * CONTRACT §10: each partner's ad weight for the caller over the last AD_WEIGHT_DAYS days, from
 * the counted clicks both ways and the proof (leads recorded by key or Stripe, and sales), as the
 * partners' ledger reads them from the per-pair roll-ups. A partner with none of either weighs 1.
 */
export async function partnerWeights(
  db: DbOrTx,
  organizationId: string,
  now = new Date(),
): Promise<Map<string, number>> {
  const traffic = await trafficWithPartners(db, organizationId, AD_WEIGHT_DAYS, { now });
  return new Map(
    [...traffic].map(([partner, pair]) => [
      partner,
      adWeight(
        { sent: pair.clicksSent, received: pair.clicksReceived },
        { sent: pair.provenSent + pair.salesSent, received: pair.provenReceived + pair.salesReceived },
      ),
    ]),
  );
}
