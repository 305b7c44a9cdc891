import { DAY_MS, isoDay, windowStart } from "@shared/days";
import type { Activity, DailyFigures } from "@shared/tracking";
import { and, eq, gte, or, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../../db/client";
import { clickEvents, conversions, organizations, pairDailyStats, relationships } from "../../../db/schema";
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
 * The latest verified clicks and leads in both directions and the newest Buddies, merged by
 * time, with the other organization's name: one statement (PGlite pays per statement), whose
 * five parts each read a handful of rows through an index, never the whole history.
 *
 * Nothing of a pair either of which now blocks the other is listed (CONTRACT §4, §5): its clicks
 * and leads from before the block, and the Buddy it was, are left out of both sides' lists, in each
 * part before its limit, so the list still holds its newest `limit` items of everyone else.
 */
export async function recentActivity(db: DbOrTx, organizationId: string, limit = 10): Promise<Activity> {
  const result = await db.execute(sql`
    with blocked as (${blockedOrganizationsSql(organizationId)})
    select items.kind, (extract(epoch from items.at) * 1000)::float8 as at_ms, items.other,
      items.detail, ${organizations.name} as name
    from (
      (select 'click_sent' as kind, ${clickEvents.occurredAt} as at, ${clickEvents.targetOrgId} as other,
          null::text as detail
        from ${clickEvents} where ${clickEvents.sourceOrgId} = ${organizationId} and ${clickEvents.verified}
          and ${clickEvents.targetOrgId} not in (select organization_id from blocked)
        order by ${clickEvents.occurredAt} desc limit ${limit})
      union all
      (select 'click_received', ${clickEvents.occurredAt}, ${clickEvents.sourceOrgId}, null
        from ${clickEvents} where ${clickEvents.targetOrgId} = ${organizationId} and ${clickEvents.verified}
          and ${clickEvents.sourceOrgId} not in (select organization_id from blocked)
        order by ${clickEvents.occurredAt} desc limit ${limit})
      union all
      (select 'lead_sent', ${conversions.createdAt}, ${conversions.targetOrgId}, ${conversions.type}::text
        from ${conversions} where ${conversions.sourceOrgId} = ${organizationId} and ${conversions.isLead}
          and ${conversions.targetOrgId} not in (select organization_id from blocked)
        order by ${conversions.createdAt} desc limit ${limit})
      union all
      (select 'lead_received', ${conversions.createdAt}, ${conversions.sourceOrgId}, ${conversions.type}::text
        from ${conversions} where ${conversions.targetOrgId} = ${organizationId} and ${conversions.isLead}
          and ${conversions.sourceOrgId} not in (select organization_id from blocked)
        order by ${conversions.createdAt} desc limit ${limit})
      union all
      (select 'new_buddy', ${relationships.createdAt}, ${relationships.targetOrgId}, null
        from ${relationships}
        where ${relationships.sourceOrgId} = ${organizationId} and ${relationships.type} = 'complement'
          and ${relationships.status} = 'active'
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
    name: string | null;
  }>(result).map((row) => ({
    kind: row.kind,
    at: new Date(Number(row.at_ms)).toISOString(),
    organization: { id: row.other, name: row.name ?? "Unknown" },
    detail: row.detail,
  }));
}
