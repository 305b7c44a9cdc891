// Issue 28's export target: a million rows streamed with the server's heap growing by less than
// 50 MB. The server runs with bench/heap-probe.mjs, which writes down the heap V8 leaves after each
// collection: the growth is what the export retains, not garbage that V8 has yet to collect.
import { readFileSync } from "node:fs";
import { isoDay, windowStart } from "@shared/days";
import type { BuddyProcess } from "../src/server/testing/buddy-process";
import { processCpuMs, record } from "./harness";

const HEAP_GROWTH_MB = 50;
const MB = 1024 * 1024;
/** Where the client stops reading; the server's CPU is then read every STALL_STEP_MS until it idles. */
const STALL_AFTER_BYTES = 20 * MB;
const STALL_STEP_MS = 500;
/** Idle: at most this much CPU in a step (10 %: timers, the probe). */
const STALL_IDLE_CPU_MS = 50;
const STALL_MAX_MS = 30_000;

type ProbeLine = { t: number; gc?: string; before?: number; after?: number; full?: number };

function probeLines(file: string): ProbeLine[] {
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch {}
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ProbeLine);
}

/** A full collection forced in the server (SIGUSR2 to the probe): the heap used after it. */
async function retainedHeap(buddy: BuddyProcess, file: string): Promise<number> {
  const seen = probeLines(file).length;
  process.kill(buddy.pid, "SIGUSR2");
  const deadline = Date.now() + 10_000;
  for (;;) {
    const full = probeLines(file)
      .slice(seen)
      .find((line) => line.full !== undefined)?.full;
    if (full !== undefined) return full;
    if (Date.now() > deadline) throw new Error("the server's heap probe did not answer SIGUSR2");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The reader stopped: how long the server went on working (filling the socket's buffers, which hold
 * several MB of compressed CSV, and the client's), or null if it never idled within STALL_MAX_MS;
 * then the heap it retained.
 */
async function stalledReader(buddy: BuddyProcess, heapProbeFile: string) {
  const stalled = performance.now();
  let cpu = processCpuMs(buddy.pid) ?? 0;
  let idleAfterMs: number | null = null;
  while (performance.now() - stalled < STALL_MAX_MS) {
    await sleep(STALL_STEP_MS);
    const now = processCpuMs(buddy.pid) ?? 0;
    const used = now - cpu;
    cpu = now;
    if (used <= STALL_IDLE_CPU_MS) {
      idleAfterMs = performance.now() - stalled;
      break;
    }
  }
  const heap = await retainedHeap(buddy, heapProbeFile);
  return { idleAfterMs, heap, ms: performance.now() - stalled };
}

/**
 * The sharer's conversions of the last 366 days (the million seeded both ways, and the bench's own),
 * read as a client would: the body's bytes and lines counted as they arrive. Around it, a full
 * collection in the server gives the heap retained before and after; meanwhile, the heap after
 * each mark-compact V8 ran on its own is what the export held at that moment. The growth is the
 * highest of these over the heap retained before.
 *
 * A client on the same machine reads faster than the server writes, so once in the download the
 * client stops reading for a while: the server must stop too (its CPU going idle, and a full
 * collection then, show whether it went on reading rows into memory).
 */
export async function benchExport(
  database: string,
  buddy: BuddyProcess,
  token: string,
  heapProbeFile: string,
  /** The sharer's conversions in the database: every one of them must arrive. */
  expectedRows: number,
) {
  const to = isoDay(Date.now());
  const from = windowStart(366);
  const before = await retainedHeap(buddy, heapProbeFile);
  const first = probeLines(heapProbeFile).length;
  const started = performance.now();
  const response = await fetch(`${buddy.origin}/api/exports/conversions.csv?from=${from}&to=${to}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  let bytes = 0;
  let lines = 0;
  let stall: Awaited<ReturnType<typeof stalledReader>> | null = null;
  const reader = response.body?.getReader();
  for (;;) {
    const chunk = await reader?.read();
    if (!chunk || chunk.done) break;
    bytes += chunk.value.byteLength;
    for (const byte of chunk.value) if (byte === 10) lines++;
    if (!stall && bytes >= STALL_AFTER_BYTES) stall = await stalledReader(buddy, heapProbeFile);
  }
  const seconds = (performance.now() - started - (stall?.ms ?? 0)) / 1000;
  const after = await retainedHeap(buddy, heapProbeFile);
  const during = probeLines(heapProbeFile)
    .slice(first)
    .filter((line) => line.gc !== undefined);
  const marks = during.filter((line) => line.gc === "MarkSweepCompact").map((line) => line.after ?? 0);
  const usedPeak = Math.max(before, ...during.map((line) => line.before ?? 0));
  const retainedPeak = Math.max(after, stall?.heap ?? 0, ...marks);
  const rows = lines - 1;
  const growthMb = (retainedPeak - before) / MB;
  const mb = (bytes: number) => (bytes / MB).toFixed(0);
  record({
    database,
    name: "GET /api/exports/conversions.csv (366 days)",
    connections: 1,
    ratio:
      `${rows} rows, ${mb(bytes)} MB in ${seconds.toFixed(1)} s (${Math.round(rows / seconds)} rows/s, ` +
      `the stall left out); heap retained ${mb(before)} → at most ${mb(retainedPeak)} ` +
      `(${marks.length} mark-compacts) → ${mb(after)} MB after, used (garbage included) at most ` +
      `${mb(usedPeak)} MB; reader stopped at ${mb(STALL_AFTER_BYTES)} MB: server ` +
      (stall?.idleAfterMs ? `idle after ${(stall.idleAfterMs / 1000).toFixed(1)} s` : "never idle") +
      `, heap retained then ${stall ? mb(stall.heap) : "—"} MB`,
    target: `retained heap growth < ${HEAP_GROWTH_MB} MB, rows = ${expectedRows}`,
    ok: response.status === 200 && rows === expectedRows && growthMb < HEAP_GROWTH_MB,
  });
}
