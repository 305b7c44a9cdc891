import { performance } from "node:perf_hooks";

export type CommittedBatch = { size: number; stored: number; seconds: number };

export type GroupCommitOptions<T> = {
  /** Writes the rows in one statement, all or nothing; answers how many were new. */
  write(rows: readonly T[]): Promise<number>;
  /** Rows per statement at most: under a surge the rest wait for the next one. */
  maxBatch?: number;
  /** Told of every committed batch (metrics). */
  onCommit?(batch: CommittedBatch): void;
};

export type GroupCommit<T> = {
  /** Resolves once the row is committed; rejects if its batch failed (then nothing of it is stored). */
  add(row: T): Promise<void>;
  /** Resolves once every row added so far has been written or has failed. */
  drain(): Promise<void>;
};

type Waiting<T> = { row: T; resolve(): void; reject(error: unknown): void };

/**
 * Group commit: the rows of the requests of one turn of the event loop go to the database
 * together, and while one statement is in flight the rows that arrive gather for the next. A
 * request waits for one commit, and the busier the server the more rows each commit carries.
 */
export function createGroupCommit<T>(options: GroupCommitOptions<T>): GroupCommit<T> {
  const maxBatch = options.maxBatch ?? 1_000;
  let queue: Waiting<T>[] = [];
  let writing: Promise<void> | null = null;
  let scheduled = false;

  function start() {
    scheduled = false;
    if (writing || queue.length === 0) return;
    const batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch);
    queue = queue.length <= maxBatch ? [] : queue.slice(maxBatch);
    const started = performance.now();
    const done = () => {
      writing = null;
      // The next statement goes out before this batch's requests are answered: the database
      // works on it while this process writes their responses.
      start();
    };
    let written: Promise<number>;
    try {
      written = options.write(batch.map((waiting) => waiting.row));
    } catch (error) {
      written = Promise.reject(error);
    }
    writing = written.then(
      (stored) => {
        done();
        for (const waiting of batch) waiting.resolve();
        try {
          options.onCommit?.({ size: batch.length, stored, seconds: (performance.now() - started) / 1000 });
        } catch {
          // What observes commits never fails one.
        }
      },
      (error: unknown) => {
        done();
        for (const waiting of batch) waiting.reject(error);
      },
    );
  }

  return {
    add(row) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ row, resolve, reject });
        // After the turn's other requests have added theirs.
        if (!scheduled && !writing) {
          scheduled = true;
          setImmediate(start);
        }
      });
    },
    async drain() {
      while (writing || queue.length > 0) {
        if (!writing) start();
        await writing;
      }
    },
  };
}
