import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "../db/database-unavailable";
import { CommitGivenUpError, type CommittedBatch, createGroupCommit, type Refusal } from "./group-commit";

/** A write that hangs until released, as a statement on a stalled connection does. */
function stalledWrite() {
  const writes: string[][] = [];
  const releases: Array<(stored: number) => void> = [];
  return {
    writes,
    write: (rows: readonly string[]) => {
      writes.push([...rows]);
      return new Promise<number>((resolve) => releases.push(resolve));
    },
    release: (index: number, stored: number) => releases[index]?.(stored),
  };
}

describe("group commit", () => {
  it("gathers the rows of one turn into one write, and the rows that arrive meanwhile into the next", async () => {
    const writes: number[][] = [];
    let release: () => void = () => {};
    const commit = createGroupCommit<number>({
      write: async (rows) => {
        writes.push([...rows]);
        if (writes.length === 1) await new Promise<void>((resolve) => (release = resolve));
        return rows.length;
      },
    });
    const first = [1, 2, 3].map((row) => commit.add(row));
    await new Promise((resolve) => setImmediate(resolve));
    const second = [4, 5].map((row) => commit.add(row));
    expect(writes).toEqual([[1, 2, 3]]);
    release();
    await Promise.all([...first, ...second]);
    expect(writes).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it("hands each row its own result when the writer gives one per row", async () => {
    const commit = createGroupCommit<number, string>({
      write: async (rows) => ({ stored: rows.length - 1, results: rows.map((row) => `result of ${row}`) }),
    });
    expect(await Promise.all([1, 2, 3].map((row) => commit.add(row)))).toEqual([
      "result of 1",
      "result of 2",
      "result of 3",
    ]);
  });

  it("fails every row of a failed write, and keeps going with the next", async () => {
    let fail = true;
    const commit = createGroupCommit<string>({
      write: (rows) => {
        if (fail) throw new Error("database gone");
        return Promise.resolve(rows.length);
      },
    });
    const failed = await Promise.allSettled([commit.add("a"), commit.add("b")]);
    expect(failed.map((result) => result.status)).toEqual(["rejected", "rejected"]);
    fail = false;
    await expect(commit.add("c")).resolves.toBeUndefined();
  });

  it("answers its rows even when the observer of commits throws", async () => {
    const commit = createGroupCommit<string>({
      write: async (rows) => rows.length,
      onCommit: () => {
        throw new Error("metrics broke");
      },
    });
    await expect(commit.add("a")).resolves.toBeUndefined();
    await commit.drain();
  });

  it("answers a batch past its deadline 503, with those waiting behind it, and sends the next at once", async () => {
    const stalled = stalledWrite();
    const refusals: Refusal[] = [];
    const commits: CommittedBatch[] = [];
    const commit = createGroupCommit<string>({
      write: stalled.write,
      deadlineMs: 100,
      onRefusal: (refusal) => refusals.push(refusal),
      onCommit: (batch) => commits.push(batch),
    });
    const started = Date.now();
    const first = [commit.add("a"), commit.add("b")].map((added) => added.catch((error) => error));
    await sleep(20);
    const behind = commit.add("c").catch((error) => error);
    const answers = await Promise.all([...first, behind]);
    expect(Date.now() - started).toBeLessThan(400);
    for (const error of answers) {
      expect(error).toBeInstanceOf(CommitGivenUpError);
      expect(isDatabaseUnavailable(error)).toBe(true);
    }
    expect(refusals).toEqual([
      { reason: "deadline", rows: 2, batch: true },
      { reason: "deadline", rows: 1, batch: false },
    ]);
    // "c" was never sent: only a batch that went out can still be stored.
    expect(stalled.writes).toEqual([["a", "b"]]);

    // The stuck statement holds nobody: the next row goes out while it still hangs.
    const next = commit.add("d");
    await sleep(20);
    expect(stalled.writes).toEqual([["a", "b"], ["d"]]);
    stalled.release(1, 1);
    await expect(next).resolves.toBeUndefined();
    await commit.drain();

    // The given-up statement commits after all: stored, and told as late.
    stalled.release(0, 2);
    await sleep(0);
    expect(commits.map(({ size, stored, late }) => ({ size, stored, late }))).toEqual([
      { size: 1, stored: 1, late: false },
      { size: 2, stored: 2, late: true },
    ]);
  });

  it("tells a failed batch once, and a given-up batch that then fails not again", async () => {
    const refusals: Refusal[] = [];
    let fail: (error: Error) => void = () => {};
    let calls = 0;
    const commit = createGroupCommit<string>({
      write: () => {
        calls++;
        if (calls === 1) return Promise.reject(new Error("connection terminated"));
        return new Promise<number>((_, reject) => (fail = reject));
      },
      deadlineMs: 50,
      onRefusal: (refusal) => refusals.push(refusal),
    });
    await expect(commit.add("a")).rejects.toThrow("connection terminated");
    await expect(commit.add("b")).rejects.toBeInstanceOf(CommitGivenUpError);
    fail(new Error("Query read timeout"));
    await sleep(0);
    expect(refusals).toEqual([
      { reason: "error", rows: 1, batch: true },
      { reason: "deadline", rows: 1, batch: true },
    ]);
  });

  it("refuses a row at once beyond its queue's cap, and takes rows again once there is room", async () => {
    const stalled = stalledWrite();
    const refusals: Refusal[] = [];
    const commit = createGroupCommit<string>({
      write: stalled.write,
      maxQueue: 2,
      deadlineMs: 60_000,
      onRefusal: (refusal) => refusals.push(refusal),
    });
    const inFlight = commit.add("a");
    await sleep(0);
    const queued = [commit.add("b"), commit.add("c")];
    const started = Date.now();
    await expect(commit.add("d")).rejects.toBeInstanceOf(CommitGivenUpError);
    expect(Date.now() - started).toBeLessThan(50);
    expect(refusals).toEqual([{ reason: "full", rows: 1, batch: false }]);

    stalled.release(0, 1);
    await inFlight;
    await sleep(0);
    expect(stalled.writes).toEqual([["a"], ["b", "c"]]);
    const later = commit.add("e");
    stalled.release(1, 2);
    await Promise.all(queued);
    await sleep(0);
    stalled.release(2, 1);
    await expect(later).resolves.toBeUndefined();
  });
});
