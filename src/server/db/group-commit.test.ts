import { describe, expect, it } from "vitest";
import { createGroupCommit } from "./group-commit";

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
});
