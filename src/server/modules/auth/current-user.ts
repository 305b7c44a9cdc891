import type { User } from "@shared/auth";
import type { DomainChallenge } from "@shared/domain-verification";
import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { domainClaims, memberships, organizations, users } from "../../db/schema";

/** CONTRACT §3's user object; onboarding is complete once the user is an active member. */
export function toUser(row: {
  userId: string;
  email: string;
  organizationId: string | null;
  role: "admin" | "member" | null;
  domainVerified: boolean;
}): User {
  return {
    id: row.userId,
    email: row.email,
    role: row.role,
    organizationId: row.organizationId,
    hasCompletedOnboarding: row.organizationId !== null,
    // CONTRACT §4: an organization whose domain nobody proved approves no one.
    canApproveMembers: row.organizationId !== null && row.role === "admin" && row.domainVerified,
  };
}

export async function loadUser(db: DbOrTx, userId: string): Promise<User | null> {
  const [row] = await db
    .select({
      userId: users.id,
      email: users.email,
      organizationId: memberships.organizationId,
      role: memberships.role,
      domainVerified: sql<boolean>`${organizations.domainVerifiedAt} is not null`,
    })
    .from(users)
    .leftJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.status, "active")))
    .leftJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(users.id, userId))
    .limit(1);
  return row ? toUser(row) : null;
}

/** The organization a user asked to join and awaits approval for, if any. */
export async function loadPendingOrganization(db: DbOrTx, userId: string): Promise<{ name: string } | null> {
  const [row] = await db
    .select({ name: organizations.name })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(and(eq(memberships.userId, userId), eq(memberships.status, "pending")))
    .limit(1);
  return row ?? null;
}

/** The domain the user's onboarding waits to see proven, and their token for it, if any. */
export async function loadDomainClaim(db: DbOrTx, userId: string): Promise<DomainChallenge | null> {
  const [row] = await db
    .select({ domain: domainClaims.domain, token: domainClaims.token })
    .from(domainClaims)
    .where(eq(domainClaims.userId, userId))
    .limit(1);
  return row ?? null;
}

/** A user without an organization, with what they wait for: an approval or a domain proof. */
export async function withOnboardingState(db: DbOrTx, user: User): Promise<User> {
  if (user.organizationId) return user;
  const pendingOrganization = await loadPendingOrganization(db, user.id);
  const domainClaim = await loadDomainClaim(db, user.id);
  return { ...user, pendingOrganization, domainClaim };
}
