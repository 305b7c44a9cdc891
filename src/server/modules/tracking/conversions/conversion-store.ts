import { sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../../db/client";
import { conversions } from "../../../db/schema";

/** A conversion as one row: the keys are the conversions table's column names. */
export type StoredConversion = {
  id: string;
  click_id: string;
  type: string;
  value: number | null;
  metadata: Record<string, unknown> | null;
  source_org_id: string;
  target_org_id: string;
  created_at: string;
};

/**
 * Stores conversions in one statement, with the day's lead counts per partner pair for those that
 * were new. The (click id, type) unique index alone decides what is new: a repeat, in the batch
 * or already stored (another instance's pixel, a server call that came first), is skipped and not
 * counted.
 */
export async function storeConversions(db: DbOrTx, rows: readonly StoredConversion[]): Promise<number> {
  if (rows.length === 0) return 0;
  const json = JSON.stringify(rows);
  const result = await db.execute<{ stored: number }>(sql`
    with inserted as (
      insert into ${conversions} (id, click_id, type, value, metadata, source_org_id, target_org_id, created_at)
      select id, click_id, type, value, metadata, source_org_id, target_org_id, created_at
      from json_populate_recordset(null::${conversions}, ${json}::json)
      -- Concurrent batches of the same lead wait for each other in one order: never a deadlock.
      order by click_id, type
      on conflict (click_id, type) do nothing
      returning source_org_id, target_org_id, created_at
    ), counted as (
      insert into pair_daily_stats (day, source_org_id, target_org_id, leads)
      select (created_at at time zone 'UTC')::date, source_org_id, target_org_id, count(*)::int
      from inserted
      group by 1, 2, 3
      order by 1, 2, 3
      on conflict (day, source_org_id, target_org_id)
      do update set leads = pair_daily_stats.leads + excluded.leads
    )
    select count(*)::int as stored from inserted`);
  return Number(rowsOf<{ stored: number }>(result)[0]?.stored ?? 0);
}
