import type { Redis } from "ioredis";
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from "rate-limiter-flexible";
import { RateLimitedError } from "../errors";
import { clientNetwork } from "../lib/client-network";

export type RateLimitKey = {
  /**
   * The route family (login, signup, team-invite…). Each family has its own per-client and
   * per-address allowance, so a client sending invitations or reset mails never eats its logins.
   */
  action: string;
  /** The client address; omitted for limits that are not per client. */
  ip?: string;
  /** The e-mail address concerned, when the request names one. */
  address?: string;
};

export type AccountRateLimiter = { consume(key: RateLimitKey): Promise<void> };

export type RateLimitOptions = {
  perIpPerMinute: number;
  perAddress: { points: number; durationSeconds: number };
  redis?: Redis;
};

/**
 * Per CONTRACT §1: a per-client limit (0 turns it off) and a per-address limit that always applies.
 * For sign-ins the per-address limit is the total of wrong passwords (login-limiter.ts).
 */
export const DEFAULT_PER_ADDRESS = { points: 10, durationSeconds: 15 * 60 };

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

/**
 * An allowance per client address and minute for one public route, shared through Redis like
 * the others; null when off (0).
 */
export function createPerClientLimit(
  redis: Redis | undefined,
  keyPrefix: string,
  perMinute: number,
): ((client: string) => Promise<void>) | null {
  if (perMinute <= 0) return null;
  const limiter = createLimiter(redis, keyPrefix, perMinute, 60);
  return async (client) => {
    await take(limiter, clientNetwork(client));
  };
}

export function createAccountRateLimiter(options: RateLimitOptions): AccountRateLimiter {
  const perIp: RateLimiterAbstract | null =
    options.perIpPerMinute > 0 ? createLimiter(options.redis, "rl:ip", options.perIpPerMinute, 60) : null;
  const perAddress = createLimiter(
    options.redis,
    "rl:addr",
    options.perAddress.points,
    options.perAddress.durationSeconds,
  );

  return {
    async consume({ action, ip, address }) {
      if (perIp && ip) await take(perIp, `${action}:${clientNetwork(ip)}`);
      if (address) await take(perAddress, `${action}:${address.toLowerCase()}`);
    },
  };
}
