import { DAY_MS } from "@shared/days";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { memberships, organizations, sessions, users } from "../../db/schema";
import { generateToken, hashToken } from "../../lib/tokens";
import type { SessionAuth } from "../../plugins/auth";

export const SESSION_TTL_MS = 30 * DAY_MS;

export async function createSession(db: DbOrTx, userId: string): Promise<string> {
  const token = generateToken();
  await db.insert(sessions).values({
    userId,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + SESSION_TTL_MS),
  });
  return token;
}

/**
 * A live session and its user's active membership, in one query. Revoked, expired or unknown
 * tokens give null; so do users removed from the database (cascade).
 */
export async function resolveSession(db: DbOrTx, token: string): Promise<SessionAuth | null> {
  const [row] = await db
    .select({
      sessionId: sessions.id,
      userId: users.id,
      email: users.email,
      organizationId: memberships.organizationId,
      role: memberships.role,
      domainVerified: sql<boolean>`${organizations.domainVerifiedAt} is not null`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.status, "active")))
    .leftJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(
      and(
        eq(sessions.tokenHash, hashToken(token)),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function revokeSession(db: DbOrTx, sessionId: string): Promise<void> {
  await db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, sessionId));
}

export async function revokeAllSessions(db: DbOrTx, userId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}
