import type { Redis } from "ioredis";
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from "rate-limiter-flexible";
import { RateLimitedError } from "../errors";

/**
 * A limiter of `points` per `duration` seconds and key. The named limits are declared in
 * limits.ts; sign-in's in login-limiter.ts.
 */
export function createLimiter(redis: Redis | undefined, keyPrefix: string, points: number, duration: number) {
  if (!redis) return new RateLimiterMemory({ keyPrefix, points, duration });
  // If Redis is unreachable the process keeps limiting on its own rather than failing requests,
  // and at once while the client is reconnecting: a command would wait out its reconnect attempts.
  const insuranceLimiter = new RateLimiterMemory({ keyPrefix, points, duration });
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    points,
    duration,
    insuranceLimiter,
    rejectIfRedisNotReady: true,
  });
}

/** Takes a point of `key`'s allowance, or refuses with 429 and the seconds until it is back. */
export async function take(limiter: RateLimiterAbstract, key: string): Promise<RateLimiterRes> {
  try {
    return await limiter.consume(key);
  } catch (result) {
    if (result instanceof RateLimiterRes) throw new RateLimitedError(retryAfterSeconds(result));
    throw result;
  }
}

export const retryAfterSeconds = (result: RateLimiterRes) =>
  Math.max(1, Math.ceil(result.msBeforeNext / 1000));
