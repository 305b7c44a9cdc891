import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { type Db, rowsOf } from "../db/client";
import { describeUnavailable, isDatabaseUnavailable } from "../db/database-unavailable";
import { deleteInChunks } from "../db/delete-in-chunks";
import type { JobKind } from "../db/schema";
import { createGroupCommit } from "../lib/group-commit";
import type { ClaimedJob, JobHandler, JobOutcome } from "./jobs";

export type WorkerOptions = {
  /** How often a worker looks for due jobs without being woken (jobs queued on other instances, retries). */
  pollIntervalMs: number;
  /** Jobs running at once on this instance. */
  concurrency: number;
  /** Jobs of one partition (one webhook endpoint) running at once on this instance. */
  perPartition: number;
  /** A claimed job is this worker's until then; after, another instance may run it again. */
  leaseMs: number;
  /** Finished jobs are deleted this long after they finished. */
  retentionMs: number;
};

export const DEFAULT_WORKER_OPTIONS: WorkerOptions = {
  pollIntervalMs: 5_000,
  concurrency: 32,
  perPartition: 4,
  // Above the longest run (a webhook's 10 s, a mail's SMTP timeouts) with room to record it.
  leaseMs: 60_000,
  // What was sent is recorded elsewhere (webhook attempts); a mail's body may hold a live token.
  retentionMs: 24 * 60 * 60_000,
};

const SWEEP_EVERY_MS = 60 * 60_000;
export type JobWorker = {
  /** Looks for due jobs now (called after a change queued some, and on every tick). */
  wake(): void;
  /** Runs every job due now, and those they make due at once, and resolves when all are finished (tests, bench). */
  drain(): Promise<number>;
  /** Stops claiming, and waits for the jobs running now to finish and be recorded. */
  stop(): Promise<void>;
};

type Finished = {
  id: string;
  attempts: number;
  status: "pending" | "done" | "skipped" | "failed";
  delayMs: number;
  error: string | null;
};

function finishedRow(job: ClaimedJob, outcome: JobOutcome): Finished {
  switch (outcome.status) {
    case "done":
      return { id: job.id, attempts: job.attempts, status: "done", delayMs: 0, error: null };
    case "skipped":
      return { id: job.id, attempts: job.attempts, status: "skipped", delayMs: 0, error: outcome.reason };
    case "retry":
      return {
        id: job.id,
        attempts: job.attempts,
        status: "pending",
        delayMs: outcome.delayMs,
        error: outcome.error,
      };
    case "failed":
      return { id: job.id, attempts: job.attempts, status: "failed", delayMs: 0, error: outcome.error };
  }
}

/**
 * One worker per instance runs the outbox for every kind of job. Any number of instances share it:
 * a claim takes due rows with SKIP LOCKED and leases them, so a job runs on one instance at a
 * time, and the job of an instance that died is taken again once its lease has passed. A job's
 * `attempts` is raised by each claim and checked when its outcome is written, so an instance
 * whose lease ran out cannot overwrite the outcome of the one that took over.
 *
 * Jobs run concurrently up to `concurrency`, and at most `perPartition` of one partition at a
 * time: the others' jobs are claimed past a partition that is busy. Outcomes are written by one
 * statement per batch (a group commit), so a busy outbox costs a claim and a write per batch.
 */
export function startJobWorker(deps: {
  db: Db;
  log: FastifyBaseLogger;
  handlers: Record<JobKind, JobHandler>;
  options?: Partial<WorkerOptions>;
}): JobWorker {
  const options = { ...DEFAULT_WORKER_OPTIONS, ...deps.options };
  const { db, log, handlers } = deps;
  const running = new Set<Promise<void>>();
  const busyPartitions = new Map<string, number>();
  let claiming: Promise<number> | null = null;
  let again = false;
  let stopped = false;
  let lastSweep = 0;

  const outcomes = createGroupCommit<Finished>({
    maxBatch: 500,
    // Off the request path: a slow database delays recording, and a job whose outcome is lost is
    // simply run again after its lease.
    deadlineMs: 30_000,
    async write(rows) {
      await db.execute(sql`
        update jobs set
          status = d.status,
          run_at = case when d.status = 'pending' then now() + d.delay_ms * interval '1 millisecond' else jobs.run_at end,
          locked_until = null,
          last_error = d.error,
          finished_at = case when d.status = 'pending' then null else now() end
        from json_to_recordset(${JSON.stringify(rows.map((row) => ({ ...row, delay_ms: row.delayMs })))}::json)
          as d(id text, attempts int, status text, delay_ms bigint, error text)
        where jobs.id = d.id and jobs.attempts = d.attempts`);
      return rows.length;
    },
  });

  /** Leases up to `limit` due jobs, and no more of a partition than it has room for here. */
  async function claim(limit: number): Promise<ClaimedJob[]> {
    const running = JSON.stringify(Object.fromEntries(busyPartitions));
    const full = [...busyPartitions].filter(([, n]) => n >= options.perPartition).map(([key]) => key);
    const result = await db.execute(sql`
      with due as (
        select id, partition_key, run_at from jobs
        where status = 'pending' and run_at <= now()
          and (locked_until is null or locked_until <= now())
          and (partition_key is null
            or partition_key not in (select json_array_elements_text(${JSON.stringify(full)}::json)))
        order by run_at
        limit ${limit * 4}
        for update skip locked
      ), picked as (
        select id from (
          select id, partition_key, run_at,
            row_number() over (partition by partition_key order by run_at) as nth
          from due
        ) ranked
        where partition_key is null
          or nth <= ${options.perPartition} - coalesce((${running}::jsonb ->> partition_key)::int, 0)
        order by run_at
        limit ${limit}
      )
      update jobs set attempts = jobs.attempts + 1,
        locked_until = now() + ${options.leaseMs} * interval '1 millisecond'
      from picked where jobs.id = picked.id
      returning jobs.id, jobs.kind, jobs.partition_key, jobs.payload, jobs.attempts, jobs.created_at`);
    return rowsOf<{
      id: string;
      kind: JobKind;
      partition_key: string | null;
      payload: unknown;
      attempts: number;
      created_at: Date | string;
    }>(result).map((row) => ({
      id: row.id,
      kind: row.kind,
      partitionKey: row.partition_key,
      payload: row.payload,
      attempts: row.attempts,
      createdAt: new Date(row.created_at),
    }));
  }

  function track(job: ClaimedJob, run: Promise<JobOutcome>) {
    const key = job.partitionKey;
    if (key !== null) busyPartitions.set(key, (busyPartitions.get(key) ?? 0) + 1);
    const settled: Promise<void> = run
      .catch((error: unknown): JobOutcome => {
        const delayMs = handlers[job.kind].retryDelayMs(job);
        const message = error instanceof Error ? error.message : String(error);
        log.warn({ jobId: job.id, kind: job.kind, attempts: job.attempts, err: message }, "job failed");
        return delayMs === null
          ? { status: "failed", error: message }
          : { status: "retry", delayMs, error: message };
      })
      .then((outcome) => outcomes.add(finishedRow(job, outcome)))
      .catch((error: unknown) => {
        log.warn({ jobId: job.id, err: error }, "job outcome not recorded: it runs again after its lease");
      })
      .finally(() => {
        running.delete(settled);
        if (key !== null) {
          const left = (busyPartitions.get(key) ?? 1) - 1;
          if (left === 0) busyPartitions.delete(key);
          else busyPartitions.set(key, left);
        }
        // A slot is free: take the next due job, if any.
        if (!stopped) wake();
      });
    running.add(settled);
  }

  async function claimAndStart(): Promise<number> {
    let started = 0;
    while (!stopped) {
      const free = options.concurrency - running.size;
      if (free <= 0) break;
      const batch = await claim(free);
      if (batch.length === 0) break;
      for (const kind of new Set(batch.map((job) => job.kind))) {
        const ofKind = batch.filter((job) => job.kind === kind);
        let runs: Promise<JobOutcome>[];
        try {
          runs = await handlers[kind].start(ofKind);
        } catch (error) {
          runs = ofKind.map(() => Promise.reject(error));
        }
        for (const [index, job] of ofKind.entries()) {
          track(job, runs[index] ?? Promise.reject(new Error("no run for job")));
        }
      }
      started += batch.length;
    }
    return started;
  }

  async function sweep() {
    const now = Date.now();
    if (now - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = now;
    await deleteInChunks(
      db,
      sql`select id from jobs
        where status <> 'pending' and finished_at < now() - ${options.retentionMs} * interval '1 millisecond'`,
      sql`jobs`,
    );
    for (const handler of Object.values(handlers)) await handler.sweep?.(new Date(now));
  }

  function wake(): void {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = claimAndStart()
      .catch((error: unknown) => {
        // The next tick tries again; an outage of the database is not a fault of the outbox.
        if (isDatabaseUnavailable(error)) {
          log.warn({ reason: describeUnavailable(error) }, "outbox pass skipped: database unavailable");
        } else {
          log.error({ err: error }, "outbox pass failed");
        }
        return 0;
      })
      .finally(() => {
        claiming = null;
        if (again && !stopped) {
          again = false;
          wake();
        }
      });
  }

  const timer = setInterval(() => {
    wake();
    void sweep().catch((error: unknown) => log.warn({ err: error }, "outbox sweep failed"));
  }, options.pollIntervalMs);
  timer.unref();

  return {
    wake,
    async drain() {
      let total = 0;
      for (;;) {
        while (claiming) await claiming;
        const started = await claimAndStart();
        total += started;
        if (running.size > 0) await Promise.all([...running]);
        await outcomes.drain();
        if (started === 0 && running.size === 0) return total;
      }
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await claiming;
      await Promise.all([...running]);
      await outcomes.drain();
    },
  };
}
