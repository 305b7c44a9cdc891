/**
 * Whether the server is under load: more than `perSecond` requests started per second over the
 * last window. Background work (storing journaled clicks) steps back while it is, so requests
 * keep the CPU — PGlite runs its queries on the same thread as the requests.
 */
export function createBusySignal(requestsStarted: () => number, perSecond = 200, windowMs = 100) {
  let windowStart = performance.now();
  let countAtStart = requestsStarted();
  let busy = false;
  return (): boolean => {
    const now = performance.now();
    const elapsed = now - windowStart;
    if (elapsed >= windowMs) {
      const count = requestsStarted();
      busy = ((count - countAtStart) * 1000) / elapsed > perSecond;
      windowStart = now;
      countAtStart = count;
    }
    return busy;
  };
}
