import type { Redis } from "ioredis";
import { AppError, RateLimitedError } from "../errors";
import { clientNetwork } from "../lib/client-network";
import { createLimiter, retryAfterSeconds, take } from "./rate-limit";

/** Wrong passwords one client address may try for one address within the window. */
export const LOGIN_FAILURES_PER_CLIENT = 5;
/**
 * While an address is under attack, the wrong passwords a client it does not know may make before
 * it is held back: the owner's typo and its retry.
 */
export const LOGIN_FAILURES_UNDER_ATTACK = 2;
/**
 * How long a client that signed in stays known to its address. Not 30 days: the in-process store
 * (and Redis's insurance) expires a key with a timer, and Node's timers stop at 24.8 days.
 */
export const KNOWN_CLIENT_SECONDS = 21 * 24 * 60 * 60;

export type LoginLimiter = {
  /**
   * Runs one sign-in of `address` from `client`, or refuses it with 429. A wrong password is the
   * 401 `signIn` throws.
   */
  attempt<T>(address: string, client: string, signIn: () => Promise<T>): Promise<T>;
};

/**
 * Failures are counted per (address, client) and per address. A client is stopped after its own
 * few failures. Once the address's failures reach `perAddress` in total it is under attack: a
 * client that has not signed in to it lately is then held back after its second failure, so a
 * guesser gets two tries per client address however many it has, and the owner on a new device
 * still gets the attempt after a typo; a client that has signed in keeps its own allowance. With
 * Redis the counts and the known clients are shared by every instance.
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
  // A key store more than a limit: a key is there while its client is known.
  const knownClients = createLimiter(options.redis, "rl:login-known", 1, KNOWN_CLIENT_SECONDS);

  const heldBack = async (addressKey: string, clientKey: string) => {
    const total = await perAddress.get(addressKey);
    if (!total || total.consumedPoints < points) return false;
    return !(await knownClients.get(clientKey));
  };

  return {
    async attempt(address, client, signIn) {
      const addressKey = address.trim().toLowerCase();
      const clientKey = `${addressKey}|${clientNetwork(client)}`;
      // Taken before the password is checked, so parallel guesses from one client cannot get past
      // it; a sign-in gives it back. This attempt is one of the points.
      const own = await take(perClient, clientKey);
      if (own.consumedPoints > LOGIN_FAILURES_UNDER_ATTACK && (await heldBack(addressKey, clientKey))) {
        throw new RateLimitedError(retryAfterSeconds(own));
      }
      try {
        const result = await signIn();
        await Promise.all([
          perClient.delete(clientKey),
          knownClients.set(clientKey, 1, KNOWN_CLIENT_SECONDS),
        ]);
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
