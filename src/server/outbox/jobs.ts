import type { DbOrTx } from "../db/client";
import { type JobKind, jobs } from "../db/schema";

/** A job as a worker holds it: claimed, with `attempts` already counting this claim. */
export type ClaimedJob = {
  id: string;
  kind: JobKind;
  partitionKey: string | null;
  payload: unknown;
  attempts: number;
  createdAt: Date;
};

/**
 * done / skipped: finished (skipped: nothing to send). retry: run again after `delayMs`.
 * failed: given up for good.
 */
export type JobOutcome = (
  | { status: "done" }
  | { status: "skipped"; reason: string }
  | { status: "retry"; delayMs: number; error: string }
  | { status: "failed"; error: string }
) & {
  /**
   * What the handler still writes about this run (a webhook's attempt), once what it sent has
   * been answered. Its partition is free for the next run meanwhile; the job stays leased, and
   * its outcome is written once this has settled (if it fails, the run counts as one that threw).
   */
  recorded?: Promise<unknown>;
};

/**
 * Sends the jobs of one kind. `start` receives what one claim brought (so it can read what they
 * need in one query) and answers one run per job, in their order; each run must settle well
 * within the lease (DEFAULT_WORKER_OPTIONS.leaseMs), and a run that throws is retried like a
 * `retry` after `retryDelayMs`.
 */
export type JobHandler = {
  start(jobs: readonly ClaimedJob[]): Promise<Promise<JobOutcome>[]>;
  /** When a run throws: how long until the next attempt, or null to give up. */
  retryDelayMs(job: ClaimedJob): number | null;
};

/** Queues a job in the caller's transaction: it exists only if the caller's change commits. */
export async function enqueueJob(
  db: DbOrTx,
  job: { kind: JobKind; payload: unknown; partitionKey?: string; id?: string },
): Promise<void> {
  await db.insert(jobs).values({
    ...(job.id ? { id: job.id } : {}),
    kind: job.kind,
    payload: job.payload,
    partitionKey: job.partitionKey ?? null,
  });
}
