import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { adjacentRuns, openClickJournal } from "./click-journal";

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "click-journal-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const files = (dir: string) => readdirSync(dir).filter((name) => name.endsWith(".jsonl"));

describe("click journal", () => {
  it("writes concurrent appends together, one line each, before resolving", async () => {
    const dir = freshDir();
    const journal = openClickJournal(dir, { sync: true });
    const lines = Array.from({ length: 50 }, (_, i) => JSON.stringify({ id: `c${i}` }));
    await Promise.all(lines.map((line) => journal.append(line)));
    const [file] = files(dir);
    expect(file).toBeDefined();
    expect(readFileSync(path.join(dir, file as string), "utf8")).toBe(`${lines.join("\n")}\n`);
    expect(journal.waiting()).toBe(50);
    await journal.close();
  });

  it("hands waiting lines back from its files, oldest first, in whole writes", async () => {
    const dir = freshDir();
    const journal = openClickJournal(dir, { sync: false });
    // Three turns of the event loop: three writes of 2, 3 and 1 lines (one with multi-byte text).
    await Promise.all(['{"id":"a"}', '{"id":"b"}'].map((line) => journal.append(line)));
    await Promise.all(['{"id":"c"}', '{"id":"dé"}', '{"id":"e"}'].map((line) => journal.append(line)));
    await journal.append('{"id":"f"}');
    expect(journal.waiting()).toBe(6);
    expect(journal.next(0)).toBeNull();

    const first = journal.next(4);
    // Whole writes only: the second write would pass 4.
    expect(first?.lines).toEqual(['{"id":"a"}', '{"id":"b"}']);
    // Not stored yet: asked again, the same lines come back (a failed statement is retried).
    expect(journal.next(4)?.lines).toEqual(first?.lines);
    first?.stored();
    expect(journal.waiting()).toBe(4);
    const rest = journal.next(1);
    // At least one write, even past the limit.
    expect(rest?.lines).toEqual(['{"id":"c"}', '{"id":"dé"}', '{"id":"e"}']);
    rest?.stored();
    const last = journal.next(100);
    expect(last?.lines).toEqual(['{"id":"f"}']);
    last?.stored();
    expect(journal.waiting()).toBe(0);
    expect(journal.next(100)).toBeNull();
    await journal.close();
  });

  it("reads extents as runs of adjacent bytes of one file, whatever order they are given in", () => {
    const one = {};
    const two = {};
    const extent = (segment: object, offset: number, length: number) => ({ segment, offset, length });
    const [a, b, c, d, e] = [
      extent(one, 0, 10),
      extent(one, 10, 5),
      extent(one, 15, 7),
      extent(two, 0, 4),
      extent(one, 30, 2),
    ];
    expect(adjacentRuns([c, a, d, b, e])).toEqual([[a, b, c], [e], [d]]);
  });

  it("hands every written line back exactly once while fdatasyncs run in the background", async () => {
    const dir = freshDir();
    const journal = openClickJournal(dir, { sync: true });
    const written: string[] = [];
    for (let turn = 0; turn < 20; turn++) {
      const lines = Array.from({ length: 1 + (turn % 7) }, (_, i) => JSON.stringify({ id: `t${turn}-${i}` }));
      written.push(...lines);
      // Not awaited one by one: writes go on while a sync runs.
      void Promise.all(lines.map((line) => journal.append(line)));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await expect.poll(() => journal.waiting(), { timeout: 5_000 }).toBe(written.length);
    const read: string[] = [];
    for (let batch = journal.next(9); batch; batch = journal.next(9)) {
      read.push(...batch.lines);
      batch.stored();
    }
    expect(read.sort()).toEqual([...written].sort());
    await journal.close();
  });

  it("keeps a file until every click in it is stored, then removes it once idle", async () => {
    const dir = freshDir();
    const journal = openClickJournal(dir, { sync: false, idleSealMs: 20 });
    await journal.append('{"id":"a"}');
    await journal.append('{"id":"b"}');
    journal.next(1)?.stored();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(files(dir)).toHaveLength(1);
    journal.next(1)?.stored();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(files(dir)).toEqual([]);
    // A later click starts a new file.
    await journal.append('{"id":"c"}');
    expect(files(dir)).toHaveLength(1);
    await journal.close();
  });

  it("hands a crashed process's complete lines to the next one, dropping a torn last line", async () => {
    const dir = freshDir();
    const first = openClickJournal(dir, { sync: true });
    await first.append('{"id":"x1"}');
    await first.append('{"id":"x2"}');
    await first.close(); // nothing released: both clicks still wait for the database
    const [file] = files(dir);
    writeFileSync(path.join(dir, file as string), '{"id":"x3","tor', { flag: "a" });

    const second = openClickJournal(dir, { sync: true });
    const leftovers = second.leftovers();
    expect(leftovers.map((l) => l.lines)).toEqual([['{"id":"x1"}', '{"id":"x2"}']]);
    for (const leftover of leftovers) second.removeLeftover(leftover.path);
    expect(files(dir)).toEqual([]);
    await second.close();
  });
});
