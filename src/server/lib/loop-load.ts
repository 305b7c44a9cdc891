import { performance } from "node:perf_hooks";

/**
 * Outside the excluded work, the loop works (answers requests) more than this share of the time.
 * A third, not more: storing clicks takes this thread with PGlite, and the same machine's cores
 * with a local PostgreSQL. Under the bench's load the loop answered about 60 % of the time, so
 * at 70 % storing ran at full speed beside the redirects: in A/B runs on PGlite the short link
 * made 38–61 % of the bare 302's rate at 50 connections and 41–42 % at 200, against 47–63 % and
 * 57–78 % with a third.
 */
const BUSY_SHARE = 0.3;
const LOAD_WINDOW_MS = 50;

/**
 * Whether the event loop is busy with everything but the caller's own background work (whose
 * milliseconds it passes in), over windows of at least 50 ms of everything else. Utilization,
 * not a request rate: a server answering a steady few hundred requests a second still has time
 * to spare.
 */
export function createLoopLoad(share = BUSY_SHARE, windowMs = LOAD_WINDOW_MS) {
  let last = performance.eventLoopUtilization();
  let excluded = 0;
  let busy = false;
  return (ownMs: number): boolean => {
    excluded += ownMs;
    const window = performance.eventLoopUtilization(last);
    // The time our own work left to the rest: the window lasts until there are 50 ms of it.
    // Measured over the whole time instead, a window filled by a batch of our own left a
    // millisecond or two to judge by, and the verdict flipped at random while catching up.
    const left = window.active + window.idle - excluded;
    if (left >= windowMs) {
      busy = Math.max(0, window.active - excluded) / left > share;
      last = performance.eventLoopUtilization();
      excluded = 0;
    }
    return busy;
  };
}
