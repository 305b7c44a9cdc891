import { windowStart } from "@shared/days";
import { toMajorUnits } from "@shared/money";
import type { DailyRevenue, Revenue, RevenueTotal } from "@shared/tracking";
import { and, eq, gte, or, type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client";
import { pairDailyRevenue } from "../../../db/schema";

/** The caller's side of the roll-up, optionally with one partner only: each side reads its own index. */
function pairsOf(organizationId: string, partnerId: string | undefined): SQL | undefined {
  const t = pairDailyRevenue;
  if (partnerId === undefined)
    return or(eq(t.sourceOrgId, organizationId), eq(t.targetOrgId, organizationId));
  return or(
    and(eq(t.sourceOrgId, organizationId), eq(t.targetOrgId, partnerId)),
    and(eq(t.sourceOrgId, partnerId), eq(t.targetOrgId, organizationId)),
  );
}

const byCurrency = (a: RevenueTotal, b: RevenueTotal) => a.currency.localeCompare(b.currency);

/**
 * Minor units the organization's links earned (sent) and partners' links earned it (received).
 * Sums of bigint are numeric: text, turned into numbers by the callers (minor units stay exact).
 */
function sentAndReceived(organizationId: string) {
  const t = pairDailyRevenue;
  return {
    sent: sql<string>`coalesce(sum(${t.valueMinor}) filter (where ${t.sourceOrgId} = ${organizationId}), 0)::text`,
    received: sql<string>`coalesce(sum(${t.valueMinor}) filter (where ${t.targetOrgId} = ${organizationId}), 0)::text`,
  };
}

/**
 * The sales (conversions with a value) of each side: a refund's row adds 0 conversions, so a sale
 * refunded in full still counts, as it stays a lead (CONTRACT §8).
 */
function salesSentAndReceived(organizationId: string) {
  const t = pairDailyRevenue;
  return {
    salesSent: sql<string>`coalesce(sum(${t.conversions}) filter (where ${t.sourceOrgId} = ${organizationId}), 0)::text`,
    salesReceived: sql<string>`coalesce(sum(${t.conversions}) filter (where ${t.targetOrgId} = ${organizationId}), 0)::text`,
  };
}

/**
 * CONTRACT §8: revenue sent (earned at partners by the caller's links) and received (earned by the
 * caller through partners' links), one entry per currency, sorted, never converted between
 * currencies, each with its count of sales. A currency is listed on a side with sales or revenue
 * there: one whose sales were all refunded shows its sales at 0. Read from the per-pair daily
 * roll-up, never from the conversions.
 */
export async function readRevenue(
  db: DbOrTx,
  organizationId: string,
  options: { partnerId?: string } = {},
): Promise<Revenue> {
  const t = pairDailyRevenue;
  const rows = await db
    .select({
      currency: t.currency,
      ...sentAndReceived(organizationId),
      ...salesSentAndReceived(organizationId),
    })
    .from(t)
    .where(pairsOf(organizationId, options.partnerId))
    .groupBy(t.currency);
  const sent: RevenueTotal[] = [];
  const received: RevenueTotal[] = [];
  const total = (minor: number, sales: number, currency: string): RevenueTotal => ({
    currency,
    // Never below 0: all time, refunds never take back more than the sales brought.
    value: toMajorUnits(Math.max(minor, 0), currency),
    sales,
  });
  for (const row of rows) {
    const [sentMinor, receivedMinor] = [Number(row.sent), Number(row.received)];
    const [salesSent, salesReceived] = [Number(row.salesSent), Number(row.salesReceived)];
    if (sentMinor > 0 || salesSent > 0) sent.push(total(sentMinor, salesSent, row.currency));
    if (receivedMinor > 0 || salesReceived > 0)
      received.push(total(receivedMinor, salesReceived, row.currency));
  }
  return { sent: sent.sort(byCurrency), received: received.sort(byCurrency) };
}

/** Revenue per day and currency over the last `days` days, for the overview's chart. */
export async function readDailyRevenue(
  db: DbOrTx,
  organizationId: string,
  days = 30,
  now = new Date(),
): Promise<DailyRevenue> {
  const t = pairDailyRevenue;
  const first = windowStart(days, now);
  const rows = await db
    .select({ day: t.day, currency: t.currency, ...sentAndReceived(organizationId) })
    .from(t)
    .where(and(gte(t.day, first), pairsOf(organizationId, undefined)))
    .groupBy(t.day, t.currency)
    .orderBy(t.day, t.currency);
  return rows.map((row) => ({
    day: row.day,
    currency: row.currency,
    sent: toMajorUnits(Number(row.sent), row.currency),
    received: toMajorUnits(Number(row.received), row.currency),
  }));
}
