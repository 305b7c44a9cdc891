import { sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../db/client";
import { anyCause } from "../db/error-causes";
import { nextPeriod, partitionName, partitionPeriod, periodStart } from "./partition-periods";
import { PARTITIONS_AHEAD, type PartitionedTable } from "./partitioned-tables";

export type Partition = {
  name: string;
  /** The period it holds, when it is one of ours (named as partition-periods.ts spells them). */
  period: { from: Date; to: Date } | null;
  /** A concurrent detach that was cut off: it must be finalized before the table can be dropped. */
  detachPending: boolean;
};

export async function listPartitions(db: DbOrTx, table: PartitionedTable): Promise<Partition[]> {
  const result = await db.execute(sql`
    select c.relname as name, i.inhdetachpending as detach_pending
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = ${table.table}::regclass
    order by c.relname`);
  return rowsOf<{ name: string; detach_pending: boolean }>(result).map((row) => ({
    name: row.name,
    period: partitionPeriod(table.table, row.name, table.period),
    detachPending: row.detach_pending,
  }));
}

/** The periods that must have a partition at `now`: back to the retention's edge, and ahead. */
export function wantedPeriods(table: PartitionedTable, now: Date): Date[] {
  const first = periodStart(new Date(now.getTime() - table.retentionMs), table.period);
  const last = nextPeriod(periodStart(now, table.period), table.period, PARTITIONS_AHEAD[table.period]);
  const periods: Date[] = [];
  for (let start = first; start <= last; start = nextPeriod(start, table.period)) periods.push(start);
  return periods;
}

/**
 * What creating a partition answers when it exists by the time the statement runs: another
 * instance starting at the same moment made it (duplicate_table, or the unique index of type
 * names), or a partition of another name holds its period (invalid_object_definition).
 */
const ALREADY_COVERED = new Set(["42P07", "23505", "42P17"]);

/**
 * Creates the partitions of `table` that `now` needs and that do not exist yet, and answers their
 * names. Safe to run on several instances at once; a period already held by a partition of another
 * name (one an operator attached, say) is left to it.
 */
export async function createPartitions(db: DbOrTx, table: PartitionedTable, now: Date): Promise<string[]> {
  const existing = new Set((await listPartitions(db, table)).map((partition) => partition.name));
  const created: string[] = [];
  for (const start of wantedPeriods(table, now)) {
    const name = partitionName(table.table, start, table.period);
    if (existing.has(name)) continue;
    try {
      created.push(await createPartition(db, table, start));
    } catch (error) {
      if (!anyCause(error, (cause) => typeof cause.code === "string" && ALREADY_COVERED.has(cause.code)))
        throw error;
    }
  }
  return created;
}

/** Makes the partition of `table` for the period from `start`, and answers its name. */
export async function createPartition(db: DbOrTx, table: PartitionedTable, start: Date): Promise<string> {
  const name = partitionName(table.table, start, table.period);
  // Bounds are literals in DDL, not parameters: ISO times made here, never input.
  const from = sql.raw(`'${start.toISOString()}'`);
  const to = sql.raw(`'${nextPeriod(start, table.period).toISOString()}'`);
  await db.execute(sql`
    create table if not exists ${sql.identifier(name)} partition of ${sql.identifier(table.table)}
    for values from (${from}) to (${to})`);
  return name;
}

/**
 * The partitions of `table` whose whole period is older than its retention at `now`, and that
 * hold no row still needed: those to drop.
 */
export async function expiredPartitions(
  db: DbOrTx,
  table: PartitionedTable,
  now: Date,
): Promise<Partition[]> {
  const horizon = now.getTime() - table.retentionMs;
  const expired: Partition[] = [];
  for (const partition of await listPartitions(db, table)) {
    if (!partition.period || partition.period.to.getTime() > horizon) continue;
    if (table.stillNeeded && !partition.detachPending) {
      const needed = await db.execute(
        sql`select 1 from ${sql.identifier(partition.name)} where ${table.stillNeeded(now)} limit 1`,
      );
      if (rowsOf(needed).length > 0) continue;
    }
    expired.push(partition);
  }
  return expired;
}

/**
 * Detaches the partition without blocking the table's writers (CONCURRENTLY takes no lock that
 * conflicts with an insert), then drops it: it is no longer part of the table, so dropping it
 * takes no lock on the table either. A detach cut off halfway is finalized on the next pass.
 */
export async function dropPartition(
  db: DbOrTx,
  table: PartitionedTable,
  partition: Partition,
): Promise<void> {
  const parent = sql.identifier(table.table);
  const child = sql.identifier(partition.name);
  if (partition.detachPending)
    await db.execute(sql`alter table ${parent} detach partition ${child} finalize`);
  else await db.execute(sql`alter table ${parent} detach partition ${child} concurrently`);
  await db.execute(sql`drop table ${child}`);
}
