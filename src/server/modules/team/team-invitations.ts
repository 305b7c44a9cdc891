import { INVITATION_TTL_DAYS } from "@shared/team";
import { and, desc, eq, gt, isNull, ne } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { memberships, teamInvitations, users } from "../../db/schema";
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
 * Sign-up through an invitation link: the token is single-use, unexpired and issued for this very
 * address (a forwarded link does not let someone else in). Returns whether the user joined.
 */
export async function acceptInvitationToken(
  tx: DbOrTx,
  input: { token: string; userId: string; email: string },
): Promise<boolean> {
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

/**
 * At sign-in and e-mail verification: someone invited who already had an account, or who
 * registered without the link, joins the newest open invitation's organization. Proving the
 * address (a verified account) is what the mailed token proves too. Users who already belong
 * to an organization keep it; their invitation stays open until it expires.
 */
export async function acceptOpenInvitation(tx: DbOrTx, userId: string): Promise<void> {
  const [active] = await tx
    .select({ id: memberships.id })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.status, "active")))
    .limit(1);
  if (active) return;
  const [invitation] = await tx
    .select({
      id: teamInvitations.id,
      organizationId: teamInvitations.organizationId,
      role: teamInvitations.role,
    })
    .from(teamInvitations)
    .innerJoin(users, eq(users.email, teamInvitations.email))
    .where(
      and(eq(users.id, userId), isNull(teamInvitations.usedAt), gt(teamInvitations.expiresAt, new Date())),
    )
    .orderBy(desc(teamInvitations.createdAt))
    .limit(1);
  if (!invitation) return;
  const [claimed] = await tx
    .update(teamInvitations)
    .set({ usedAt: new Date() })
    .where(and(eq(teamInvitations.id, invitation.id), isNull(teamInvitations.usedAt)))
    .returning({ id: teamInvitations.id });
  if (!claimed) return;
  await joinOrganization(tx, userId, invitation.organizationId, invitation.role);
}
