import {
  closeSync,
  fdatasync,
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
};

/** The lines of one write: contiguous bytes of one segment. */
type Extent = { segment: Segment; offset: number; length: number; count: number };

/** The oldest durable lines waiting for the database, read back from the journal's files. */
export type JournalBatch = {
  lines: string[];
  /** They are in the database now: the journal forgets them (and deletes files left empty). */
  stored(): void;
};

export type ClickJournal = {
  /** Resolves once the line is on disk (written, and fdatasync'd in sync mode). */
  append(line: string): Promise<void>;
  /** Durable lines not yet handed over as stored. */
  waiting(): number;
  /**
   * Up to about `max` of the lines waiting longest (whole writes, at least one), or none when
   * `max` is 0. Calls must not overlap: the next batch starts where the last one stored ends.
   */
  next(max: number): JournalBatch | null;
  /** Files left by an earlier process (crash or failed drain), oldest first: their complete lines. */
  leftovers(): Array<{ path: string; lines: string[] }>;
  removeLeftover(file: string): void;
  /** Waits for writes in flight; files still holding clicks stay for the next start. */
  close(): Promise<void>;
};

const SEGMENT_BYTES = 8 * 1024 * 1024;
const IDLE_SEAL_MS = 2_000;
const SUFFIX = ".clicks.jsonl";
/** Within libuv's default pool of four threads, leaving one for other file and DNS work. */
const SYNCS_IN_FLIGHT = 3;

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
 * ended. Writes become durable in the order their fdatasyncs finish, which is not always the order
 * they were written in, so the queue is not assumed to be in file order.
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
 * A written line survives the process being killed (it is in the kernel's page cache). With
 * `sync` each write is also fdatasync'd, so it survives a power cut: used with PostgreSQL,
 * whose commits are synced too. PGlite never syncs its own files, so on PGlite the journal
 * is exactly as durable as the database it feeds, and syncing it would buy nothing.
 */
export function openClickJournal(dir: string, options: { sync: boolean; idleSealMs?: number }): ClickJournal {
  const idleSealMs = options.idleSealMs ?? IDLE_SEAL_MS;
  mkdirSync(dir, { recursive: true });
  let active: Segment | null = null;
  let group: Group | null = null;
  // Sync mode: writes made and waiting for an fdatasync to start.
  let unsynced: Array<{ group: Group; extent: Extent }> = [];
  const syncing = new Set<Promise<void>>();
  let sequence = 0;
  const open = new Set<Segment>();
  // Durable writes not yet stored, in the order they became durable: a queue with a moving head.
  let durable: Extent[] = [];
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
    const segment = { path: file, fd, size: 0, pending: 0, sealed: false };
    open.add(segment);
    return segment;
  }

  function retireIfDone(segment: Segment) {
    if (!segment.sealed || segment.pending > 0) return;
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
      if (!active || active.pending > 0 || syncing.size || unsynced.length || group) return;
      if (Date.now() - lastAppendAt < idleSealMs) sealWhenIdle();
      else seal(active);
    }, idleSealMs);
    idleTimer.unref();
  }

  function makeDurable(done: Group, extent: Extent) {
    durable.push(extent);
    waitingLines += extent.count;
    done.resolve();
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
    if (options.sync) {
      unsynced.push({ group: batch, extent });
      startSync();
    } else {
      makeDurable(batch, extent);
    }
    // Sealed once its lines are queued: the file stays open until they are stored.
    if (extent.segment.size >= SEGMENT_BYTES) seal(extent.segment);
  }

  /**
   * Group commit: an fdatasync covers every batch written before it started. A few run at once
   * (libuv's threads), so a batch waits for its own sync rather than for the one in flight too.
   */
  function startSync() {
    if (syncing.size >= SYNCS_IN_FLIGHT || unsynced.length === 0) return;
    const writes = unsynced;
    unsynced = [];
    const fds = new Set(writes.map((write) => write.extent.segment.fd));
    const sync: Promise<void> = Promise.all([...fds].map(syncData))
      .then(
        () => {
          for (const write of writes) makeDurable(write.group, write.extent);
        },
        (error: unknown) => {
          // Never answered, so never stored either: they stay in the file for the next start.
          for (const write of writes) write.group.reject(error);
        },
      )
      .finally(() => {
        syncing.delete(sync);
        startSync();
      });
    syncing.add(sync);
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
      if (max <= 0 || head === durable.length) return null;
      const taken: Extent[] = [];
      let count = 0;
      for (let i = head; i < durable.length; i++) {
        const extent = durable[i] as Extent;
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
          if (head > 10_000 && head * 2 > durable.length) {
            durable = durable.slice(head);
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
      while (syncing.size) await Promise.all(syncing);
      if (idleTimer) clearTimeout(idleTimer);
      if (active) seal(active);
      for (const segment of open) closeSync(segment.fd);
      open.clear();
    },
  };
}
