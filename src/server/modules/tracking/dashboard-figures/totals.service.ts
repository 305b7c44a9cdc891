import type { SentReceived } from "@shared/tracking";
import { eq, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client";
import { pairDailyStats } from "../../../db/schema";

/**
 * CONTRACT §5: sent = verified clicks (or leads) on links the organization shared; received =
 * those on its partners' links to it. Read from the daily roll-up, never from the events.
 */
export async function readTotals(
  db: DbOrTx,
  organizationId: string,
  column: "clicks" | "leads",
): Promise<SentReceived> {
  // One statement for both sides (PGlite pays per statement); each side reads its own index.
  const value = pairDailyStats[column];
  const [row] = await db
    .select({
      sent: sql<string>`coalesce(sum(${value}) filter (where ${pairDailyStats.sourceOrgId} = ${organizationId}), 0)`,
      received: sql<string>`coalesce(sum(${value}) filter (where ${pairDailyStats.targetOrgId} = ${organizationId}), 0)`,
    })
    .from(pairDailyStats)
    .where(
      or(eq(pairDailyStats.sourceOrgId, organizationId), eq(pairDailyStats.targetOrgId, organizationId)),
    );
  return { sent: Number(row?.sent ?? 0), received: Number(row?.received ?? 0) };
}
