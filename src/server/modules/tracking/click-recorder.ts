import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { clickEvents, pairDailyStats } from "../../db/schema";

export type ClickRow = typeof clickEvents.$inferInsert & { occurredAt: Date };

type Waiter = { row: ClickRow; resolve: () => void; reject: (error: unknown) => void };

export type ClickRecorder = {
  /** Resolves once the click is committed to the database (its batch's transaction). */
  record(row: ClickRow): Promise<void>;
  close(): Promise<void>;
};

/**
 * Group commit: clicks arriving together are written in one transaction (events and the day's
 * counters), and each request waits for its batch to commit before it answers 302. So a click
 * that got its redirect is durably stored — a crash loses only clicks that were never answered —
 * while the database sees a few transactions per second instead of one per click.
 */
export function createClickRecorder(db: Db, options: { maxBatch?: number } = {}): ClickRecorder {
  const maxBatch = options.maxBatch ?? 500;
  let queue: Waiter[] = [];
  let flushing: Promise<void> | null = null;

  async function writeBatch(batch: Waiter[]) {
    const rows = batch.map((w) => w.row);
    const counts = new Map<
      string,
      { day: string; sourceOrgId: string; targetOrgId: string; clicks: number }
    >();
    for (const row of rows) {
      if (!row.verified) continue;
      const day = row.occurredAt.toISOString().slice(0, 10);
      const key = `${day}|${row.sourceOrgId}|${row.targetOrgId}`;
      const entry = counts.get(key) ?? {
        day,
        sourceOrgId: row.sourceOrgId,
        targetOrgId: row.targetOrgId,
        clicks: 0,
      };
      entry.clicks++;
      counts.set(key, entry);
    }
    await db.transaction(async (tx) => {
      await tx.insert(clickEvents).values(rows);
      if (counts.size) {
        await tx
          .insert(pairDailyStats)
          .values([...counts.values()])
          .onConflictDoUpdate({
            target: [pairDailyStats.day, pairDailyStats.sourceOrgId, pairDailyStats.targetOrgId],
            set: { clicks: sql`${pairDailyStats.clicks} + excluded.clicks` },
          });
      }
    });
  }

  function flush(): Promise<void> {
    if (flushing) return flushing;
    flushing = (async () => {
      while (queue.length) {
        const batch = queue.slice(0, maxBatch);
        queue = queue.slice(batch.length);
        try {
          await writeBatch(batch);
          for (const waiter of batch) waiter.resolve();
        } catch (error) {
          for (const waiter of batch) waiter.reject(error);
        }
      }
    })().finally(() => {
      flushing = null;
      // A click queued after the loop's last check but before this point must not wait forever.
      if (queue.length) void flush();
    });
    return flushing;
  }

  return {
    record(row) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ row, resolve, reject });
        // The first click of a batch schedules the write; others arriving meanwhile join it.
        if (queue.length === 1 || queue.length >= maxBatch) setImmediate(() => void flush());
      });
    },
    async close() {
      await flush();
    },
  };
}
