import { eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Database, Db } from "../db/client";
import { appState } from "../db/schema";
import { deleteExpiredRows } from "./expired-rows";
import { partitionedTables, type RetentionSettings } from "./partitioned-tables";
import { createPartitions, dropPartition, expiredPartitions } from "./partitions";

/** Of every instance's sweeper, the one holding this advisory lock runs (migrations hold 727_001). */
const SWEEP_LOCK_KEY = 727_002;
/** Each of a pass's statements (a detach waits for the transactions that still see its partition). */
const STATEMENT_TIMEOUT_MS = 60_000;
const SWEEP_EVERY_MS = 60 * 60_000;
/** The first pass waits for start-up's own traffic (a fresh instance's caches filling). */
const FIRST_SWEEP_AFTER_MS = 60_000;
/** app_state's key for when a pass last ran to its end, on whichever instance (the metric reads it). */
export const LAST_SWEEP_KEY = "data_lifecycle_last_success";

export type SweepReport = {
  created: string[];
  dropped: string[];
  deletedRows: Record<string, number>;
};

export type DataLifecycle = {
  /** Creates the partitions that writes need now: the start-up step before any request. */
  prepare(): Promise<string[]>;
  /**
   * One pass: partitions made ahead, expired ones dropped, expired rows deleted, its end recorded.
   * Null when another instance's pass holds the lock.
   */
  sweep(now?: Date): Promise<SweepReport | null>;
  /** Sweeps hourly from a minute after start. */
  start(): void;
  stop(): Promise<void>;
};

/**
 * Issue 38: partition upkeep and retention, on one instance at a time (docs/decisions.md, "Data
 * with a lifecycle"). Every instance runs the timer; each pass takes the advisory lock without
 * waiting, and an instance that finds it held skips its turn.
 */
export function createDataLifecycle(deps: {
  db: Db;
  tryLock: Database["tryLock"];
  settings: RetentionSettings;
  log: FastifyBaseLogger;
  clock: () => Date;
  /** Other deletions the pass runs with its lock (what a deletion on request left to finish). */
  tasks?: ReadonlyArray<(db: Db) => Promise<unknown>>;
}): DataLifecycle {
  const tables = partitionedTables(deps.settings);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;

  async function create(db: Db, now: Date): Promise<string[]> {
    const created: string[] = [];
    for (const table of tables) {
      for (const partition of await createPartitions(db, table, now)) {
        deps.log.info({ table: table.table, partition }, "partition created");
        created.push(partition);
      }
    }
    return created;
  }

  async function pass(db: Db, now: Date): Promise<SweepReport> {
    const created = await create(db, now);
    const dropped: string[] = [];
    for (const table of tables) {
      for (const partition of await expiredPartitions(db, table, now)) {
        const started = performance.now();
        await dropPartition(db, table, partition);
        deps.log.info(
          { table: table.table, partition: partition.name, ms: Math.round(performance.now() - started) },
          "partition dropped",
        );
        dropped.push(partition.name);
      }
    }
    const deletedRows = await deleteExpiredRows(db, now);
    // Each task on its own: one that fails leaves the others to run, and the pass unrecorded.
    let failed = 0;
    for (const task of deps.tasks ?? []) {
      try {
        await task(db);
      } catch (error) {
        failed++;
        deps.log.warn({ err: error }, "data lifecycle task failed");
      }
    }
    if (failed > 0) throw new Error(`${failed} data lifecycle tasks failed`);
    const at = new Date().toISOString();
    await db
      .insert(appState)
      .values({ key: LAST_SWEEP_KEY, value: at })
      .onConflictDoUpdate({ target: appState.key, set: { value: at, updatedAt: sql`now()` } });
    return { created, dropped, deletedRows };
  }

  async function sweep(now = deps.clock()): Promise<SweepReport | null> {
    const outcome = await deps.tryLock(SWEEP_LOCK_KEY, STATEMENT_TIMEOUT_MS, (db) => pass(db, now));
    if (!outcome) {
      deps.log.debug("data lifecycle pass skipped: another instance is running one");
      return null;
    }
    return outcome.value;
  }

  function tick() {
    running = sweep()
      .catch((error: unknown) => deps.log.warn({ err: error }, "data lifecycle pass failed"))
      .finally(() => {
        running = undefined;
      });
  }

  return {
    prepare: () => create(deps.db, deps.clock()),
    sweep,
    start() {
      timer = setTimeout(function again() {
        if (!running) tick();
        timer = setTimeout(again, SWEEP_EVERY_MS);
        timer.unref();
      }, FIRST_SWEEP_AFTER_MS);
      timer.unref();
    },
    async stop() {
      clearTimeout(timer);
      await running;
    },
  };
}

/** When a pass last ran to its end on any instance, or null if none has. */
export async function lastSweepAt(db: Db): Promise<Date | null> {
  const [row] = await db
    .select({ value: appState.value })
    .from(appState)
    .where(eq(appState.key, LAST_SWEEP_KEY));
  return row ? new Date(row.value) : null;
}
