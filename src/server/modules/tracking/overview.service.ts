import type { Activity, DailyMetrics } from "@shared/tracking";
import { and, desc, eq, gte, inArray, or } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { clickEvents, conversions, organizations, pairDailyStats, relationships } from "../../db/schema";

const DAY_MS = 86_400_000;

/** Clicks and leads sent and received per day for the last `days` days (zeros included). */
export async function dailyMetrics(
  db: DbOrTx,
  organizationId: string,
  days = 30,
  now = new Date(),
): Promise<DailyMetrics> {
  const first = new Date(now.getTime() - (days - 1) * DAY_MS).toISOString().slice(0, 10);
  const rows = await db
    .select()
    .from(pairDailyStats)
    .where(
      and(
        gte(pairDailyStats.day, first),
        or(eq(pairDailyStats.sourceOrgId, organizationId), eq(pairDailyStats.targetOrgId, organizationId)),
      ),
    );
  const series = new Map<string, DailyMetrics[number]>();
  for (let i = 0; i < days; i++) {
    const day = new Date(now.getTime() - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10);
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
 * time. Each part reads a handful of rows through an index, never the whole history.
 */
export async function recentActivity(db: DbOrTx, organizationId: string, limit = 10): Promise<Activity> {
  const clicksOn = (side: "sourceOrgId" | "targetOrgId") =>
    db
      .select({
        at: clickEvents.occurredAt,
        source: clickEvents.sourceOrgId,
        target: clickEvents.targetOrgId,
      })
      .from(clickEvents)
      .where(and(eq(clickEvents[side], organizationId), eq(clickEvents.verified, true)))
      .orderBy(desc(clickEvents.occurredAt))
      .limit(limit);
  const leadsOn = (side: "sourceOrgId" | "targetOrgId") =>
    db
      .select({
        at: conversions.createdAt,
        source: conversions.sourceOrgId,
        target: conversions.targetOrgId,
        type: conversions.type,
      })
      .from(conversions)
      .where(eq(conversions[side], organizationId))
      .orderBy(desc(conversions.createdAt))
      .limit(limit);
  const [sentClicks, receivedClicks, sentLeads, receivedLeads, buddies] = await Promise.all([
    clicksOn("sourceOrgId"),
    clicksOn("targetOrgId"),
    leadsOn("sourceOrgId"),
    leadsOn("targetOrgId"),
    db
      .select({ at: relationships.createdAt, target: relationships.targetOrgId })
      .from(relationships)
      .where(
        and(
          eq(relationships.sourceOrgId, organizationId),
          eq(relationships.type, "complement"),
          eq(relationships.status, "active"),
        ),
      )
      .orderBy(desc(relationships.createdAt))
      .limit(limit),
  ]);
  const items = [
    ...sentClicks.map((c) => ({ kind: "click_sent" as const, at: c.at, other: c.target, detail: null })),
    ...receivedClicks.map((c) => ({
      kind: "click_received" as const,
      at: c.at,
      other: c.source,
      detail: null,
    })),
    ...sentLeads.map((c) => ({ kind: "lead_sent" as const, at: c.at, other: c.target, detail: c.type })),
    ...receivedLeads.map((c) => ({
      kind: "lead_received" as const,
      at: c.at,
      other: c.source,
      detail: c.type,
    })),
    ...buddies.map((r) => ({ kind: "new_buddy" as const, at: r.at, other: r.target, detail: null })),
  ]
    .sort((x, y) => y.at.getTime() - x.at.getTime())
    .slice(0, limit);
  const ids = [...new Set(items.map((item) => item.other))];
  const names = ids.length
    ? await db
        .select({ id: organizations.id, name: organizations.name })
        .from(organizations)
        .where(inArray(organizations.id, ids))
    : [];
  const nameOf = new Map(names.map((n) => [n.id, n.name]));
  return items.map((item) => ({
    kind: item.kind,
    at: item.at.toISOString(),
    organization: { id: item.other, name: nameOf.get(item.other) ?? "Unknown" },
    detail: item.detail,
  }));
}
