import type { FastifyBaseLogger } from "fastify";
import { Redis } from "ioredis";
import { withTimeout } from "./bounded-wait";

/**
 * A Redis that keeps its connection but stops answering (a stall, a half-open socket) sends no
 * event: a connected client asks it every `everyMs`, and counts it down without an answer within
 * `withinMs`.
 */
export type RedisChecks = { everyMs: number; withinMs: number };

const CHECKS: RedisChecks = { everyMs: 5_000, withinMs: 1_000 };

export type RedisClient = {
  redis: Redis;
  /** Whether Redis answers: the `buddy_redis_up` gauge. Nothing waits for it (every user falls back). */
  up(): boolean;
  close(): void;
};

/**
 * The instance's Redis connection. An outage is logged once, as a warning, and its end once;
 * ioredis reconnects by itself, and meanwhile every user of Redis falls back to the process's own
 * memory. Without a listener ioredis would print every failed reconnect with its stack.
 */
export function createRedisClient(url: string, log: FastifyBaseLogger, checks = CHECKS): RedisClient {
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, enableAutoPipelining: true });
  let up = false;
  let warned = false;
  let closing = false;
  const markDown = (reason: string) => {
    up = false;
    if (warned || closing) return;
    warned = true;
    log.warn(`Redis: ${reason}; limits and click memory are per instance until it is back`);
  };
  const markUp = () => {
    up = true;
    if (!warned) return;
    warned = false;
    log.info("Redis: answering again");
  };
  redis.on("error", (error: Error) => markDown(error.message));
  redis.on("close", () => markDown("connection closed"));
  redis.on("ready", markUp);

  let checking = false;
  const check = async () => {
    // Not connected: the events above already say so, and a PING would only wait in the queue.
    if (checking || redis.status !== "ready") return;
    checking = true;
    try {
      await withTimeout(redis.ping(), checks.withinMs, () => {
        throw new Error(`no answer within ${checks.withinMs} ms`);
      });
      markUp();
    } catch (error) {
      markDown((error as Error).message);
    } finally {
      checking = false;
    }
  };
  const asking = setInterval(() => void check(), checks.everyMs);
  asking.unref();

  return {
    redis,
    up: () => up,
    close() {
      closing = true;
      clearInterval(asking);
      redis.disconnect();
    },
  };
}
