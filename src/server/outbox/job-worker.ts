import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { type Db, rowsOf } from "../db/client";
import { describeUnavailable, isDatabaseUnavailable } from "../db/database-unavailable";
import type { JobKind } from "../db/schema";
import { createGroupCommit } from "../lib/group-commit";
import type { ClaimedJob, JobHandler, JobOutcome } from "./jobs";

export type WorkerOptions = {
  /** How often a worker looks for due jobs without being woken (jobs queued on other instances, retries). */
  pollIntervalMs: number;
  /** Jobs held at once by this instance: running, or having run and waiting for their outcome's write. */
  concurrency: number;
  /**
   * Jobs of one partition (one webhook endpoint) running at once on this instance: requests in
   * flight to one receiver. A job's slot is free once its request is answered, before the writes
   * that record it.
   */
  perPartition: number;
  /** A claimed job is this worker's until then; after, another instance may run it again. */
  leaseMs: number;
};

export const DEFAULT_WORKER_OPTIONS: WorkerOptions = {
  pollIntervalMs: 5_000,
  // 10⁴ conversions a minute to two endpoints are 333 messages a second: with a claim's round trip
  // and commit between an endpoint's runs, 4 at a time could not keep up (bench/README.md).
  concurrency: 128,
  perPartition: 16,
  // Above the longest run (a webhook's 10 s, a mail's SMTP timeouts) with room to record it.
  leaseMs: 60_000,
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
 * time: the others' jobs are claimed past a partition that is busy. A run's partition slot is
 * free as soon as the run is done sending (a handler's `recorded`); the job stays held, and
 * counted in `concurrency`, until its outcome is written. Outcomes are written by one statement
 * per batch (a group commit), so a busy outbox costs a claim and a write per batch.
 */
export function startJobWorker(deps: {
  db: Db;
  log: FastifyBaseLogger;
  handlers: Record<JobKind, JobHandler>;
  /** Tasks run with the outbox's hourly sweep on every instance (the weekly digest's claims). */
  sweeps?: ReadonlyArray<() => Promise<unknown>>;
  options?: Partial<WorkerOptions>;
}): JobWorker {
  const options = { ...DEFAULT_WORKER_OPTIONS, ...deps.options };
  const { db, log, handlers } = deps;
  const running = new Set<Promise<void>>();
  const busyPartitions = new Map<string, number>();
  let claiming: Promise<number> | null = null;
  let again = false;
  /**
   * The last claim may have left due jobs behind: it found some (another instance's claim may have
   * held the rest), took as many as it asked for, or a partition had no room for more. Then runs
   * that free slots look for more; otherwise nothing is due until something is queued (a wake), or
   * a retry falls due or another instance's lease runs out (the poll).
   */
  let leftBehind = true;
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
  async function claim(limit: number): Promise<{ jobs: ClaimedJob[]; full: boolean }> {
    const busy = new Map(busyPartitions);
    const running = JSON.stringify(Object.fromEntries(busy));
    const full = [...busy].filter(([, n]) => n >= options.perPartition).map(([key]) => key);
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
    const rows = rowsOf<{
      id: string;
      kind: JobKind;
      partition_key: string | null;
      payload: unknown;
      attempts: number;
      created_at: Date | string;
    }>(result);
    const jobs = rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      partitionKey: row.partition_key,
      payload: row.payload,
      attempts: row.attempts,
      createdAt: new Date(row.created_at),
    }));
    for (const job of jobs) {
      if (job.partitionKey !== null) busy.set(job.partitionKey, (busy.get(job.partitionKey) ?? 0) + 1);
    }
    // Full: it took all it asked for, or a partition has no room left for what may be due in it.
    return { jobs, full: jobs.length >= limit || [...busy.values()].some((n) => n >= options.perPartition) };
  }

  function track(job: ClaimedJob, run: Promise<JobOutcome>) {
    const key = job.partitionKey;
    if (key !== null) busyPartitions.set(key, (busyPartitions.get(key) ?? 0) + 1);
    let released = false;
    /** The partition's slot is free once the run has sent and been answered, before any recording. */
    const release = () => {
      if (released) return;
      released = true;
      const left = key === null ? 0 : (busyPartitions.get(key) ?? 1) - 1;
      if (key !== null) {
        if (left === 0) busyPartitions.delete(key);
        else busyPartitions.set(key, left);
      }
      // Slots are free: take the next due jobs if the last claim left any, once half the
      // partition's slots are free (a claim for each slot freed would be a statement per job).
      if (leftBehind && left <= options.perPartition / 2 && !stopped) wake();
    };
    const settled: Promise<void> = run
      .finally(release)
      .then((outcome) => (outcome.recorded ? outcome.recorded.then(() => outcome) : outcome))
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
        const wasFull = running.size >= options.concurrency;
        running.delete(settled);
        // The instance held all it may: now it may take another.
        if (wasFull && !stopped) wake();
      });
    running.add(settled);
  }

  async function claimAndStart(): Promise<number> {
    let started = 0;
    while (!stopped) {
      const free = options.concurrency - running.size;
      if (free <= 0) break;
      const claimed = await claim(free);
      leftBehind = claimed.full || claimed.jobs.length > 0;
      const batch = claimed.jobs;
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
      // It took all it could see: the runs it started look for more as they end.
      if (!claimed.full) break;
    }
    return started;
  }

  async function sweep() {
    const now = Date.now();
    if (now - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = now;
    for (const other of deps.sweeps ?? []) await other();
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
        leftBehind = true;
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
