import { DAY_MS, isoDay, windowStart } from "@shared/days";
import { DELETED_ORGANIZATION_NAME } from "@shared/deletion";
import { toMajorUnits } from "@shared/money";
import type { Activity, DailyFigures, MoneyTotal } from "@shared/tracking";
import { and, eq, gte, or, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../../db/client";
import {
  clickEvents,
  conversions,
  organizations,
  pairDailyStats,
  refunds,
  relationships,
} from "../../../db/schema";
import { blockedOrganizationsSql } from "../../relationships/block-list";

/** Clicks and leads sent and received per day for the last `days` days (zeros included). */
export async function dailyFigures(
  db: DbOrTx,
  organizationId: string,
  days = 30,
  now = new Date(),
): Promise<DailyFigures> {
  const first = windowStart(days, now);
  const rows = await db
    .select()
    .from(pairDailyStats)
    .where(
      and(
        gte(pairDailyStats.day, first),
        or(eq(pairDailyStats.sourceOrgId, organizationId), eq(pairDailyStats.targetOrgId, organizationId)),
      ),
    );
  const series = new Map<string, DailyFigures[number]>();
  for (let i = 0; i < days; i++) {
    const day = isoDay(now.getTime() - (days - 1 - i) * DAY_MS);
    series.set(day, { day, clicksSent: 0, clicksReceived: 0, leadsSent: 0, leadsReceived: 0 });
  }
  for (const row of rows) {
    const entry = series.get(row.day);
    if (!entry) continue;
    if (row.sourceOrgId === organizationId) {
      entry.clicksSent += row.clicks;
      entry.leadsSent += row.leads;
    }
    if (row.targetOrgId === organizationId) {
      entry.clicksReceived += row.clicks;
      entry.leadsReceived += row.leads;
    }
  }
  return [...series.values()];
}

/**
 * The feed's reach: a year, within the shortest raw click retention (CLICK_RETENTION_DAYS, at least
 * 366), so the feed reads the same whether or not older raw clicks are still kept (issue 38).
 */
const RECENT_ACTIVITY_DAYS = 365;

/**
 * The latest verified clicks, leads, sales and refunds in both directions and the newest Buddies of
 * the last year, merged by time, with the other organization's name: one statement (PGlite pays per statement),
 * whose parts each read a handful of rows through an index, never the whole history. A conversion
 * with a value is listed as a sale with its amount, one without as a lead (a lead's repeat
 * without a value adds nothing to name); a refund, a dispute or a dispute won on its own day.
 *
 * Nothing of a pair either of which now blocks the other is listed (CONTRACT §4, §5): its clicks
 * and leads from before the block, and the Buddy it was, are left out of both sides' lists, in each
 * part before its limit, so the list still holds its newest `limit` items of everyone else. Every
 * part is one side of the caller's own pairs, so no other organization's amounts are read.
 */
export async function recentActivity(db: DbOrTx, organizationId: string, limit = 10): Promise<Activity> {
  const hasValue = sql`coalesce(${conversions.valueMinor}, 0) > 0`;
  const since = sql`now() - make_interval(days => ${RECENT_ACTIVITY_DAYS})`;
  const result = await db.execute(sql`
    with blocked as (${blockedOrganizationsSql(organizationId)})
    select items.kind, (extract(epoch from items.at) * 1000)::float8 as at_ms, items.other,
      items.detail, items.value_minor::text as value_minor, items.currency, ${organizations.name} as name
    from (
      (select 'click_sent' as kind, ${clickEvents.occurredAt} as at, ${clickEvents.targetOrgId} as other,
          null::text as detail, null::bigint as value_minor, null::text as currency
        from ${clickEvents} where ${clickEvents.sourceOrgId} = ${organizationId} and ${clickEvents.verified}
          and ${clickEvents.occurredAt} > ${since}
          and ${clickEvents.targetOrgId} not in (select organization_id from blocked)
        order by ${clickEvents.occurredAt} desc limit ${limit})
      union all
      (select 'click_received', ${clickEvents.occurredAt}, ${clickEvents.sourceOrgId}, null, null, null
        from ${clickEvents} where ${clickEvents.targetOrgId} = ${organizationId} and ${clickEvents.verified}
          and ${clickEvents.occurredAt} > ${since}
          and ${clickEvents.sourceOrgId} not in (select organization_id from blocked)
        order by ${clickEvents.occurredAt} desc limit ${limit})
      union all
      (select case when ${hasValue} then 'sale_sent' else 'lead_sent' end, ${conversions.createdAt},
          ${conversions.targetOrgId}, ${conversions.type}::text, ${conversions.valueMinor}, ${conversions.currency}
        from ${conversions} where ${conversions.sourceOrgId} = ${organizationId} and ${conversions.createdAt} > ${since}
          and (${conversions.isLead} or ${hasValue})
          and ${conversions.targetOrgId} not in (select organization_id from blocked)
        order by ${conversions.createdAt} desc limit ${limit})
      union all
      (select case when ${hasValue} then 'sale_received' else 'lead_received' end, ${conversions.createdAt},
          ${conversions.sourceOrgId}, ${conversions.type}::text, ${conversions.valueMinor}, ${conversions.currency}
        from ${conversions} where ${conversions.targetOrgId} = ${organizationId} and ${conversions.createdAt} > ${since}
          and (${conversions.isLead} or ${hasValue})
          and ${conversions.sourceOrgId} not in (select organization_id from blocked)
        order by ${conversions.createdAt} desc limit ${limit})
      union all
      (select 'refund_sent', ${refunds.createdAt}, ${refunds.targetOrgId}, ${refunds.kind}::text,
          ${refunds.valueMinor}, ${refunds.currency}
        from ${refunds} where ${refunds.sourceOrgId} = ${organizationId} and ${refunds.createdAt} > ${since}
          and ${refunds.targetOrgId} not in (select organization_id from blocked)
        order by ${refunds.createdAt} desc limit ${limit})
      union all
      (select 'refund_received', ${refunds.createdAt}, ${refunds.sourceOrgId}, ${refunds.kind}::text,
          ${refunds.valueMinor}, ${refunds.currency}
        from ${refunds} where ${refunds.targetOrgId} = ${organizationId} and ${refunds.createdAt} > ${since}
          and ${refunds.sourceOrgId} not in (select organization_id from blocked)
        order by ${refunds.createdAt} desc limit ${limit})
      union all
      (select 'new_buddy', ${relationships.createdAt}, ${relationships.targetOrgId}, null, null, null
        from ${relationships}
        where ${relationships.sourceOrgId} = ${organizationId} and ${relationships.type} = 'complement'
          and ${relationships.status} = 'active' and ${relationships.createdAt} > ${since}
          and ${relationships.targetOrgId} not in (select organization_id from blocked)
        order by ${relationships.createdAt} desc limit ${limit})
    ) items
    left join ${organizations} on ${organizations.id} = items.other
    order by items.at desc
    limit ${limit}`);
  return rowsOf<{
    kind: Activity[number]["kind"];
    at_ms: number;
    other: string;
    detail: string | null;
    /** As text: a bigint is exact there whatever the driver does with int8. */
    value_minor: string | null;
    currency: string | null;
    name: string | null;
  }>(result).map((row) => ({
    kind: row.kind,
    at: new Date(Number(row.at_ms)).toISOString(),
    organization: { id: row.other, name: row.name ?? DELETED_ORGANIZATION_NAME },
    detail: row.detail,
    amount: activityAmount(row.kind, row.value_minor, row.currency),
  }));
}

/** A sale's or refund's amount in major units; a dispute won (given back, negative) as its size. */
function activityAmount(
  kind: Activity[number]["kind"],
  valueMinor: string | null,
  currency: string | null,
): MoneyTotal | null {
  if (!kind.startsWith("sale_") && !kind.startsWith("refund_")) return null;
  if (valueMinor === null || currency === null) return null;
  return { currency, value: toMajorUnits(Math.abs(Number(valueMinor)), currency) };
}
