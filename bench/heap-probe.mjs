// Loaded into the bench's server (`node --expose-gc --import bench/heap-probe.mjs`), never into
// production: the heap as V8 leaves it after each of its collections, which sampling
// `nodejs_heap_size_used_bytes` cannot tell from garbage not yet collected. One JSON line per event
// is appended to HEAP_PROBE_FILE:
// - `{ t, gc, before, after }` for each collection V8 ran on its own (`gc`: Scavenge,
//   MarkSweepCompact…; `before` and `after`: heap used, bytes), gathered by v8.GCProfiler, which
//   records what V8 measures around the collection itself and needs no flag;
// - `{ t, full }` on SIGUSR2: a full collection forced there, the heap used after it (what is
//   retained at that moment, and nothing else).
import { appendFileSync } from "node:fs";
import v8 from "node:v8";

const file = process.env.HEAP_PROBE_FILE;
if (file) {
  let profiler = new v8.GCProfiler();
  profiler.start();
  const flush = () => {
    const { statistics } = profiler.stop();
    profiler = new v8.GCProfiler();
    profiler.start();
    const t = Date.now();
    const lines = statistics.map((entry) =>
      JSON.stringify({
        t,
        gc: entry.gcType,
        before: entry.beforeGC.heapStatistics.usedHeapSize,
        after: entry.afterGC.heapStatistics.usedHeapSize,
      }),
    );
    if (lines.length) appendFileSync(file, `${lines.join("\n")}\n`);
  };
  setInterval(flush, 100).unref();
  process.on("SIGUSR2", () => {
    flush();
    globalThis.gc?.();
    // The profiler saw the forced collection too: dropped, the line below says it.
    profiler.stop();
    profiler = new v8.GCProfiler();
    profiler.start();
    appendFileSync(
      file,
      `${JSON.stringify({ t: Date.now(), full: v8.getHeapStatistics().used_heap_size })}\n`,
    );
  });
}
