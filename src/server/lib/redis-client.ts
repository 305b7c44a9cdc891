import type { FastifyBaseLogger } from "fastify";
import { Redis } from "ioredis";

/**
 * The instance's Redis connection. An outage is logged once, as a warning, and its end once;
 * ioredis reconnects by itself, and meanwhile every user of Redis falls back to the process's own
 * memory. Without a listener ioredis would print every failed reconnect with its stack.
 */
export function createRedisClient(url: string, log: FastifyBaseLogger): Redis {
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, enableAutoPipelining: true });
  let down = false;
  redis.on("error", (error: Error) => {
    if (down) return;
    down = true;
    log.warn(`Redis: ${error.message}; limits and click memory are per instance until it is back`);
  });
  redis.on("ready", () => {
    if (!down) return;
    down = false;
    log.info("Redis: connected again");
  });
  return redis;
}
