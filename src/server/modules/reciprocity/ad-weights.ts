import { windowStart } from "@shared/days";
import { AD_WEIGHT_DAYS, adWeight } from "@shared/reciprocity";
import { sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../db/client";
import { revenueByPartner, trafficByPartner, windowParts } from "./period-window";

type WeightRow = {
  partner: string;
  sent: string;
  received: string;
  proof_sent: string;
  proof_received: string;
};

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
  const window = windowParts(windowStart(AD_WEIGHT_DAYS, now));
  const result = await db.execute(sql`
    with traffic as (${trafficByPartner(organizationId, window)}
    ), sales as (
      select partner, sum(sales_sent) as sales_sent, sum(sales_received) as sales_received
      from (${revenueByPartner(organizationId, window)}) money
      group by partner
    )
    select coalesce(t.partner, s.partner) as partner, coalesce(t.clicks_sent, 0)::text as sent,
      coalesce(t.clicks_received, 0)::text as received,
      (coalesce(t.proven_sent, 0) + coalesce(s.sales_sent, 0))::text as proof_sent,
      (coalesce(t.proven_received, 0) + coalesce(s.sales_received, 0))::text as proof_received
    from traffic t
    full join sales s on s.partner = t.partner`);
  return new Map(
    rowsOf<WeightRow>(result).map((row) => [
      row.partner,
      adWeight(
        { sent: Number(row.sent), received: Number(row.received) },
        { sent: Number(row.proof_sent), received: Number(row.proof_received) },
      ),
    ]),
  );
}
