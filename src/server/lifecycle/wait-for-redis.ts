import { once } from "node:events";
import type { Redis } from "ioredis";

/**
 * Resolves once Redis is connected, or after `ms` whatever its state: until it is, the limits and
 * the click memory use each process's own (their fallback), so an absent Redis never holds up
 * start-up.
 */
export async function waitForRedis(redis: Redis, ms: number): Promise<void> {
  if (redis.status === "ready") return;
  const gaveUp = AbortSignal.timeout(ms);
  await once(redis, "ready", { signal: gaveUp }).catch(() => {});
}
