import type { User } from "@shared/auth";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { memberships, organizations, users } from "../../db/schema";

/** CONTRACT §3's user object; onboarding is complete once the user is an active member. */
export function toUser(row: {
  userId: string;
  email: string;
  organizationId: string | null;
  role: "admin" | "member" | null;
}): User {
  return {
    id: row.userId,
    email: row.email,
    role: row.role,
    organizationId: row.organizationId,
    hasCompletedOnboarding: row.organizationId !== null,
    canApproveMembers: row.organizationId !== null && row.role === "admin",
  };
}

export async function loadUser(db: DbOrTx, userId: string): Promise<User | null> {
  const [row] = await db
    .select({
      userId: users.id,
      email: users.email,
      organizationId: memberships.organizationId,
      role: memberships.role,
    })
    .from(users)
    .leftJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.status, "active")))
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
