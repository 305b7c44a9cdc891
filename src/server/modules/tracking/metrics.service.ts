import type { Metrics } from "@shared/tracking";
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { pairDailyStats } from "../../db/schema";

/**
 * CONTRACT §5: sent = verified clicks (or leads) on links the organization shared; received =
 * those on its partners' links to it. Read from the daily roll-up, never from the events.
 */
export async function readMetrics(
  db: DbOrTx,
  organizationId: string,
  column: "clicks" | "leads",
): Promise<Metrics> {
  const total = sql<string>`coalesce(sum(${pairDailyStats[column]}), 0)`;
  const [[sent], [received]] = await Promise.all([
    db.select({ total }).from(pairDailyStats).where(eq(pairDailyStats.sourceOrgId, organizationId)),
    db.select({ total }).from(pairDailyStats).where(eq(pairDailyStats.targetOrgId, organizationId)),
  ]);
  return { sent: Number(sent?.total ?? 0), received: Number(received?.total ?? 0) };
}
