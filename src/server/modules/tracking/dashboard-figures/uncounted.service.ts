import { UNCOUNTED_CLICK_REASONS, type UncountedClickReason } from "@shared/click-reasons";
import { windowStart } from "@shared/days";
import type { UncountedClicks, UncountedSide } from "@shared/tracking";
import { sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../../db/client";

type ReasonCount = { side: "sent" | "received"; reason: string; clicks: number };

/**
 * CONTRACT §5: the clicks of the last `days` UTC days (today included) that did not count, by
 * reason, on both sides. The events themselves, through the (source_org_id, occurred_at) and
 * (target_org_id, occurred_at) indexes: the roll-ups hold counted clicks only.
 */
export async function readUncountedClicks(
  db: DbOrTx,
  organizationId: string,
  days: number,
  now = new Date(),
): Promise<UncountedClicks> {
  const from = `${windowStart(days, now)}T00:00:00Z`;
  const result = await db.execute<ReasonCount>(sql`
    select 'sent' as side, reason, count(*)::int as clicks from click_events
      where source_org_id = ${organizationId} and occurred_at >= ${from}::timestamptz and not verified
      group by reason
    union all
    select 'received', reason, count(*)::int from click_events
      where target_org_id = ${organizationId} and occurred_at >= ${from}::timestamptz and not verified
      group by reason`);
  const empty = (): UncountedSide => ({
    total: 0,
    reasons: Object.fromEntries(UNCOUNTED_CLICK_REASONS.map((reason) => [reason, 0])) as Record<
      UncountedClickReason,
      number
    >,
  });
  const answer: UncountedClicks = { days, sent: empty(), received: empty() };
  for (const row of rowsOf<ReasonCount>(result)) {
    const side = answer[row.side];
    const reason = row.reason as UncountedClickReason;
    if (!(reason in side.reasons)) continue;
    side.reasons[reason] += Number(row.clicks);
    side.total += Number(row.clicks);
  }
  return answer;
}
