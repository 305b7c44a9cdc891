import { isPaidSubscriptionStatus } from "@shared/billing";
import { DELETION_MESSAGES, type DeletionConfirmed } from "@shared/deletion";
import { and, eq, ne } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { ChangePublisher } from "../../db/change-notifications";
import type { Db, DbOrTx } from "../../db/client";
import { billingAccounts, memberships, organizations, users } from "../../db/schema";
import { badRequest, conflict, forbidden } from "../../errors";
import { deletionConfirmMail } from "../../mail/account-mails";
import { enqueueMail } from "../../mail/mail-jobs";
import { consumeDeletionToken, issueOneTimeToken } from "../auth/one-time-tokens";
import { recordSecurityEvent, type SecurityActor } from "../security-log/security-log.service";
import { lockTeam } from "../team/team.service";
import { eraseOrganization, eraseOrganizationEvents } from "./erase-organization";
import { erasePeople } from "./erase-people";

export type DeletionDeps = {
  db: Db;
  publicUrl: string;
  changes: ChangePublisher;
  log: FastifyBaseLogger;
  onMailQueued(): void;
};

/** The organization's paid subscription must be cancelled first: deleting would not stop its charges. */
async function assertNoSubscription(tx: DbOrTx, organizationId: string) {
  const [account] = await tx
    .select({ status: billingAccounts.subscriptionStatus })
    .from(billingAccounts)
    .where(eq(billingAccounts.organizationId, organizationId));
  if (account && isPaidSubscriptionStatus(account.status))
    throw conflict(DELETION_MESSAGES.subscriptionActive);
}

/** Whether the user is an active admin of the organization, now. */
async function isAdmin(tx: DbOrTx, userId: string, organizationId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: memberships.id })
    .from(memberships)
    .where(
      and(
        eq(memberships.userId, userId),
        eq(memberships.organizationId, organizationId),
        eq(memberships.role, "admin"),
        eq(memberships.status, "active"),
      ),
    );
  return row !== undefined;
}

/**
 * The last-admin rule for leaving (issue 38): an active admin whose organization has no other
 * active admin hands the role over, or deletes the organization, first. Under the team lock.
 * Answers the organization the person is an active member of, if any.
 */
async function assertMayLeave(tx: DbOrTx, userId: string) {
  const activeMembership = () =>
    tx
      .select({ organizationId: memberships.organizationId, role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.userId, userId), eq(memberships.status, "active")));
  const [found] = await activeMembership();
  if (!found) return null;
  // Locked whatever the role read: a member promoted meanwhile may be the admin another's leaving
  // counted on. The role is read again under the lock.
  await lockTeam(tx, found.organizationId);
  const [membership] = await activeMembership();
  if (!membership) return null;
  if (membership.role !== "admin") return membership.organizationId;
  const [other] = await tx
    .select({ id: memberships.id })
    .from(memberships)
    .where(
      and(
        eq(memberships.organizationId, membership.organizationId),
        eq(memberships.role, "admin"),
        eq(memberships.status, "active"),
        ne(memberships.userId, userId),
      ),
    )
    .limit(1);
  if (!other) throw conflict(DELETION_MESSAGES.lastAdmin);
  return membership.organizationId;
}

/** An admin asks to delete the organization, typing its name: a link goes to their mailbox. */
export async function requestOrganizationDeletion(
  deps: DeletionDeps,
  auth: { userId: string; email: string; organizationId: string },
  typedName: string,
  actor: SecurityActor,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const [organization] = await tx
      .select({ name: organizations.name })
      .from(organizations)
      .where(eq(organizations.id, auth.organizationId));
    if (!organization || organization.name.trim() !== typedName.trim())
      throw badRequest(DELETION_MESSAGES.nameMismatch);
    await assertNoSubscription(tx, auth.organizationId);
    const token = await issueOneTimeToken(tx, auth.userId, "delete_organization", {
      organizationId: auth.organizationId,
    });
    await enqueueMail(
      tx,
      deletionConfirmMail(auth.email, deps.publicUrl, token, {
        kind: "organization",
        name: organization.name,
      }),
    );
    await recordSecurityEvent(tx, actor, {
      action: "organization_deletion_requested",
      organizationId: auth.organizationId,
      target: organization.name,
    });
  });
  deps.onMailQueued();
}

/** A person asks to delete their own account: a link goes to their mailbox. */
export async function requestAccountDeletion(
  deps: DeletionDeps,
  { userId, email }: { userId: string; email: string },
  actor: SecurityActor,
) {
  await deps.db.transaction(async (tx) => {
    const organizationId = await assertMayLeave(tx, userId);
    const token = await issueOneTimeToken(tx, userId, "delete_account");
    await enqueueMail(tx, deletionConfirmMail(email, deps.publicUrl, token, { kind: "account" }));
    await recordSecurityEvent(tx, actor, {
      action: "account_deletion_requested",
      ...(organizationId ? { organizationId } : {}),
    });
  });
  deps.onMailQueued();
}

/**
 * The mailed link's button: the token is used up, and what it deletes is judged as things are
 * now (an admin who is one no more deletes nothing; a last admin must still hand over first).
 */
export async function confirmDeletion(deps: DeletionDeps, token: string): Promise<DeletionConfirmed> {
  let erased: string | null = null;
  const answer = await deps.db.transaction(async (tx): Promise<DeletionConfirmed> => {
    const claim = await consumeDeletionToken(tx, token);
    if (!claim) throw badRequest(DELETION_MESSAGES.invalidLink);
    if (claim.purpose === "delete_organization") {
      const organizationId = claim.organizationId;
      if (!organizationId) throw badRequest(DELETION_MESSAGES.invalidLink);
      await lockTeam(tx, organizationId);
      if (!(await isAdmin(tx, claim.userId, organizationId))) throw forbidden(DELETION_MESSAGES.notAdmin);
      await assertNoSubscription(tx, organizationId);
      await eraseOrganization(tx, deps.changes, organizationId);
      erased = organizationId;
      return { kind: "organization", message: DELETION_MESSAGES.organizationDeleted };
    }
    const organizationId = await assertMayLeave(tx, claim.userId);
    // In the organization's log (or, without one, for the operator only), naming nobody: who it
    // was is what the deletion removes.
    await recordSecurityEvent(
      tx,
      { userId: null, ipAddress: null },
      { action: "account_deleted", organizationId },
    );
    const [person] = await tx
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(eq(users.id, claim.userId));
    if (person) await erasePeople(tx, [person]);
    return { kind: "account", message: DELETION_MESSAGES.accountDeleted };
  });
  if (erased) {
    // Told done once the organization is gone: its raw events (maybe millions) follow in the
    // background, and the next lifecycle pass finishes them if this instance is cut off.
    const organizationId: string = erased;
    void eraseOrganizationEvents(deps.db, organizationId).catch((error: unknown) =>
      deps.log.warn(
        { err: error, organizationId },
        "raw events of a deleted organization left to the next pass",
      ),
    );
  }
  return answer;
}
