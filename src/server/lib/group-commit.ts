import { performance } from "node:perf_hooks";

/**
 * The group commit stopped waiting for its writer: the batch missed its deadline, or too many rows
 * were already waiting. The database may be stalled rather than gone, which no socket error shows,
 * so the request answers as if it were unavailable (`db/database-unavailable.ts`).
 */
export class CommitGivenUpError extends Error {}

export type CommittedBatch = {
  size: number;
  stored: number;
  seconds: number;
  /**
   * It committed after its deadline, when its requests had been answered 503: its rows are
   * stored (and counted) although their requests were refused.
   */
  late: boolean;
};

/** Requests answered with an error instead of their row's commit. */
export type Refusal = {
  /**
   * error: their batch failed; deadline: their batch was not committed in time, or they waited
   * behind one that was not; full: the queue was at its cap when they arrived.
   */
  reason: "error" | "deadline" | "full";
  rows: number;
  /** One written batch that failed or missed its deadline; false for rows that were never sent. */
  batch: boolean;
};

/**
 * What a batch's statement answers: how many rows were new and, for writers whose requests need
 * more than "committed" (was it new, under which id), one result per row, in the rows' order.
 */
export type Written<R> = { stored: number; results: readonly R[] };

export type GroupCommitOptions<T, R = void> = {
  /** Writes the rows in one statement, all or nothing; answers how many were new (and per row). */
  write(rows: readonly T[]): Promise<number | Written<R>>;
  /** Rows per statement at most: under a surge the rest wait for the next one. */
  maxBatch?: number;
  /** How long a batch's requests wait for its commit before they are answered 503. */
  deadlineMs?: number;
  /** Rows waiting for the next statement at most: beyond, a request is answered 503 at once. */
  maxQueue?: number;
  /** Told of every committed batch (metrics), late ones included. */
  onCommit?(batch: CommittedBatch): void;
  /** Told of every refusal (metrics). */
  onRefusal?(refusal: Refusal): void;
};

export type GroupCommit<T, R = void> = {
  /**
   * Resolves once the row is committed, with its result when the writer gives one; rejects if its
   * batch failed (then nothing of it is stored), or with a CommitGivenUpError if the queue is full
   * or the batch missed its deadline (then the row may still be stored, later: see
   * CommittedBatch.late).
   */
  add(row: T): Promise<R | undefined>;
  /** Resolves once every row added so far has been committed or refused. */
  drain(): Promise<void>;
};

type Waiting<T, R> = { row: T; resolve(result: R | undefined): void; reject(error: unknown): void };

/** A request path's bound: a click waits for one commit, which takes milliseconds when healthy. */
export const GROUP_COMMIT_DEADLINE_MS = 2_000;
/** Ten full statements waiting: the database is not keeping up, and more would only wait longer. */
export const GROUP_COMMIT_MAX_QUEUE = 10_000;

/**
 * Group commit: the rows of the requests of one turn of the event loop go to the database
 * together, and while one statement is in flight the rows that arrive gather for the next. A
 * request waits for one commit, and the busier the server the more rows each commit carries.
 *
 * Every wait is bounded. A batch not committed within its deadline is given up: its requests and
 * those gathered behind it are refused, and the next rows go out in a new statement at once (on
 * another connection), so a statement stuck on a dead connection holds nobody after its deadline.
 * The statement given up is not cancelled (a stalled network cannot carry that either): it may
 * still commit, and its rows are then stored although their requests were answered 503.
 */
export function createGroupCommit<T, R = void>(options: GroupCommitOptions<T, R>): GroupCommit<T, R> {
  const maxBatch = options.maxBatch ?? 1_000;
  const deadlineMs = options.deadlineMs ?? GROUP_COMMIT_DEADLINE_MS;
  const maxQueue = options.maxQueue ?? GROUP_COMMIT_MAX_QUEUE;
  let queue: Waiting<T, R>[] = [];
  /** Settles when the batch in flight is committed, failed or given up. */
  let writing: Promise<void> | null = null;
  let scheduled = false;

  // What observes batches never fails one.
  const observe = <A>(observer: ((arg: A) => void) | undefined, arg: A) => {
    try {
      observer?.(arg);
    } catch {}
  };

  function start() {
    scheduled = false;
    if (writing || queue.length === 0) return;
    const batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch);
    queue = queue.length <= maxBatch ? [] : queue.slice(maxBatch);
    const started = performance.now();
    let written: Promise<number | Written<R>>;
    try {
      written = options.write(batch.map((waiting) => waiting.row));
    } catch (error) {
      written = Promise.reject(error);
    }
    writing = new Promise<void>((settled) => {
      let answered = false;
      let timer: NodeJS.Timeout | undefined;
      /** Answers the batch's requests once: by its outcome or by its deadline, whichever is first. */
      const answer = (respond: () => void) => {
        if (answered) return false;
        answered = true;
        clearTimeout(timer);
        writing = null;
        // The next statement goes out before this batch's requests are answered: the database
        // works on it while this process writes their responses.
        respond();
        start();
        settled();
        return true;
      };
      timer = setTimeout(
        () =>
          answer(() => {
            const behind = queue;
            queue = [];
            const error = new CommitGivenUpError(
              `the database did not commit a batch within ${deadlineMs} ms`,
            );
            for (const waiting of batch) waiting.reject(error);
            for (const waiting of behind) waiting.reject(error);
            observe(options.onRefusal, { reason: "deadline", rows: batch.length, batch: true });
            if (behind.length > 0)
              observe(options.onRefusal, { reason: "deadline", rows: behind.length, batch: false });
          }),
        deadlineMs,
      );
      written.then(
        (outcome) => {
          const { stored, results } =
            typeof outcome === "number" ? { stored: outcome, results: [] } : outcome;
          const late = !answer(() => {
            for (const [index, waiting] of batch.entries()) waiting.resolve(results[index]);
          });
          const seconds = (performance.now() - started) / 1000;
          observe(options.onCommit, { size: batch.length, stored, seconds, late });
        },
        (error: unknown) => {
          // Given up already: refused and counted at its deadline.
          answer(() => {
            for (const waiting of batch) waiting.reject(error);
            observe(options.onRefusal, { reason: "error", rows: batch.length, batch: true });
          });
        },
      );
    });
  }

  return {
    add(row) {
      if (queue.length >= maxQueue) {
        observe(options.onRefusal, { reason: "full", rows: 1, batch: false });
        return Promise.reject(
          new CommitGivenUpError(`${queue.length} rows are already waiting for the database`),
        );
      }
      return new Promise<R | undefined>((resolve, reject) => {
        queue.push({ row, resolve, reject });
        // After the turn's other requests have added theirs.
        if (!scheduled && !writing) {
          scheduled = true;
          setImmediate(start);
        }
      });
    },
    async drain() {
      // A batch given up at its deadline is not waited for: its requests are answered.
      while (writing || queue.length > 0) {
        if (!writing) start();
        await writing;
      }
    },
  };
}
