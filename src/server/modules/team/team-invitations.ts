import { INVITATION_TTL_DAYS } from "@shared/team";
import { and, eq, gt, isNull, ne } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { memberships, teamInvitations } from "../../db/schema";
import { generateToken, hashToken } from "../../lib/tokens";

type Role = "admin" | "member";

export const invitationExpiry = (now = Date.now()) =>
  new Date(now + INVITATION_TTL_DAYS * 24 * 60 * 60 * 1000);

/** A fresh token and its hash; only the hash is stored, the token goes into the mail. */
export function newInvitationToken() {
  const token = generateToken();
  return { token, tokenHash: hashToken(token) };
}

/**
 * Makes the user an active member with the invited role. Requests to join other organizations
 * are void once the user belongs to one (as in onboarding).
 */
async function joinOrganization(tx: DbOrTx, userId: string, organizationId: string, role: Role) {
  await tx
    .delete(memberships)
    .where(
      and(
        eq(memberships.userId, userId),
        eq(memberships.status, "pending"),
        ne(memberships.organizationId, organizationId),
      ),
    );
  await tx
    .insert(memberships)
    .values({ organizationId, userId, role, status: "active" })
    .onConflictDoUpdate({
      target: [memberships.organizationId, memberships.userId],
      set: { role, status: "active" },
    });
}

/**
 * Sign-up or sign-in through an invitation link: the token is single-use, unexpired and issued
 * for this very address (a forwarded link does not let someone else in). Returns whether the user
 * joined.
 */
export async function acceptInvitationToken(
  tx: DbOrTx,
  input: { token: string; userId: string; email: string },
): Promise<boolean> {
  // Someone already active elsewhere keeps that organization; the invitation stays open.
  const [active] = await tx
    .select({ id: memberships.id })
    .from(memberships)
    .where(and(eq(memberships.userId, input.userId), eq(memberships.status, "active")))
    .limit(1);
  if (active) return false;
  const [invitation] = await tx
    .update(teamInvitations)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(teamInvitations.tokenHash, hashToken(input.token)),
        eq(teamInvitations.email, input.email),
        isNull(teamInvitations.usedAt),
        gt(teamInvitations.expiresAt, new Date()),
      ),
    )
    .returning();
  if (!invitation) return false;
  await joinOrganization(tx, input.userId, invitation.organizationId, invitation.role);
  return true;
}
