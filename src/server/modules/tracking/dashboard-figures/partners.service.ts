import { toMajorUnits } from "@shared/money";
import { adWeight, type PartnerLedger, type PartnersLedger, windowStart } from "@shared/reciprocity";
import type { MoneyTotal } from "@shared/tracking";
import { sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../../db/client";

type LedgerRow = {
  id: string;
  name: string;
  clicks_sent: string;
  clicks_received: string;
  leads_sent: string;
  leads_received: string;
  revenue: { currency: string; sent: string; received: string }[] | null;
};

/**
 * CONTRACT §10: per partner, what the caller gave it (sent: the caller's clicks and leads to the
 * partner's ads, and the revenue they earned it) and what it gave the caller (received), over the
 * window, with the balance and the ad weight; every Buddy is listed, traffic or not, and nobody
 * on either side of the caller's block list ever is. One statement, from the per-pair daily
 * roll-ups only: each side of each roll-up reads its (organization, day) index for the window.
 */
export async function readPartnersLedger(
  db: DbOrTx,
  organizationId: string,
  days: number,
  now = new Date(),
): Promise<PartnersLedger> {
  const first = windowStart(days, now);
  const result = await db.execute(sql`
    with traffic as (
      select target_org_id as partner, sum(clicks) as clicks_sent, sum(leads) as leads_sent,
        0 as clicks_received, 0 as leads_received
      from pair_daily_stats where source_org_id = ${organizationId} and day >= ${first}::date
      group by target_org_id
      union all
      select source_org_id, 0, 0, sum(clicks), sum(leads)
      from pair_daily_stats where target_org_id = ${organizationId} and day >= ${first}::date
      group by source_org_id
    ), clicks as (
      select partner, sum(clicks_sent) as clicks_sent, sum(clicks_received) as clicks_received,
        sum(leads_sent) as leads_sent, sum(leads_received) as leads_received
      from traffic group by partner
    ), money as (
      select target_org_id as partner, currency, sum(value_minor) as sent, 0 as received
      from pair_daily_revenue where source_org_id = ${organizationId} and day >= ${first}::date
      group by target_org_id, currency
      union all
      select source_org_id, currency, 0, sum(value_minor)
      from pair_daily_revenue where target_org_id = ${organizationId} and day >= ${first}::date
      group by source_org_id, currency
    ), revenue as (
      select partner, json_agg(json_build_object('currency', currency, 'sent', sent::text, 'received', received::text)
        order by currency) as revenue
      from (select partner, currency, sum(sent) as sent, sum(received) as received from money group by partner, currency) m
      group by partner
    ), buddies as (
      select target_org_id as partner from relationships
      where source_org_id = ${organizationId} and type = 'complement' and status = 'active'
    ), blocked as (
      select case when source_org_id = ${organizationId} then target_org_id else source_org_id end as partner
      from relationships
      where type = 'competitor' and status = 'active'
        and (source_org_id = ${organizationId} or target_org_id = ${organizationId})
    ), partners as (
      select partner from clicks union select partner from revenue union select partner from buddies
    )
    select o.id, o.name,
      coalesce(c.clicks_sent, 0)::text as clicks_sent, coalesce(c.clicks_received, 0)::text as clicks_received,
      coalesce(c.leads_sent, 0)::text as leads_sent, coalesce(c.leads_received, 0)::text as leads_received,
      r.revenue
    from partners p
    join organizations o on o.id = p.partner
    left join clicks c on c.partner = p.partner
    left join revenue r on r.partner = p.partner
    where p.partner <> ${organizationId} and p.partner not in (select partner from blocked)`);
  const partners = rowsOf<LedgerRow>(result).map((row): PartnerLedger => {
    const clicks = { sent: Number(row.clicks_sent), received: Number(row.clicks_received) };
    const sent: MoneyTotal[] = [];
    const received: MoneyTotal[] = [];
    for (const money of row.revenue ?? []) {
      if (Number(money.sent) > 0)
        sent.push({ currency: money.currency, value: toMajorUnits(Number(money.sent), money.currency) });
      if (Number(money.received) > 0)
        received.push({
          currency: money.currency,
          value: toMajorUnits(Number(money.received), money.currency),
        });
    }
    return {
      organizationId: row.id,
      name: row.name,
      clicks,
      leads: { sent: Number(row.leads_sent), received: Number(row.leads_received) },
      revenue: { sent, received },
      balance: clicks.received - clicks.sent,
      adWeight: adWeight(clicks),
    };
  });
  partners.sort(
    (a, b) =>
      b.clicks.sent + b.clicks.received - (a.clicks.sent + a.clicks.received) ||
      a.name.localeCompare(b.name) ||
      a.organizationId.localeCompare(b.organizationId),
  );
  return { partners };
}
