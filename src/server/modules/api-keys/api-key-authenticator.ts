import type { FastifyBaseLogger } from "fastify";
import { LRUCache } from "lru-cache";
import { CHANNELS, type ChangeNotifications } from "../../db/change-notifications";
import type { Db } from "../../db/client";
import { hashToken } from "../../lib/tokens";
import type { ApiKeyAuth } from "../../plugins/auth";
import type { SecurityActor } from "../security-log/security-log.service";
import {
  findLiveApiKey,
  isWellFormedApiKey,
  LAST_USED_RESOLUTION_MS,
  recordApiKeyUse,
  revokeApiKey,
} from "./api-keys.service";

declare module "fastify" {
  interface FastifyInstance {
    /** x-api-key authentication from memory; revocation reaches every instance at once. */
    apiKeys: ApiKeyAuthenticator;
  }
}

export type ApiKeyCacheLimits = {
  liveMax: number;
  /** A safety net only: revocations arrive as notifications, this bounds a missed one anyway. */
  liveTtlMs: number;
  unknownMax: number;
  unknownTtlMs: number;
};

export const API_KEY_CACHE_LIMITS: ApiKeyCacheLimits = {
  liveMax: 10_000,
  liveTtlMs: 5 * 60_000,
  unknownMax: 10_000,
  unknownTtlMs: 60_000,
};

type CachedKey = { auth: ApiKeyAuth; lastUsedAt: number };

/**
 * The public API answers from memory: key hash → organization. A live key is trusted from the
 * cache only while change notifications are live, so a revocation missed while the listener was
 * down can never keep a key working; then every request asks the database.
 */
export function createApiKeyAuthenticator(deps: {
  db: Db;
  notifications: ChangeNotifications;
  log: Pick<FastifyBaseLogger, "warn">;
  limits?: Partial<ApiKeyCacheLimits>;
}) {
  const { db, notifications, log } = deps;
  const limits = { ...API_KEY_CACHE_LIMITS, ...deps.limits };
  const live = new LRUCache<string, CachedKey>({ max: limits.liveMax, ttl: limits.liveTtlMs });
  // Needs no notification: a revoked key stays revoked, and a new key's 256 random bits are never
  // sent before it exists. Bounded, so a flood of made-up keys costs a query each, not memory.
  const unknown = new LRUCache<string, true>({ max: limits.unknownMax, ttl: limits.unknownTtlMs });
  const lastWrites = new LRUCache<string, number>({ max: limits.liveMax });
  const pendingWrites = new Set<Promise<void>>();
  // Changes with every revocation and listener gap: a database read that raced one is not cached.
  let generation = 0;

  const forget = (keyHash: string) => {
    live.delete(keyHash);
    generation++;
  };
  notifications.subscribe(CHANNELS.apiKeyRevoked, {
    onNotify: forget,
    onGap() {
      live.clear();
      generation++;
    },
  });

  /**
   * lastUsed at most once a minute per key, written beside the request rather than before it.
   * Returns when it was last written, as far as this instance knows.
   */
  function noteUse(apiKeyId: string, lastUsedAt: number, now: number): number {
    const last = Math.max(lastUsedAt, lastWrites.get(apiKeyId) ?? 0);
    if (now - last < LAST_USED_RESOLUTION_MS) return last;
    lastWrites.set(apiKeyId, now);
    const write: Promise<void> = recordApiKeyUse(db, apiKeyId, now)
      .catch((error) => log.warn({ err: error }, "could not record an API key's last use"))
      .finally(() => pendingWrites.delete(write));
    pendingWrites.add(write);
    return now;
  }

  /** A live key trusted from memory (see above), its use noted; undefined when memory cannot say. */
  function fromMemory(keyHash: string): ApiKeyAuth | undefined {
    if (!notifications.isLive()) return undefined;
    const hit = live.get(keyHash);
    if (!hit) return undefined;
    const now = Date.now();
    // The common case: used within the minute, nothing to write or look up.
    if (now - hit.lastUsedAt >= LAST_USED_RESOLUTION_MS)
      hit.lastUsedAt = noteUse(hit.auth.apiKeyId, hit.lastUsedAt, now);
    return hit.auth;
  }

  return {
    /**
     * A live key answered from memory without waiting on anything: the public API's common case,
     * checked without a promise. Undefined when memory cannot say; then `authenticate`.
     */
    remembered(key: string): ApiKeyAuth | undefined {
      return isWellFormedApiKey(key) ? fromMemory(hashToken(key)) : undefined;
    },

    async authenticate(key: string): Promise<ApiKeyAuth | null> {
      if (!isWellFormedApiKey(key)) return null;
      const keyHash = hashToken(key);
      const remembered = fromMemory(keyHash);
      if (remembered) return remembered;
      if (unknown.has(keyHash)) return null;
      const seen = generation;
      const row = await findLiveApiKey(db, keyHash);
      if (!row) {
        unknown.set(keyHash, true);
        return null;
      }
      // Shared by every request the cache answers: frozen.
      const auth = Object.freeze({ apiKeyId: row.apiKeyId, organizationId: row.organizationId });
      const lastUsedAt = noteUse(auth.apiKeyId, row.lastUsedAt?.getTime() ?? 0, Date.now());
      // Unchanged generation and live now: the listener was up for the whole read.
      if (seen === generation && notifications.isLive()) live.set(keyHash, { auth, lastUsedAt });
      return auth;
    },

    /** CONTRACT §7: the key stops working at once, here and, through the commit's NOTIFY, everywhere. */
    async revoke(organizationId: string, id: string, actor: SecurityActor): Promise<void> {
      const keyHash = await db.transaction(async (tx) => {
        const revoked = await revokeApiKey(tx, organizationId, id, actor);
        await notifications.publish(tx, CHANNELS.apiKeyRevoked, revoked);
        return revoked;
      });
      // Our own notification comes back later over the listener; this instance cannot wait for it.
      forget(keyHash);
    },

    /**
     * Keys revoked by another service's transaction (an organization changing hands), once it has
     * committed: this instance stops accepting them without waiting for its own notification.
     */
    forgetRevoked(keyHashes: readonly string[]): void {
      for (const keyHash of keyHashes) forget(keyHash);
    },

    /** Waits for lastUsed writes in flight (shutdown, tests). */
    async settled(): Promise<void> {
      await Promise.all(pendingWrites);
    },

    cacheSizes() {
      return { live: live.size, unknown: unknown.size };
    },
  };
}

export type ApiKeyAuthenticator = ReturnType<typeof createApiKeyAuthenticator>;
