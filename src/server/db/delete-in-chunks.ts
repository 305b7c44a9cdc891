import { type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "./client";

const SWEEP_CHUNK = 5_000;

/**
 * Deletes the rows of `table` whose keys (`key`, its id by default) `select` finds, a chunk per
 * statement: a busy day's rows never make one statement that outlasts the statement timeout.
 */
export async function deleteInChunks(
  db: DbOrTx,
  select: SQL,
  table: SQL,
  key: SQL = sql`id`,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const result = await db.execute(
      sql`delete from ${table} where ${key} in (${select} limit ${SWEEP_CHUNK})`,
    );
    const count =
      (result as { affectedRows?: number; rowCount?: number }).affectedRows ??
      (result as { rowCount?: number }).rowCount ??
      0;
    deleted += count;
    if (count < SWEEP_CHUNK) return deleted;
  }
}
