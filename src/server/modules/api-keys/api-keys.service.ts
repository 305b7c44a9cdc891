import { API_KEY_PREFIX, type ApiKey, maskApiKey } from "@shared/api-keys";
import { and, desc, eq, isNull, lt, or } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { apiKeys } from "../../db/schema";
import { notFound } from "../../errors";
import { generateToken, hashToken } from "../../lib/tokens";
import type { ApiKeyAuth } from "../../plugins/auth";
import { recordSecurityEvent, type SecurityActor } from "../security-log/security-log.service";

/** lastUsed is a hint for people, not an audit log: written at most once a minute per key. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export async function listApiKeys(db: DbOrTx, organizationId: string): Promise<ApiKey[]> {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.organizationId, organizationId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    key: maskApiKey(row.prefix, row.last4),
    createdAt: row.createdAt.toISOString(),
    lastUsed: row.lastUsedAt?.toISOString() ?? null,
  }));
}

/**
 * The full key exists only in this answer; the database keeps its SHA-256. The security log's
 * entry is written with it (CONTRACT §3).
 */
export async function createApiKey(db: DbOrTx, organizationId: string, name: string, actor: SecurityActor) {
  const key = `${API_KEY_PREFIX}${generateToken(32)}`;
  const id = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(apiKeys)
      .values({ organizationId, name, prefix: API_KEY_PREFIX, last4: key.slice(-4), keyHash: hashToken(key) })
      .returning({ id: apiKeys.id });
    if (!row) throw new Error("api key insert returned nothing");
    await recordSecurityEvent(tx, actor, { action: "api_key_created", organizationId, target: name });
    return row.id;
  });
  return { id, key };
}

/**
 * Revocation is for good, and in the security log. Returns the key's hash so the caller can drop
 * it from every instance's cache (api-key-authenticator.ts) in the same transaction.
 */
export async function revokeApiKey(
  tx: DbOrTx,
  organizationId: string,
  id: string,
  actor: SecurityActor,
): Promise<string> {
  const [row] = await tx
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.organizationId, organizationId), isNull(apiKeys.revokedAt)))
    .returning({ keyHash: apiKeys.keyHash, name: apiKeys.name });
  if (!row) throw notFound("API key not found");
  await recordSecurityEvent(tx, actor, { action: "api_key_revoked", organizationId, target: row.name });
  return row.keyHash;
}

export type LiveApiKey = ApiKeyAuth & { lastUsedAt: Date | null };

/** Ours are the prefix and 43 base64url characters: anything else is refused without a query. */
const API_KEY_FORMAT = new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9_-]{43}$`);

export function isWellFormedApiKey(key: string): boolean {
  return API_KEY_FORMAT.test(key);
}

export async function findLiveApiKey(db: DbOrTx, keyHash: string): Promise<LiveApiKey | null> {
  const [row] = await db
    .select({ apiKeyId: apiKeys.id, organizationId: apiKeys.organizationId, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)))
    .limit(1);
  return row ?? null;
}

/** Conditional, so concurrent requests (or instances) write it once a minute at most. */
export async function recordApiKeyUse(db: DbOrTx, apiKeyId: string, now: number): Promise<void> {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: new Date(now) })
    .where(
      and(
        eq(apiKeys.id, apiKeyId),
        or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(now - LAST_USED_RESOLUTION_MS))),
      ),
    );
}

/** Every live key of an organization revoked at once (it changed hands); returns their hashes. */
export async function revokeAllApiKeys(db: DbOrTx, organizationId: string): Promise<string[]> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.organizationId, organizationId), isNull(apiKeys.revokedAt)))
    .returning({ keyHash: apiKeys.keyHash });
  return rows.map((row) => row.keyHash);
}
