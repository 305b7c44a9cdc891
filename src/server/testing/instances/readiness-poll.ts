// /readyz asked every 100 ms through a fault, each answer kept with its time.
import { setTimeout as sleep } from "node:timers/promises";

export type Readiness = {
  /** When the answer (or the failure) arrived, ms since epoch. */
  at: number;
  /** How long it took, in ms. */
  ms: number;
  /** The HTTP status, or 0 when no answer came within the timeout. */
  status: number;
};

/** GET /readyz every 100 ms until stopped, each given `timeoutMs` to answer. */
export function pollReadiness(origin: string, options: { timeoutMs?: number } = {}) {
  const seen: Readiness[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const sent = Date.now();
      let status = 0;
      try {
        const response = await fetch(`${origin}/readyz`, {
          signal: AbortSignal.timeout(options.timeoutMs ?? 2000),
        });
        status = response.status;
        await response.arrayBuffer();
      } catch {}
      seen.push({ at: Date.now(), ms: Date.now() - sent, status });
      await sleep(100);
    }
  })();
  return {
    seen,
    async stop() {
      running = false;
      await loop;
    },
  };
}
