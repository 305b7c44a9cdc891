import { windowStart } from "@shared/days";
import { AD_WEIGHT_DAYS, adWeight } from "@shared/reciprocity";
import { sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../db/client";
import { trafficByPartner, windowParts } from "./period-window";

/**
 * CONTRACT §10: each partner's ad weight for the caller, from the clicks both ways over the last
 * AD_WEIGHT_DAYS days (the per-pair roll-ups, as the partners' ledger reads them). A partner with
 * no clicks either way weighs 1.
 */
export async function partnerWeights(
  db: DbOrTx,
  organizationId: string,
  now = new Date(),
): Promise<Map<string, number>> {
  const window = windowParts(windowStart(AD_WEIGHT_DAYS, now));
  const result = await db.execute(sql`
    select partner, clicks_sent::text as sent, clicks_received::text as received
    from (${trafficByPartner(organizationId, window)}) traffic`);
  return new Map(
    rowsOf<{ partner: string; sent: string; received: string }>(result).map((row) => [
      row.partner,
      adWeight({ sent: Number(row.sent), received: Number(row.received) }),
    ]),
  );
}
