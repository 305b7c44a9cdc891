import { performance } from "node:perf_hooks";
import type { Db } from "../../db/client";
import { createLoopLoad } from "../../lib/loop-load";
import { type ClickJournal, openClickJournal } from "./click-journal";
import { type StoredClick, storeClicks } from "./click-store";

export type ClickRecorder<T = StoredClick> = {
  /** Resolves once the click is written to the journal: it then survives the process's crash. */
  record(entry: T): Promise<void>;
  /** Waits until the clicks recorded before the call are in the database (reads see them). */
  settle(): Promise<void>;
  /** Clicks a crash left in the journal go to the database; run once before serving. */
  recover(): Promise<number>;
  pendingCount(): number;
  /** Clicks stored since start: moves whenever a batch commits. */
  storedCount(): number;
  close(): Promise<void>;
};

/** Beyond this many waiting, a reader answers from what is stored rather than wait behind a surge. */
export const SETTLE_WAIT_MAX = 5_000;

export type RecorderOptions<T> = {
  /**
   * Writes journal lines to the database in one statement, idempotently (a replayed journal must
   * not count twice); answers how many were new. Clicks by default; conversions reuse the mechanism.
   */
  store?: (db: Db, lines: readonly string[]) => Promise<number>;
  /** An entry's journal line, as `store` reads it. Default: JSON.stringify. */
  line?: (entry: T) => string;
  /** fdatasync the journal's writes in the background (see click-journal.ts). */
  syncJournal?: boolean;
  onJournalSyncError?: (error: unknown) => void;
  /** Clicks per database statement while catching up. */
  batch?: number;
  /**
   * Whether the server is busy with other work, given the milliseconds storing took since the
   * last call: clicks are then stored now and then. Default: the event loop's utilization.
   */
  busy?: (storingMs: number) => boolean;
  /**
   * Clicks per batch while busy. PGlite holds the thread for a whole statement and every request
   * waits behind it: 200 clicks took 20–35 ms on this machine's slow days, which was the short
   * link's p99 under load; 60 take 6–12.
   */
  busyBatch?: number;
  /** While busy, at least this long between two batches… */
  busyIntervalMs?: number;
  /** …and this many times as long as the last batch took. */
  busyRestFactor?: number;
  /** Beyond this many clicks waiting, they are stored whatever the load: memory stays bounded. */
  highWater?: number;
};

/**
 * Clicks are durable once journaled (see click-journal.ts): the 302 is sent then. They reach the
 * database in batches, one statement each (events and the day's counters), at once while the
 * server is quiet. Under a surge a batch goes a few times a second, taking a small share of the
 * time; the journal absorbs the rest and the database catches up when the surge ends (or when
 * too many wait, whatever the load). PGlite runs its queries on this thread: storing at full speed
 * during a surge would take the time the redirects need.
 */
export function createClickRecorder<T = StoredClick>(
  db: Db,
  journalDir: string,
  options: RecorderOptions<T> = {},
): ClickRecorder<T> {
  const store = options.store ?? storeClicks;
  const lineOf = options.line ?? JSON.stringify;
  const batchSize = options.batch ?? 500;
  const busy = options.busy ?? createLoopLoad();
  let storingMs = 0;
  const busyBatch = options.busyBatch ?? 60;
  const busyIntervalMs = options.busyIntervalMs ?? 100;
  const busyRestFactor = options.busyRestFactor ?? 19;
  const highWater = options.highWater ?? 300_000;
  const journal: ClickJournal = openClickJournal(journalDir, {
    sync: options.syncJournal ?? true,
    onSyncError: options.onJournalSyncError,
  });

  let stored = 0; // clicks stored since start, in journal order
  let storing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  let ticking = false;
  let closed = false;

  const waiting = () => journal.waiting();

  /** Stores about `max` of the oldest waiting clicks; calls never overlap. */
  function storeNext(max: number): Promise<void> {
    storing = storing.then(async () => {
      const batch = journal.next(max);
      if (!batch) return;
      const started = performance.now();
      try {
        await store(db, batch.lines);
      } finally {
        storingMs += performance.now() - started;
      }
      batch.stored();
      stored += batch.lines.length;
    });
    return storing;
  }

  // The rest after a batch holds even when nothing waits at the moment it ends.
  let restUntil = 0;
  function schedule() {
    if (timer || ticking || closed || waiting() === 0) return;
    timer = setTimeout(tick, Math.max(0, restUntil - performance.now()));
  }

  async function tick() {
    timer = null;
    ticking = true;
    let delay = 0;
    try {
      const isBusy = busy(storingMs);
      storingMs = 0;
      if (!isBusy || waiting() > highWater) {
        await storeNext(batchSize);
      } else {
        // Under load: a batch now and then, so storing takes a twentieth of the time. PGlite
        // spends milliseconds on any statement, so waiting for a bigger batch costs less.
        const started = performance.now();
        await storeNext(busyBatch);
        delay = Math.max(busyIntervalMs, (performance.now() - started) * busyRestFactor);
      }
    } catch {
      // The database is unreachable: the clicks stay journaled, and this is tried again.
      delay = 1_000;
    }
    ticking = false;
    restUntil = performance.now() + delay;
    schedule();
  }

  async function settleUpTo(target: number) {
    while (stored < target && waiting() > 0) await storeNext(Math.min(batchSize, target - stored));
  }

  return {
    async record(entry) {
      const line = lineOf(entry);
      try {
        await journal.append(line);
      } catch {
        // No journal (disk full, read-only): the click is stored directly before its 302.
        await store(db, [line]);
        return;
      }
      schedule();
    },
    settle() {
      return settleUpTo(stored + waiting());
    },
    async recover() {
      let count = 0;
      for (const leftover of journal.leftovers()) {
        for (let i = 0; i < leftover.lines.length; i += batchSize)
          count += await store(db, leftover.lines.slice(i, i + batchSize));
        journal.removeLeftover(leftover.path);
      }
      return count;
    },
    pendingCount: waiting,
    storedCount: () => stored,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      try {
        await settleUpTo(stored + waiting());
      } finally {
        await journal.close();
      }
    },
  };
}
