import type { Redis } from "ioredis";
import { AppError, RateLimitedError } from "../errors";
import { createLimiter, retryAfterSeconds, take } from "./rate-limit";

/** Wrong passwords one client address may try for one address within the window. */
export const LOGIN_FAILURES_PER_CLIENT = 5;

export type LoginLimiter = {
  /**
   * Runs one sign-in of `address` from `client`, or refuses it with 429. A wrong password is the
   * 401 `signIn` throws.
   */
  attempt<T>(address: string, client: string, signIn: () => Promise<T>): Promise<T>;
};

/**
 * Failures are counted per (address, client) and per address. A client is stopped after its own
 * few failures; once the address's failures reach `perAddress` in total, every client that has
 * failed on it is held back, while one that has not still gets its try. So a guesser's clients
 * get a try or a few each, and the owner, signing in from a client that never failed, is never
 * locked out by someone else's failures. With Redis both counts are shared by every instance.
 */
export function createLoginLimiter(options: {
  perAddress: { points: number; durationSeconds: number };
  perClient?: number;
  redis?: Redis;
}): LoginLimiter {
  const { points, durationSeconds } = options.perAddress;
  const perClient = createLimiter(
    options.redis,
    "rl:login-client",
    options.perClient ?? LOGIN_FAILURES_PER_CLIENT,
    durationSeconds,
  );
  const perAddress = createLimiter(options.redis, "rl:login-addr", points, durationSeconds);

  return {
    async attempt(address, client, signIn) {
      const addressKey = address.trim().toLowerCase();
      const clientKey = `${addressKey}|${client}`;
      // Taken before the password is checked, so parallel guesses from one client cannot get past
      // it; a sign-in gives it back.
      const own = await take(perClient, clientKey);
      if (own.consumedPoints > 1) {
        const total = await perAddress.get(addressKey);
        if (total && total.consumedPoints >= points) throw new RateLimitedError(retryAfterSeconds(own));
      }
      try {
        const result = await signIn();
        await perClient.delete(clientKey);
        return result;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        if (error.statusCode === 401) await perAddress.penalty(addressKey);
        // Any other answer (unverified, say) came after the right password.
        else await perClient.delete(clientKey);
        throw error;
      }
    },
  };
}
