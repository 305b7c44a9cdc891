import { performance } from "node:perf_hooks";

/**
 * Outside the excluded work, the loop works (answers requests) more than this share of the time.
 * A third, not more: storing clicks takes this thread with PGlite and the same machine's cores
 * with a local PostgreSQL. Under a load the loop answered 60 % of the time, storing at full speed
 * took what the answers needed (the bench's short link fell from about 60 to 40 % of the bare 302).
 */
const BUSY_SHARE = 0.3;
const LOAD_WINDOW_MS = 50;

/**
 * Whether the event loop is busy with everything but the caller's own background work (whose
 * milliseconds it passes in), over windows of at least 50 ms. Utilization, not a request rate:
 * a server answering a steady few hundred requests a second still has time to spare.
 */
export function createLoopLoad(share = BUSY_SHARE, windowMs = LOAD_WINDOW_MS) {
  let last = performance.eventLoopUtilization();
  let excluded = 0;
  let busy = false;
  return (ownMs: number): boolean => {
    excluded += ownMs;
    const window = performance.eventLoopUtilization(last);
    const elapsed = window.active + window.idle;
    if (elapsed >= windowMs) {
      // The share of the time left by our own work that other work took.
      const left = elapsed - excluded;
      busy = left > 0 && Math.max(0, window.active - excluded) / left > share;
      last = performance.eventLoopUtilization();
      excluded = 0;
    }
    return busy;
  };
}
