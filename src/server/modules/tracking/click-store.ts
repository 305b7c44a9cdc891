import { getTableColumns, sql } from "drizzle-orm";
import { toSnakeCase } from "drizzle-orm/casing";
import { type DbOrTx, rowsOf } from "../../db/client";
import { clickEvents } from "../../db/schema";

/** A click as one journal line and one row: the keys are click_events' column names. */
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
  verified: boolean;
};

const json = JSON.stringify;

/**
 * A click's journal line: exactly what JSON.stringify makes of it, without its walk over the
 * object's keys (a twentieth of a redirect's CPU). Strings a request brings (short code, method,
 * user agent, referrer, bot reason) are escaped by JSON.stringify; the rest are written as they
 * are, each made by this server in an alphabet JSON needs no escape for: the click id and visitor
 * hash (base64url), the time (ISO 8601), the link's ids (UUIDs, checked by verifyTrackedLink).
 */
export function clickLine(click: StoredClick): string {
  return `{"id":"${click.id}","short_code":${json(click.short_code)},"relationship_id":"${click.relationship_id}","collateral_id":"${click.collateral_id}","source_org_id":"${click.source_org_id}","target_org_id":"${click.target_org_id}","occurred_at":"${click.occurred_at}","method":${json(click.method)},"visitor_hash":"${click.visitor_hash}","user_agent":${json(click.user_agent)},"referrer_host":${json(click.referrer_host)},"bot":${click.bot},"bot_reason":${json(click.bot_reason)},"duplicate":${click.duplicate},"verified":${click.verified}}`;
}

/** The table's column names as the database has them (the schema maps camelCase to snake_case). */
export const CLICK_COLUMNS = Object.values(getTableColumns(clickEvents)).map((column) =>
  toSnakeCase(column.name),
);
const columns = sql.raw(CLICK_COLUMNS.map((name) => `"${name}"`).join(", "));

/**
 * Stores clicks given as JSON lines, in one statement: the events, and the day's verified
 * counts per partner pair for the events that were new. A click already stored (a journal
 * replayed after a crash) is skipped and not counted again, so storing is idempotent.
 */
export async function storeClicks(db: DbOrTx, lines: readonly string[]): Promise<number> {
  if (lines.length === 0) return 0;
  const json = `[${lines.join(",")}]`;
  const result = await db.execute<{ stored: number }>(sql`
    with inserted as (
      insert into ${clickEvents} (${columns})
      select ${columns} from json_populate_recordset(null::${clickEvents}, ${json}::json)
      on conflict (id) do nothing
      returning source_org_id, target_org_id, occurred_at, verified
    ), counted as (
      insert into pair_daily_stats (day, source_org_id, target_org_id, clicks)
      select (occurred_at at time zone 'UTC')::date, source_org_id, target_org_id, count(*)::int
      from inserted where verified
      group by 1, 2, 3
      on conflict (day, source_org_id, target_org_id)
      do update set clicks = pair_daily_stats.clicks + excluded.clicks
    )
    select count(*)::int as stored from inserted`);
  return Number(rowsOf<{ stored: number }>(result)[0]?.stored ?? 0);
}
