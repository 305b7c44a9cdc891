import type { StripeConnection } from "@shared/integrations";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { stripeConnections } from "../../db/schema";
import type { SecretSealer } from "../../lib/sealed-secrets";

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
    .select({ organizationId: stripeConnections.organizationId })
    .from(stripeConnections)
    .where(eq(stripeConnections.organizationId, organizationId));
  return { connected: row !== undefined, webhookUrl: stripeWebhookUrl(publicUrl, organizationId) };
}

/** Connecting again replaces the secret (Stripe rolls secrets); it is kept sealed, never shown. */
export async function connectStripe(
  db: DbOrTx,
  sealer: SecretSealer,
  organizationId: string,
  webhookSecret: string,
): Promise<void> {
  const sealed = sealer.seal(webhookSecret);
  await db
    .insert(stripeConnections)
    .values({ organizationId, webhookSecretSealed: sealed })
    .onConflictDoUpdate({
      target: stripeConnections.organizationId,
      set: { webhookSecretSealed: sealed, connectedAt: new Date() },
    });
}

export async function disconnectStripe(db: DbOrTx, organizationId: string): Promise<void> {
  await db.delete(stripeConnections).where(eq(stripeConnections.organizationId, organizationId));
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
