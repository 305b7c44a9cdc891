import { normalizeEmail } from "@shared/auth";
import { DOMAIN_MESSAGES } from "@shared/domain-verification";
import { type InviteTeamMemberInput, TEAM_MESSAGES, type TeamMember } from "@shared/team";
import { and, asc, eq, gt, isNull, ne } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { memberships, organizations, teamInvitations, users } from "../../db/schema";
import { conflict, forbidden, notFound } from "../../errors";
import { enqueueMail } from "../../mail/mail-jobs";
import { invitationMail, membershipApprovedMail } from "../../mail/team-mails";
import type { MemberAuth } from "../../plugins/auth";
import { revokeAllSessions } from "../auth/sessions";
import { recordSecurityEvent, type SecurityActor } from "../security-log/security-log.service";
import { invitationExpiry, newInvitationToken, roleTarget } from "./team-invitations";

export type TeamDeps = { db: Db; publicUrl: string; onMailQueued: () => void };

const NOT_FOUND = "Team member not found";

const memberColumns = {
  id: memberships.id,
  role: memberships.role,
  status: memberships.status,
  userId: memberships.userId,
  email: users.email,
  createdAt: memberships.createdAt,
};

type MemberRow = {
  id: string;
  role: "admin" | "member";
  status: "active" | "pending";
  email: string;
  createdAt: Date;
};

const toMember = (row: MemberRow): TeamMember => ({
  id: row.id,
  role: row.role,
  status: row.status,
  invited: false,
  user: { email: row.email },
  createdAt: row.createdAt.toISOString(),
});

/**
 * CONTRACT §7: the organization's members, active and awaiting approval, and the people invited
 * who have not registered yet (pending, `invited`). Expired invitations are not listed.
 */
export async function listTeam(db: DbOrTx, organizationId: string): Promise<TeamMember[]> {
  const members = await db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.organizationId, organizationId))
    .orderBy(asc(memberships.createdAt));
  const invitations = await db
    .select()
    .from(teamInvitations)
    .where(
      and(
        eq(teamInvitations.organizationId, organizationId),
        isNull(teamInvitations.usedAt),
        gt(teamInvitations.expiresAt, new Date()),
      ),
    )
    .orderBy(asc(teamInvitations.createdAt));
  const memberEmails = new Set(members.map((member) => member.email));
  return [
    ...members.map(toMember),
    ...invitations
      .filter((invitation) => !memberEmails.has(invitation.email))
      .map(
        (invitation): TeamMember => ({
          id: invitation.id,
          role: invitation.role,
          status: "pending",
          invited: true,
          user: { email: invitation.email },
          createdAt: invitation.createdAt.toISOString(),
        }),
      ),
  ];
}

/**
 * CONTRACT §7: any member invites members; only admins invite admins. The route guard cannot say
 * so, since it depends on the body: the invite route asks here before charging its rate limit.
 */
export function assertMayInvite(auth: MemberAuth, role: InviteTeamMemberInput["role"]): void {
  if (role === "admin" && auth.role !== "admin") throw forbidden(TEAM_MESSAGES.onlyAdminsInviteAdmins);
}

/**
 * Invites someone (see `assertMayInvite`). An address already in the team, or invited and not
 * expired, is a conflict. The mail leaves through the outbox, in the same transaction as the
 * invitation.
 */
export async function inviteTeamMember(
  deps: TeamDeps,
  auth: MemberAuth,
  input: InviteTeamMemberInput,
  actor: SecurityActor,
): Promise<TeamMember> {
  assertMayInvite(auth, input.role);
  const email = normalizeEmail(input.email);
  const member = await deps.db.transaction(async (tx) => {
    const [organization] = await tx
      .select({
        name: organizations.name,
        domain: organizations.domain,
        verifiedAt: organizations.domainVerifiedAt,
      })
      .from(organizations)
      .where(eq(organizations.id, auth.organizationId))
      // Serialises invitations of one organization, so two at once cannot both pass the checks.
      .for("update");
    if (!organization) throw notFound("Organization not found");
    // CONTRACT §4: an invitation admits someone in advance, which an unproven organization may not.
    if (!organization.verifiedAt) throw forbidden(DOMAIN_MESSAGES.needed(organization.domain));
    const [existingMember] = await tx
      .select({ id: memberships.id })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.organizationId, auth.organizationId), eq(users.email, email)))
      .limit(1);
    if (existingMember) throw conflict(TEAM_MESSAGES.alreadyInTeam);

    const [open] = await tx
      .select()
      .from(teamInvitations)
      .where(
        and(
          eq(teamInvitations.organizationId, auth.organizationId),
          eq(teamInvitations.email, email),
          isNull(teamInvitations.usedAt),
        ),
      )
      .limit(1);
    if (open && open.expiresAt > new Date()) throw conflict(TEAM_MESSAGES.alreadyInTeam);

    const { token, tokenHash } = newInvitationToken();
    const values = {
      role: input.role,
      tokenHash,
      invitedByUserId: auth.userId,
      createdAt: new Date(),
      expiresAt: invitationExpiry(),
    };
    // An expired invitation is renewed in place: one open row per address and organization.
    const [invitation] = open
      ? await tx.update(teamInvitations).set(values).where(eq(teamInvitations.id, open.id)).returning()
      : await tx
          .insert(teamInvitations)
          .values({ ...values, organizationId: auth.organizationId, email })
          .returning();
    if (!invitation) throw conflict(TEAM_MESSAGES.alreadyInTeam);
    await recordSecurityEvent(tx, actor, {
      action: "invitation_sent",
      organizationId: auth.organizationId,
      target: roleTarget(email, input.role),
    });
    await enqueueMail(
      tx,
      invitationMail(email, {
        publicUrl: deps.publicUrl,
        token,
        organizationName: organization.name,
        inviter: auth.email,
        role: input.role,
      }),
    );
    return {
      id: invitation.id,
      role: invitation.role,
      status: "pending" as const,
      invited: true,
      user: { email },
      createdAt: invitation.createdAt.toISOString(),
    };
  });
  deps.onMailQueued();
  return member;
}

/**
 * Changes to one organization's team go one at a time: locking member rows one by one would let
 * two admins removing each other deadlock (each holding the row the other needs).
 */
export async function lockTeam(tx: DbOrTx, organizationId: string) {
  await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .for("update");
}

async function findMember(tx: DbOrTx, organizationId: string, id: string) {
  await lockTeam(tx, organizationId);
  const [row] = await tx
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.id, id), eq(memberships.organizationId, organizationId)));
  return row ?? null;
}

/** The last-admin rule: an organization always keeps an active admin (under the team lock). */
async function assertAnotherAdmin(tx: DbOrTx, organizationId: string, leavingMembershipId: string) {
  const others = await tx
    .select({ id: memberships.id })
    .from(memberships)
    .where(
      and(
        eq(memberships.organizationId, organizationId),
        eq(memberships.role, "admin"),
        eq(memberships.status, "active"),
        ne(memberships.id, leavingMembershipId),
      ),
    );
  if (others.length === 0) throw conflict(TEAM_MESSAGES.lastAdmin);
}

/** SPEC §4: a pending member (who onboarded with the organization's domain) becomes active. */
export async function approveTeamMember(
  deps: TeamDeps,
  organizationId: string,
  id: string,
  actor: SecurityActor,
): Promise<TeamMember> {
  const approved = await deps.db.transaction(async (tx) => {
    const member = await findMember(tx, organizationId, id);
    if (!member) {
      const [invitation] = await tx
        .select({ id: teamInvitations.id })
        .from(teamInvitations)
        .where(and(eq(teamInvitations.id, id), eq(teamInvitations.organizationId, organizationId)));
      // An invited person joins by registering; there is nothing to approve yet.
      if (invitation) throw conflict(TEAM_MESSAGES.notAwaitingApproval);
      throw notFound(NOT_FOUND);
    }
    if (member.status !== "pending") throw conflict(TEAM_MESSAGES.notAwaitingApproval);
    // CONTRACT §4: an organization whose domain nobody proved approves no one.
    const [proof] = await tx
      .select({ domain: organizations.domain, verifiedAt: organizations.domainVerifiedAt })
      .from(organizations)
      .where(eq(organizations.id, organizationId));
    if (!proof?.verifiedAt) throw forbidden(DOMAIN_MESSAGES.needed(proof?.domain ?? "your domain"));
    const [elsewhere] = await tx
      .select({ id: memberships.id })
      .from(memberships)
      .where(and(eq(memberships.userId, member.userId), eq(memberships.status, "active")))
      .limit(1);
    if (elsewhere) throw conflict(TEAM_MESSAGES.memberInOtherOrganization);
    await tx.update(memberships).set({ status: "active" }).where(eq(memberships.id, member.id));
    await recordSecurityEvent(tx, actor, { action: "member_approved", organizationId, target: member.email });
    const [organization] = await tx
      .select({ name: organizations.name })
      .from(organizations)
      .where(eq(organizations.id, organizationId));
    await enqueueMail(
      tx,
      membershipApprovedMail(member.email, {
        publicUrl: deps.publicUrl,
        organizationName: organization?.name ?? "your organization",
      }),
    );
    return toMember({ ...member, status: "active" });
  });
  deps.onMailQueued();
  return approved;
}

/** Admins change roles; demoting the last admin is refused. */
export async function changeTeamMemberRole(
  db: Db,
  organizationId: string,
  id: string,
  role: "admin" | "member",
  actor: SecurityActor,
): Promise<TeamMember> {
  return db.transaction(async (tx) => {
    const member = await findMember(tx, organizationId, id);
    if (!member) throw notFound(NOT_FOUND);
    if (member.role === role) return toMember(member);
    if (member.role === "admin" && member.status === "active") {
      await assertAnotherAdmin(tx, organizationId, member.id);
    }
    await tx.update(memberships).set({ role }).where(eq(memberships.id, member.id));
    await recordSecurityEvent(tx, actor, {
      action: "role_changed",
      organizationId,
      target: roleTarget(member.email, role),
    });
    return toMember({ ...member, role });
  });
}

/**
 * Removes a member, declines a request to join, or withdraws an invitation. A removed member's
 * sessions are revoked in the same transaction: their next request gets 401. A membership that
 * ends, active or pending, is in the security log; a withdrawn invitation admitted no one.
 */
export async function removeTeamMember(
  db: Db,
  organizationId: string,
  id: string,
  actor: SecurityActor,
): Promise<void> {
  await db.transaction(async (tx) => {
    const member = await findMember(tx, organizationId, id);
    if (!member) {
      const withdrawn = await tx
        .delete(teamInvitations)
        .where(
          and(
            eq(teamInvitations.id, id),
            eq(teamInvitations.organizationId, organizationId),
            isNull(teamInvitations.usedAt),
          ),
        )
        .returning({ id: teamInvitations.id });
      if (withdrawn.length === 0) throw notFound(NOT_FOUND);
      return;
    }
    if (member.role === "admin" && member.status === "active") {
      await assertAnotherAdmin(tx, organizationId, member.id);
    }
    await tx.delete(memberships).where(eq(memberships.id, member.id));
    await recordSecurityEvent(tx, actor, { action: "member_removed", organizationId, target: member.email });
    if (member.status === "active") await revokeAllSessions(tx, member.userId);
  });
}
