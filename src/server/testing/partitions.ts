import { sql } from "drizzle-orm";
import { periodStart } from "../data-lifecycle/partition-periods";
import {
  DEFAULT_CLICK_RETENTION_DAYS,
  type PartitionedTable,
  partitionedTables,
} from "../data-lifecycle/partitioned-tables";
import { createPartition } from "../data-lifecycle/partitions";
import { type DbOrTx, rowsOf } from "../db/client";

export function partitionedTable(name: PartitionedTable["table"]): PartitionedTable {
  const table = partitionedTables({ clickRetentionDays: DEFAULT_CLICK_RETENTION_DAYS }).find(
    (candidate) => candidate.table === name,
  );
  if (!table) throw new Error(`${name} is not partitioned`);
  return table;
}

/**
 * Makes the partition of `name` that holds `at`, as an older instance would have made it: for a
 * test's rows dated past the retention's edge, which start-up makes no partition for.
 */
export function partitionAt(db: DbOrTx, name: PartitionedTable["table"], at: Date): Promise<string> {
  const table = partitionedTable(name);
  return createPartition(db, table, periodStart(at, table.period));
}

/** The partition each row of `name` with one of `ids` is stored in, by id. */
export async function partitionsOf(
  db: DbOrTx,
  name: PartitionedTable["table"],
  ids: string[],
): Promise<Record<string, string>> {
  const result = await db.execute(
    sql`select id, tableoid::regclass::text as partition from ${sql.identifier(name)}
      where id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
  );
  return Object.fromEntries(
    rowsOf<{ id: string; partition: string }>(result).map((row) => [row.id, row.partition]),
  );
}
