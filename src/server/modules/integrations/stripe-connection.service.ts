import type { StripeConnection } from "@shared/integrations";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { stripeConnections } from "../../db/schema";
import type { SecretSealer } from "../../lib/sealed-secrets";
import { recordSecurityEvent, type SecurityActor } from "../security-log/security-log.service";

/** Where Stripe must send an organization's events: one URL per organization, to paste into Stripe. */
export function stripeWebhookUrl(publicUrl: string, organizationId: string): string {
  return `${publicUrl}/api/integrations/stripe/webhook/${encodeURIComponent(organizationId)}`;
}

export async function readStripeConnection(
  db: DbOrTx,
  publicUrl: string,
  organizationId: string,
): Promise<StripeConnection> {
  const [row] = await db
    .select({ lastEventAt: stripeConnections.lastEventAt })
    .from(stripeConnections)
    .where(eq(stripeConnections.organizationId, organizationId));
  return {
    connected: row !== undefined,
    webhookUrl: stripeWebhookUrl(publicUrl, organizationId),
    lastEventAt: row?.lastEventAt?.toISOString() ?? null,
  };
}

/**
 * A burst of Stripe events (a busy hour, a redelivery backlog) writes the connection's row at most
 * once a minute: "Last event received" needs no finer time, and concurrent events of one
 * organization then never queue on its row's lock.
 */
const LAST_EVENT_SPACING = sql.raw("interval '1 minute'");

/**
 * Notes that an event signed with the organization's current secret arrived. One conditional
 * UPDATE by primary key; the caller never lets its failure fail the event.
 */
export async function noteStripeEvent(db: DbOrTx, organizationId: string): Promise<void> {
  await db
    .update(stripeConnections)
    .set({ lastEventAt: sql`now()` })
    .where(
      and(
        eq(stripeConnections.organizationId, organizationId),
        or(
          isNull(stripeConnections.lastEventAt),
          lt(stripeConnections.lastEventAt, sql`now() - ${LAST_EVENT_SPACING}`),
        ),
      ),
    );
}

/**
 * Connecting again replaces the secret (Stripe rolls secrets); it is kept sealed, never shown.
 * Each connection is in the security log (CONTRACT §3).
 */
export async function connectStripe(
  db: DbOrTx,
  sealer: SecretSealer,
  organizationId: string,
  webhookSecret: string,
  actor: SecurityActor,
): Promise<void> {
  const sealed = sealer.seal(webhookSecret);
  await db.transaction(async (tx) => {
    await tx
      .insert(stripeConnections)
      .values({ organizationId, webhookSecretSealed: sealed })
      .onConflictDoUpdate({
        target: stripeConnections.organizationId,
        // A new secret has had no event signed with it yet: the card says so until one arrives.
        set: { webhookSecretSealed: sealed, connectedAt: new Date(), lastEventAt: null },
      });
    await recordSecurityEvent(tx, actor, { action: "stripe_connected", organizationId });
  });
}

/** In the security log when there was a connection to end. */
export async function disconnectStripe(
  db: DbOrTx,
  organizationId: string,
  actor: SecurityActor,
): Promise<void> {
  await db.transaction(async (tx) => {
    const ended = await tx
      .delete(stripeConnections)
      .where(eq(stripeConnections.organizationId, organizationId))
      .returning({ organizationId: stripeConnections.organizationId });
    if (ended.length > 0)
      await recordSecurityEvent(tx, actor, { action: "stripe_disconnected", organizationId });
  });
}

/** The organization's signing secret, or null when it has none this deployment can open. */
export async function stripeWebhookSecret(
  db: DbOrTx,
  sealer: SecretSealer,
  organizationId: string,
): Promise<string | null> {
  const [row] = await db
    .select({ sealed: stripeConnections.webhookSecretSealed })
    .from(stripeConnections)
    .where(eq(stripeConnections.organizationId, organizationId));
  return row ? sealer.open(row.sealed) : null;
}
