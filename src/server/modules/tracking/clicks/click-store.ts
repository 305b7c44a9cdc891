import type { ClickReason } from "@shared/click-reasons";
import { getTableColumns, sql } from "drizzle-orm";
import { toSnakeCase } from "drizzle-orm/casing";
import { type DbOrTx, rowsOf } from "../../../db/client";
import { clickEvents } from "../../../db/schema";

/** A click as one row: the keys are click_events' column names, as json_populate_recordset reads them. */
export type StoredClick = {
  id: string;
  short_code: string | null;
  relationship_id: string;
  collateral_id: string;
  source_org_id: string;
  target_org_id: string;
  occurred_at: string;
  method: string;
  visitor_hash: string;
  user_agent: string | null;
  referrer_host: string | null;
  bot: boolean;
  bot_reason: string | null;
  duplicate: boolean;
  /** reason === "counted"; the roll-up counts verified rows. */
  verified: boolean;
  /** Always written: the column's default only dates clicks stored before reasons were kept. */
  reason: ClickReason;
};

/** The table's column names as the database has them (the schema maps camelCase to snake_case). */
export const CLICK_COLUMNS = Object.values(getTableColumns(clickEvents)).map((column) =>
  toSnakeCase(column.name),
);
const columns = sql.raw(CLICK_COLUMNS.map((name) => `"${name}"`).join(", "));

/**
 * Stores clicks in one statement, so in one transaction: the events, and, by the table's trigger at
 * the statement's end (migration 0019), the day's verified counts per partner pair for the events
 * that were new. A click id already stored is skipped and not counted again, so storing is
 * idempotent.
 */
export async function storeClicks(db: DbOrTx, clicks: readonly StoredClick[]): Promise<number> {
  if (clicks.length === 0) return 0;
  // One parameter whatever the batch's size: a VALUES list would need fifteen per click.
  const json = JSON.stringify(clicks);
  const result = await db.execute<{ stored: number }>(sql`
    with inserted as (
      insert into ${clickEvents} (${columns})
      select ${columns} from json_populate_recordset(null::${clickEvents}, ${json}::json)
      on conflict (id, occurred_at) do nothing
      returning 1
    )
    select count(*)::int as stored from inserted`);
  return Number(rowsOf<{ stored: number }>(result)[0]?.stored ?? 0);
}
