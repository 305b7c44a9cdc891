import { and, eq, inArray, isNull } from "drizzle-orm";
import { CHANNELS, type ChangePublisher } from "../../db/change-notifications";
import type { DbOrTx } from "../../db/client";
import {
  billingAccounts,
  collateral,
  customerBindings,
  dismissedSuggestions,
  jobs,
  memberships,
  relationships,
  sessions,
  stripeConnections,
  teamInvitations,
  webhookEndpoints,
} from "../../db/schema";
import { revokeAllApiKeys } from "../api-keys/api-keys.service";

/**
 * An organization nobody had proven changes hands to the user who just proved its domain
 * (CONTRACT §4). Whoever held it before proved nothing, so nothing of theirs keeps working:
 * - open invitations are deleted first, so one being accepted concurrently either commits before
 *   (and its membership is removed below) or finds nothing;
 * - every membership, active or pending, is removed, and the sessions of those who were active
 *   end: the new admin starts from a clean team, and colleagues ask to join again;
 * - every API key is revoked (the caller makes every instance forget the returned hashes);
 * - what they set up for it goes: its billing account (their Stripe customer), their Stripe
 *   connection (their signing secret would go on recording purchases), their webhook endpoints
 *   and the messages waiting for them (the owner's events would reach their servers), the customers they bound to
 *   clicks (the owner's customer ids would meet theirs), notification settings, its own
 *   relationships (a block list would hide the real company from its partners), dismissed
 *   suggestions, and the ads it wrote.
 * What others hold to it (their Buddies and block-list entries, ads they wrote for it) stays: that
 * is why the organization is taken over rather than created anew. Runs in the takeover's
 * transaction, with the organization's row locked.
 */
export async function endPreviousHolders(
  tx: DbOrTx,
  changes: ChangePublisher,
  organizationId: string,
): Promise<{ revokedKeyHashes: string[] }> {
  await tx
    .delete(teamInvitations)
    .where(and(eq(teamInvitations.organizationId, organizationId), isNull(teamInvitations.usedAt)));
  const removed = await tx
    .delete(memberships)
    .where(eq(memberships.organizationId, organizationId))
    .returning({ userId: memberships.userId, status: memberships.status });
  const wereActive = removed.filter((member) => member.status === "active").map((member) => member.userId);
  if (wereActive.length > 0) {
    await tx
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(inArray(sessions.userId, wereActive), isNull(sessions.revokedAt)));
  }
  const revokedKeyHashes = await revokeAllApiKeys(tx, organizationId);
  for (const keyHash of revokedKeyHashes) await changes.publish(tx, CHANNELS.apiKeyRevoked, keyHash);

  await tx.delete(billingAccounts).where(eq(billingAccounts.organizationId, organizationId));
  await tx.delete(stripeConnections).where(eq(stripeConnections.organizationId, organizationId));
  await tx.delete(customerBindings).where(eq(customerBindings.organizationId, organizationId));
  const endpoints = await tx
    .delete(webhookEndpoints)
    .where(eq(webhookEndpoints.organizationId, organizationId))
    .returning({ id: webhookEndpoints.id });
  if (endpoints.length > 0) {
    await tx.delete(jobs).where(
      and(
        eq(jobs.kind, "webhook"),
        inArray(
          jobs.partitionKey,
          endpoints.map((endpoint) => endpoint.id),
        ),
      ),
    );
  }
  await tx.delete(relationships).where(eq(relationships.sourceOrgId, organizationId));
  await tx.delete(dismissedSuggestions).where(eq(dismissedSuggestions.organizationId, organizationId));
  await tx.delete(collateral).where(eq(collateral.createdByOrganizationId, organizationId));
  await changes.publish(tx, CHANNELS.adsChanged);
  return { revokedKeyHashes };
}
