import { DAY_MS } from "@shared/days";
import { INVITATION_TTL_DAYS } from "@shared/team";
import { and, eq, gt, isNull, ne } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { memberships, organizations, teamInvitations } from "../../db/schema";
import { generateToken, hashToken } from "../../lib/tokens";
import { recordSecurityEvent } from "../security-log/security-log.service";

type Role = "admin" | "member";

/** How the security log names a person with a role in the team: `bob@acme.com (admin)`. */
export const roleTarget = (email: string, role: Role) => `${email} (${role})`;

export const invitationExpiry = (now = Date.now()) => new Date(now + INVITATION_TTL_DAYS * DAY_MS);

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
 * joined; joining is in the inviting organization's security log, by the person who joined, from
 * the client address of their sign-up or sign-in.
 */
export async function acceptInvitationToken(
  tx: DbOrTx,
  input: { token: string; userId: string; email: string; ipAddress: string | null },
): Promise<boolean> {
  // Someone already active elsewhere keeps that organization; the invitation stays open.
  const [active] = await tx
    .select({ id: memberships.id })
    .from(memberships)
    .where(and(eq(memberships.userId, input.userId), eq(memberships.status, "active")))
    .limit(1);
  if (active) return false;
  // The organization first, as its deletion locks it before its invitations go (no deadlock); once
  // it is deleted, the invitation is gone too.
  const [pending] = await tx
    .select({ organizationId: teamInvitations.organizationId })
    .from(teamInvitations)
    .where(eq(teamInvitations.tokenHash, hashToken(input.token)));
  if (!pending) return false;
  await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, pending.organizationId))
    .for("share");
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
  await recordSecurityEvent(
    tx,
    { userId: input.userId, ipAddress: input.ipAddress },
    {
      action: "invitation_accepted",
      organizationId: invitation.organizationId,
      target: roleTarget(input.email, invitation.role),
    },
  );
  return true;
}
