import { type SQL, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../db/client";

async function rows<T>(db: DbOrTx, query: SQL) {
  return rowsOf<T>(await db.execute(query));
}

/**
 * The periods as the daily roll-ups sum up, both ways (each day into the periods
 * `buddy_period_starts` names), beside the periods' own rows: they must be equal. Rows all zero
 * are left out of the kept ones (a day taken away again leaves its periods at zero).
 */
export async function periodsAgainstDays(db: DbOrTx) {
  const summed = await rows<Record<string, string>>(
    db,
    sql`
    select organization_id, partner_id, period, starts::text as starts, sum(sent)::text as clicks_sent,
      sum(received)::text as clicks_received, sum(leads_sent)::text as leads_sent,
      sum(leads_received)::text as leads_received, sum(proven_sent)::text as proven_leads_sent,
      sum(proven_received)::text as proven_leads_received
    from (
      select d.source_org_id, d.target_org_id, p.period, p.starts, d.clicks, 0, d.leads, 0, d.proven_leads, 0
      from pair_daily_stats d, lateral buddy_period_starts(d.day) p
      union all
      select d.target_org_id, d.source_org_id, p.period, p.starts, 0, d.clicks, 0, d.leads, 0, d.proven_leads
      from pair_daily_stats d, lateral buddy_period_starts(d.day) p
    ) sides (organization_id, partner_id, period, starts, sent, received, leads_sent, leads_received, proven_sent,
      proven_received)
    group by 1, 2, 3, 4
    having sum(sent) <> 0 or sum(received) <> 0 or sum(leads_sent) <> 0 or sum(leads_received) <> 0
      or sum(proven_sent) <> 0 or sum(proven_received) <> 0
    order by 1, 2, 3, 4`,
  );
  const kept = await rows<Record<string, string>>(
    db,
    sql`
    select organization_id, partner_id, period, starts::text as starts, clicks_sent::text as clicks_sent,
      clicks_received::text as clicks_received, leads_sent::text as leads_sent,
      leads_received::text as leads_received, proven_leads_sent::text as proven_leads_sent,
      proven_leads_received::text as proven_leads_received
    from partner_period_stats
    where clicks_sent <> 0 or clicks_received <> 0 or leads_sent <> 0 or leads_received <> 0
      or proven_leads_sent <> 0 or proven_leads_received <> 0
    order by 1, 2, 3, 4`,
  );
  const summedRevenue = await rows<Record<string, string>>(
    db,
    sql`
    select organization_id, partner_id, period, starts::text as starts, currency, sum(sent)::text as value_sent,
      sum(received)::text as value_received, sum(conversions_sent)::text as conversions_sent,
      sum(conversions_received)::text as conversions_received
    from (
      select d.source_org_id, d.target_org_id, p.period, p.starts, d.currency, d.value_minor, 0, d.conversions, 0
      from pair_daily_revenue d, lateral buddy_period_starts(d.day) p
      union all
      select d.target_org_id, d.source_org_id, p.period, p.starts, d.currency, 0, d.value_minor, 0, d.conversions
      from pair_daily_revenue d, lateral buddy_period_starts(d.day) p
    ) sides (organization_id, partner_id, period, starts, currency, sent, received, conversions_sent,
      conversions_received)
    group by 1, 2, 3, 4, 5
    having sum(sent) <> 0 or sum(received) <> 0 or sum(conversions_sent) <> 0 or sum(conversions_received) <> 0
    order by 1, 2, 3, 4, 5`,
  );
  const keptRevenue = await rows<Record<string, string>>(
    db,
    sql`
    select organization_id, partner_id, period, starts::text as starts, currency, value_sent::text as value_sent,
      value_received::text as value_received, conversions_sent::text as conversions_sent,
      conversions_received::text as conversions_received
    from partner_period_revenue
    where value_sent <> 0 or value_received <> 0 or conversions_sent <> 0 or conversions_received <> 0
    order by 1, 2, 3, 4, 5`,
  );
  return { summed, kept, summedRevenue, keptRevenue };
}
