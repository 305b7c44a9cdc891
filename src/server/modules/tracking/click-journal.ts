import {
  closeSync,
  fdatasync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import path from "node:path";

/** One journal file. Deleted once every click in it is in the database. */
export type JournalSegment = {
  path: string;
  fd: number;
  size: number;
  /** Clicks written here and not yet in the database. */
  pending: number;
  sealed: boolean;
};

export type ClickJournal = {
  /** Resolves once the line is on disk (written and fdatasync'd), with the file holding it. */
  append(line: string): Promise<JournalSegment>;
  /** `count` clicks of `segment` are now in the database. */
  release(segment: JournalSegment, count: number): void;
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

type Entry = { line: string; resolve: (segment: JournalSegment) => void; reject: (error: unknown) => void };

const syncData = (fd: number) =>
  new Promise<void>((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));

/**
 * An append-only journal of clicks in DATA_DIR, written with group commit: the lines of the
 * requests of one turn of the event loop go together in one write. A click's request waits for
 * its own line, and only then answers 302.
 *
 * A written line survives the process being killed (it is in the kernel's page cache). With
 * `sync` each write is also fdatasync'd, so it survives a power cut: used with PostgreSQL,
 * whose commits are synced too. PGlite never syncs its own files, so on PGlite the journal
 * is exactly as durable as the database it feeds, and syncing it would buy nothing.
 */
export function openClickJournal(dir: string, options: { sync: boolean; idleSealMs?: number }): ClickJournal {
  const idleSealMs = options.idleSealMs ?? IDLE_SEAL_MS;
  mkdirSync(dir, { recursive: true });
  let active: JournalSegment | null = null;
  let queue: Entry[] = [];
  let flushScheduled = false;
  // Sync mode: batches written and waiting for the fdatasync in flight to finish.
  let unsynced: Array<{ entries: Entry[]; segment: JournalSegment }> = [];
  const syncing = new Set<Promise<void>>();
  let sequence = 0;
  const open = new Set<JournalSegment>();

  function openSegment(): JournalSegment {
    const name = `${Date.now()}-${process.pid}-${sequence++}${SUFFIX}`;
    const file = path.join(dir, name);
    const fd = openSync(file, "a", 0o600);
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

  function retireIfDone(segment: JournalSegment) {
    if (!segment.sealed || segment.pending > 0) return;
    open.delete(segment);
    closeSync(segment.fd);
    unlinkSync(segment.path);
  }

  function seal(segment: JournalSegment) {
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
      if (!active || active.pending > 0 || syncing.size || unsynced.length || queue.length) return;
      if (Date.now() - lastAppendAt < idleSealMs) sealWhenIdle();
      else seal(active);
    }, idleSealMs);
    idleTimer.unref();
  }

  /**
   * Once per turn of the event loop: the lines of every request of that turn go in one write.
   * A write to the page cache takes microseconds, so it is made right here — a round trip
   * through libuv's threads would leave the loop idle while every request waits for it.
   */
  function flush() {
    flushScheduled = false;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    let segment: JournalSegment;
    try {
      active ??= openSegment();
      segment = active;
      const buffer = Buffer.from(`${batch.map((entry) => entry.line).join("\n")}\n`);
      for (let offset = 0; offset < buffer.length; )
        offset += writeSync(segment.fd, buffer, offset, buffer.length - offset);
      segment.size += buffer.length;
      segment.pending += batch.length;
    } catch (error) {
      for (const entry of batch) entry.reject(error);
      return;
    }
    if (options.sync) unsynced.push({ entries: batch, segment });
    else for (const entry of batch) entry.resolve(segment);
    if (segment.size >= SEGMENT_BYTES) seal(segment);
    if (options.sync) startSync();
  }

  /**
   * Group commit: an fdatasync covers every batch written before it started. A few run at once
   * (libuv's threads), so a batch waits for its own sync rather than for the one in flight too.
   */
  function startSync() {
    if (syncing.size >= SYNCS_IN_FLIGHT || unsynced.length === 0) return;
    const groups = unsynced;
    unsynced = [];
    const fds = new Set(groups.map((group) => group.segment.fd));
    const sync: Promise<void> = Promise.all([...fds].map(syncData))
      .then(
        () => {
          for (const group of groups) for (const entry of group.entries) entry.resolve(group.segment);
        },
        (error: unknown) => {
          for (const group of groups) for (const entry of group.entries) entry.reject(error);
        },
      )
      .finally(() => {
        syncing.delete(sync);
        startSync();
      });
    syncing.add(sync);
  }

  return {
    append(line) {
      return new Promise<JournalSegment>((resolve, reject) => {
        queue.push({ line, resolve, reject });
        lastAppendAt = Date.now();
        if (!flushScheduled) {
          flushScheduled = true;
          setImmediate(flush);
        }
      });
    },
    release(segment, count) {
      segment.pending -= count;
      if (segment !== active) retireIfDone(segment);
      else if (segment.pending === 0) sealWhenIdle();
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
