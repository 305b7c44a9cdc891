import {
  closeSync,
  fdatasync,
  fdatasyncSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import path from "node:path";

/** One journal file. Deleted once every click in it is in the database. */
type Segment = {
  path: string;
  fd: number;
  size: number;
  /** Clicks written here and not yet in the database. */
  pending: number;
  sealed: boolean;
  /** An fdatasync of its fd is in flight: it stays open until that ends. */
  syncing: boolean;
};

/** The lines of one write: contiguous bytes of one segment. */
type Extent = { segment: Segment; offset: number; length: number; count: number };

/** The oldest written lines waiting for the database, read back from the journal's files. */
export type JournalBatch = {
  lines: string[];
  /** They are in the database now: the journal forgets them (and deletes files left empty). */
  stored(): void;
};

export type ClickJournal = {
  /** Resolves once the line is written: in the kernel's page cache, it survives the process. */
  append(line: string): Promise<void>;
  /** Written lines not yet handed over as stored. */
  waiting(): number;
  /**
   * Up to about `max` of the lines waiting longest (whole writes, at least one), or none when
   * `max` is 0. Calls must not overlap: the next batch starts where the last one stored ends.
   */
  next(max: number): JournalBatch | null;
  /** Files left by an earlier process (crash or failed drain), oldest first: their complete lines. */
  leftovers(): Array<{ path: string; lines: string[] }>;
  removeLeftover(file: string): void;
  /** Writes and syncs what is in flight; files still holding clicks stay for the next start. */
  close(): Promise<void>;
};

const SEGMENT_BYTES = 8 * 1024 * 1024;
const IDLE_SEAL_MS = 2_000;
const SUFFIX = ".clicks.jsonl";
/** In sync mode, how long after a write (or after the sync in flight ends) the next sync starts… */
const SYNC_DELAY_MS = 10;
/** …unless the last one failed: the disk is not asked again at once. */
const SYNC_RETRY_MS = 1_000;

/** The requests of one turn of the event loop: one write, one promise they all wait for. */
type Group = { lines: string[]; done: Promise<void>; resolve(): void; reject(error: unknown): void };

function newGroup(): Group {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A click whose request is gone (a failed write nobody awaits any more) is no unhandled rejection.
  done.catch(() => {});
  return { lines: [], done, resolve, reject };
}

/**
 * Extents grouped into runs that one read covers: the same segment, each starting where the last
 * ended, whatever order the extents are given in.
 */
export function adjacentRuns<T extends { segment: object; offset: number; length: number }>(
  extents: readonly T[],
): T[][] {
  const order = new Map<object, number>();
  for (const extent of extents) if (!order.has(extent.segment)) order.set(extent.segment, order.size);
  const sorted = [...extents].sort(
    (a, b) => (order.get(a.segment) as number) - (order.get(b.segment) as number) || a.offset - b.offset,
  );
  const runs: T[][] = [];
  let run: T[] = [];
  for (const extent of sorted) {
    const previous = run[run.length - 1];
    if (
      previous &&
      (previous.segment !== extent.segment || previous.offset + previous.length !== extent.offset)
    ) {
      runs.push(run);
      run = [];
    }
    run.push(extent);
  }
  if (run.length) runs.push(run);
  return runs;
}

const syncData = (fd: number) =>
  new Promise<void>((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));

/**
 * An append-only journal of clicks in DATA_DIR, written with group commit: the lines of the
 * requests of one turn of the event loop go together in one write. A click's request waits for
 * its write, and only then answers 302.
 *
 * Waiting lines are not kept in memory: the database is fed by reading them back from the files
 * (the page cache), so a surge of clicks costs the heap nothing while they wait — a backlog of
 * hundreds of thousands of lines held as strings made every garbage collection slower.
 *
 * A written line survives the process being killed: it is in the kernel's page cache, which the
 * kernel writes to disk whatever becomes of the process. That is the crash a 302 waits for.
 *
 * A power cut is covered differently. With `sync` (PostgreSQL), written lines are fdatasync'd in
 * the background, one sync at a time, SYNC_DELAY_MS after a write, each covering every write
 * since the last. A power cut loses only the clicks written since the last sync ended, as
 * PostgreSQL's own `synchronous_commit = off` accepts for its commits. Waiting for an fdatasync
 * before each 302 doubled the CPU a click costs on a virtual disk. PGlite never syncs its own
 * files, so on PGlite the journal is exactly as durable as the database it feeds, and syncing it
 * would buy nothing.
 */
export function openClickJournal(
  dir: string,
  options: {
    sync: boolean;
    syncDelayMs?: number;
    idleSealMs?: number;
    onSyncError?: (error: unknown) => void;
  },
): ClickJournal {
  const idleSealMs = options.idleSealMs ?? IDLE_SEAL_MS;
  const syncDelayMs = options.syncDelayMs ?? SYNC_DELAY_MS;
  mkdirSync(dir, { recursive: true });
  let active: Segment | null = null;
  let group: Group | null = null;
  // Sync mode: segments written since their last fdatasync started, and the sync in flight.
  const unsynced = new Set<Segment>();
  let syncTimer: NodeJS.Timeout | null = null;
  let syncing: Promise<void> | null = null;
  let lastSyncFailed = false;
  let closed = false;
  let sequence = 0;
  const open = new Set<Segment>();
  // Written extents not yet stored, in the order they were written: a queue with a moving head.
  let written: Extent[] = [];
  let head = 0;
  let waitingLines = 0;

  function openSegment(): Segment {
    const name = `${Date.now()}-${process.pid}-${sequence++}${SUFFIX}`;
    const file = path.join(dir, name);
    // Read too: waiting lines are read back from here to be stored.
    const fd = openSync(file, "a+", 0o600);
    // The new name itself must survive a power cut, not only the data written under it.
    const dirFd = openSync(dir, "r");
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
    const segment = { path: file, fd, size: 0, pending: 0, sealed: false, syncing: false };
    open.add(segment);
    return segment;
  }

  function retireIfDone(segment: Segment) {
    if (!segment.sealed || segment.pending > 0 || segment.syncing || !open.has(segment)) return;
    // Every line in it is in the database: nothing left to sync.
    unsynced.delete(segment);
    open.delete(segment);
    closeSync(segment.fd);
    unlinkSync(segment.path);
  }

  function seal(segment: Segment) {
    segment.sealed = true;
    if (active === segment) active = null;
    retireIfDone(segment);
  }

  // Once everything written is stored and nothing new came for a while, the file goes: an idle
  // journal holds nothing to replay. Not at once: a new file per quiet millisecond would cost a
  // create and a directory sync each time under a steady trickle.
  let idleTimer: NodeJS.Timeout | null = null;
  let lastAppendAt = 0;
  function sealWhenIdle() {
    if (idleTimer) return;
    idleTimer = setTimeout(() => {
      idleTimer = null;
      // A store that empties it again arms this again. A sync in flight holds the file open itself.
      if (!active || active.pending > 0 || group) return;
      if (Date.now() - lastAppendAt < idleSealMs) sealWhenIdle();
      else seal(active);
    }, idleSealMs);
    idleTimer.unref();
  }

  /**
   * One fdatasync per segment written since the last began, one round at a time, in the
   * background: every write of those milliseconds shares it. A failed sync is retried with the
   * next round; the lines stay readable and reach the database all the same.
   */
  function scheduleSync() {
    if (!options.sync || closed || syncTimer || syncing || unsynced.size === 0) return;
    syncTimer = setTimeout(syncNow, lastSyncFailed ? SYNC_RETRY_MS : syncDelayMs);
  }

  function syncNow() {
    syncTimer = null;
    const segments = [...unsynced];
    unsynced.clear();
    for (const segment of segments) segment.syncing = true;
    lastSyncFailed = false;
    syncing = Promise.all(
      segments.map((segment) =>
        syncData(segment.fd).catch((error: unknown) => {
          unsynced.add(segment);
          lastSyncFailed = true;
          options.onSyncError?.(error);
        }),
      ),
    ).then(() => {
      syncing = null;
      for (const segment of segments) {
        segment.syncing = false;
        retireIfDone(segment);
      }
      scheduleSync();
    });
  }

  /**
   * Once per turn of the event loop: the lines of every request of that turn go in one write.
   * A write to the page cache takes microseconds, so it is made right here — a round trip
   * through libuv's threads would leave the loop idle while every request waits for it.
   */
  function flush() {
    const batch = group;
    group = null;
    if (!batch || batch.lines.length === 0) return;
    let extent: Extent;
    try {
      active ??= openSegment();
      const segment = active;
      const buffer = Buffer.from(`${batch.lines.join("\n")}\n`);
      for (let offset = 0; offset < buffer.length; )
        offset += writeSync(segment.fd, buffer, offset, buffer.length - offset);
      extent = { segment, offset: segment.size, length: buffer.length, count: batch.lines.length };
      segment.size += buffer.length;
      segment.pending += batch.lines.length;
    } catch (error) {
      batch.reject(error);
      return;
    }
    written.push(extent);
    waitingLines += extent.count;
    batch.resolve();
    if (options.sync) {
      unsynced.add(extent.segment);
      scheduleSync();
    }
    // Sealed once its lines are queued: the file stays open until they are stored.
    if (extent.segment.size >= SEGMENT_BYTES) seal(extent.segment);
  }

  /** The lines of a run of adjacent extents of one segment, in one read. */
  function readLines(run: Extent[]): string[] {
    const first = run[0] as Extent;
    const last = run[run.length - 1] as Extent;
    const length = last.offset + last.length - first.offset;
    const buffer = Buffer.allocUnsafe(length);
    for (let read = 0; read < length; ) {
      const n = readSync(first.segment.fd, buffer, read, length - read, first.offset + read);
      if (n === 0) throw new Error(`click journal ${first.segment.path} is shorter than written`);
      read += n;
    }
    // Every write ends with a newline.
    return buffer.toString("utf8", 0, length - 1).split("\n");
  }

  function release(extents: Extent[]) {
    for (const extent of extents) {
      const segment = extent.segment;
      segment.pending -= extent.count;
      if (segment !== active) retireIfDone(segment);
      else if (segment.pending === 0) sealWhenIdle();
    }
  }

  return {
    append(line) {
      lastAppendAt = Date.now();
      if (!group) {
        group = newGroup();
        setImmediate(flush);
      }
      group.lines.push(line);
      return group.done;
    },
    waiting: () => waitingLines,
    next(max) {
      if (max <= 0 || head === written.length) return null;
      const taken: Extent[] = [];
      let count = 0;
      for (let i = head; i < written.length; i++) {
        const extent = written[i] as Extent;
        if (taken.length > 0 && count + extent.count > max) break;
        taken.push(extent);
        count += extent.count;
      }
      const lines: string[] = [];
      for (const run of adjacentRuns(taken)) lines.push(...readLines(run));
      if (lines.length !== count) throw new Error(`click journal: read ${lines.length} lines of ${count}`);
      return {
        lines,
        stored() {
          head += taken.length;
          waitingLines -= count;
          if (head > 10_000 && head * 2 > written.length) {
            written = written.slice(head);
            head = 0;
          }
          release(taken);
        },
      };
    },
    leftovers() {
      return readdirSync(dir)
        .filter((name) => name.endsWith(SUFFIX))
        .sort()
        .map((name) => {
          const file = path.join(dir, name);
          const text = readFileSync(file, "utf8");
          // A crash in the middle of a write leaves a torn last line: its request never got a 302.
          const lines = text.split("\n").filter((line) => {
            if (!line) return false;
            try {
              JSON.parse(line);
              return true;
            } catch {
              return false;
            }
          });
          return { path: file, lines };
        });
    },
    removeLeftover(file) {
      unlinkSync(file);
    },
    async close() {
      flush();
      closed = true;
      if (syncTimer) clearTimeout(syncTimer);
      syncTimer = null;
      await syncing;
      // What is still unsynced goes to disk before the files are let go.
      for (const segment of unsynced) {
        try {
          fdatasyncSync(segment.fd);
        } catch (error) {
          options.onSyncError?.(error);
        }
      }
      unsynced.clear();
      if (idleTimer) clearTimeout(idleTimer);
      if (active) seal(active);
      for (const segment of open) closeSync(segment.fd);
      open.clear();
    },
  };
}
