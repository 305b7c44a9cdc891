import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, rowsOf } from "../db/client";
import { openTestDatabase } from "../testing/database";
import { startJobWorker } from "./job-worker";
import { type ClaimedJob, enqueueJob, type JobHandler, type JobOutcome } from "./jobs";

/** A promise and the means to settle it from outside. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/** A handler whose runs end when the test says so, each run's recording likewise. */
function controlledHandler() {
  const batches: string[][] = [];
  const runs = new Map<string, { answer: () => void; record: () => void }>();
  const handler: JobHandler = {
    async start(jobs: readonly ClaimedJob[]) {
      batches.push(jobs.map((job) => job.id));
      return jobs.map((job) => {
        const answered = deferred();
        const recorded = deferred();
        runs.set(job.id, { answer: answered.resolve, record: recorded.resolve });
        return answered.promise.then((): JobOutcome => ({ status: "done", recorded: recorded.promise }));
      });
    },
    retryDelayMs: () => null,
  };
  return { handler, batches, runs };
}

const noHandler: JobHandler = { start: async () => [], retryDelayMs: () => null };

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

async function statusOf(id: string) {
  const [row] = rowsOf<{ status: string }>(
    await database.db.execute(sql`select status from jobs where id = ${id}`),
  );
  return row?.status;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe("the job worker", () => {
  it("frees a partition's slot once a run is answered, and writes the outcome once it is recorded", async () => {
    const { handler, batches, runs } = controlledHandler();
    for (const id of ["slot-1", "slot-2"]) {
      await enqueueJob(database.db, { id, kind: "webhook", partitionKey: "endpoint-a", payload: {} });
    }
    const worker = startJobWorker({
      db: database.db,
      log: pino({ level: "silent" }),
      handlers: { webhook: handler, mail: noHandler },
      options: { perPartition: 1, pollIntervalMs: 60_000 },
    });
    try {
      worker.wake();
      await expect.poll(() => batches.flat()).toEqual(["slot-1"]);
      runs.get("slot-1")?.answer();
      // The second run starts while the first one's attempt is still being recorded.
      await expect.poll(() => batches.flat()).toEqual(["slot-1", "slot-2"]);
      await settle();
      expect(await statusOf("slot-1")).toBe("pending");
      runs.get("slot-1")?.record();
      await expect.poll(() => statusOf("slot-1")).toBe("done");
      runs.get("slot-2")?.answer();
      runs.get("slot-2")?.record();
      await expect.poll(() => statusOf("slot-2")).toBe("done");
    } finally {
      await worker.stop();
    }
  });

  it("claims behind a full partition once half its slots are free, not for every slot", async () => {
    const { handler, batches, runs } = controlledHandler();
    const ids = Array.from({ length: 8 }, (_, i) => `half-${i}`);
    for (const id of ids) {
      await enqueueJob(database.db, { id, kind: "webhook", partitionKey: "endpoint-b", payload: {} });
    }
    const worker = startJobWorker({
      db: database.db,
      log: pino({ level: "silent" }),
      handlers: { webhook: handler, mail: noHandler },
      options: { perPartition: 4, pollIntervalMs: 60_000 },
    });
    try {
      worker.wake();
      await expect.poll(() => batches.length).toBe(1);
      expect(batches[0]).toHaveLength(4);
      const finish = (id: string) => {
        runs.get(id)?.answer();
        runs.get(id)?.record();
      };
      finish("half-0");
      await settle();
      expect(batches).toHaveLength(1);
      finish("half-1");
      // Two of four slots free: one claim fills them.
      await expect.poll(() => batches.length).toBe(2);
      expect(batches[1]).toHaveLength(2);
      for (const id of ids.slice(2)) finish(id);
      await expect.poll(() => batches.flat().length).toBe(8);
      for (const id of ids) finish(id);
      await expect.poll(async () => Promise.all(ids.map(statusOf))).toEqual(ids.map(() => "done"));
    } finally {
      await worker.stop();
    }
  });
});
