import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// The journal's fdatasyncs are held here so the test decides when (and whether) each one
// succeeds; every other file call is the real one, on real files.
type SyncCallback = (error: NodeJS.ErrnoException | null) => void;
const fsCalls = vi.hoisted(() => ({
  syncs: [] as Array<{ fd: number; done: (error?: NodeJS.ErrnoException) => void }>,
  syncedOnClose: [] as number[],
  closed: [] as number[],
}));
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  return {
    ...fs,
    fdatasync: (fd: number, callback: SyncCallback) => {
      fsCalls.syncs.push({ fd, done: (error) => callback(error ?? null) });
    },
    fdatasyncSync: (fd: number) => {
      fsCalls.syncedOnClose.push(fd);
      fs.fdatasyncSync(fd);
    },
    closeSync: (fd: number) => {
      fsCalls.closed.push(fd);
      fs.closeSync(fd);
    },
  };
});
const { openClickJournal } = await import("./click-journal");

const DELAY_MS = 20;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "click-journal-sync-"));
  fsCalls.syncs.length = 0;
  fsCalls.syncedOnClose.length = 0;
  fsCalls.closed.length = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const turn = () => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const files = () => readdirSync(dir).filter((name) => name.endsWith(".jsonl"));

describe("click journal in sync mode (PostgreSQL)", () => {
  it("answers once a line is written, then covers every write of the next milliseconds with one fdatasync", async () => {
    const journal = openClickJournal(dir, { sync: true, syncDelayMs: DELAY_MS });
    // Three turns of the event loop, three writes: each resolves without any sync.
    for (let i = 0; i < 3; i++) await journal.append(`{"id":"c${i}"}`);
    expect(journal.waiting()).toBe(3);
    expect(fsCalls.syncs).toHaveLength(0);

    await expect.poll(() => fsCalls.syncs.length).toBe(1);
    // One sync at a time: writes made while it runs wait for the next one.
    await journal.append('{"id":"c3"}');
    await sleep(DELAY_MS * 3);
    expect(fsCalls.syncs).toHaveLength(1);
    fsCalls.syncs[0]?.done();
    await expect.poll(() => fsCalls.syncs.length).toBe(2);
    fsCalls.syncs[1]?.done();
    // Nothing written since: no further sync.
    await sleep(DELAY_MS * 3);
    expect(fsCalls.syncs).toHaveLength(2);
    await journal.close();
  });

  it("reports a failed fdatasync and tries again a second later; the lines are stored all the same", async () => {
    const errors: unknown[] = [];
    const journal = openClickJournal(dir, {
      sync: true,
      syncDelayMs: DELAY_MS,
      onSyncError: (error) => errors.push(error),
    });
    await journal.append('{"id":"a"}');
    await expect.poll(() => fsCalls.syncs.length).toBe(1);
    fsCalls.syncs[0]?.done(Object.assign(new Error("EIO: i/o error, fdatasync"), { code: "EIO" }));
    await expect.poll(() => errors.length).toBe(1);
    // Not hammered at once…
    await sleep(DELAY_MS * 5);
    expect(fsCalls.syncs).toHaveLength(1);
    // …and the line was never lost to the failure.
    const batch = journal.next(10);
    expect(batch?.lines).toEqual(['{"id":"a"}']);
    await expect.poll(() => fsCalls.syncs.length, { timeout: 3_000 }).toBe(2);
    fsCalls.syncs[1]?.done();
    batch?.stored();
    await journal.close();
  });

  it("keeps a file open while its fdatasync runs, even once every line in it is stored", async () => {
    const journal = openClickJournal(dir, { sync: true, syncDelayMs: DELAY_MS, idleSealMs: 10 });
    await journal.append('{"id":"a"}');
    await expect.poll(() => fsCalls.syncs.length).toBe(1);
    const fd = fsCalls.syncs[0]?.fd as number;
    journal.next(10)?.stored();
    // The file would be sealed and removed after 10 ms of quiet, but its sync holds it open.
    await sleep(50);
    expect(fsCalls.closed).not.toContain(fd);
    fsCalls.syncs[0]?.done();
    await expect.poll(() => fsCalls.closed).toContain(fd);
    await expect.poll(() => files()).toEqual([]);
    await journal.close();
  });

  it("syncs what is still unsynced when closed, waiting for the sync in flight", async () => {
    const journal = openClickJournal(dir, { sync: true, syncDelayMs: DELAY_MS });
    await journal.append('{"id":"a"}');
    await expect.poll(() => fsCalls.syncs.length).toBe(1);
    await journal.append('{"id":"b"}');
    await turn();
    let closed = false;
    const closing = journal.close().then(() => {
      closed = true;
    });
    await sleep(DELAY_MS * 2);
    expect(closed).toBe(false);
    fsCalls.syncs[0]?.done();
    await closing;
    expect(fsCalls.syncedOnClose).toEqual([fsCalls.syncs[0]?.fd]);
    // Both clicks wait for the database: the file stays for the next start.
    expect(files()).toHaveLength(1);
  });

  it("never syncs without sync mode (PGlite)", async () => {
    const journal = openClickJournal(dir, { sync: false, syncDelayMs: DELAY_MS });
    await journal.append('{"id":"a"}');
    await sleep(DELAY_MS * 3);
    await journal.close();
    expect(fsCalls.syncs).toEqual([]);
    expect(fsCalls.syncedOnClose).toEqual([]);
  });
});
