import { BILLING_MESSAGES, type BillingInfo, isPaidSubscriptionStatus } from "@shared/billing";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { billingAccounts, organizations } from "../../db/schema";
import { AppError, badRequest } from "../../errors";
import type { StripeDelivery } from "../../lib/stripe-webhook";
import {
  type BillingGateway,
  type SubscriptionEvent,
  type SubscriptionState,
  WebhookNotConfigured,
} from "./billing-gateway";

export type BillingDeps = {
  db: Db;
  gateway: BillingGateway | undefined;
  publicUrl: string;
  log: { error(object: object, message: string): void };
};

/**
 * Stripe's event about a subscription of ours. Throws 503 while billing is not configured and
 * 400 for a missing or wrong signature (or one dated more than 5 minutes from now). A signed event
 * of a shape Buddy cannot read changes nothing and is answered as taken, or Stripe would send it
 * again for days: `onUnreadable` is where someone notices.
 */
export async function receiveBillingEvent(
  deps: Pick<BillingDeps, "db" | "gateway">,
  delivery: StripeDelivery | null,
  onUnreadable: (reading: { reason: string; problem: string }) => void,
): Promise<void> {
  const { gateway } = deps;
  if (!gateway) throw new AppError(503, BILLING_MESSAGES.notConfigured);
  if (!delivery) throw new AppError(400, BILLING_MESSAGES.badSignature);
  let reading: ReturnType<BillingGateway["parseWebhook"]>;
  try {
    reading = gateway.parseWebhook(delivery.body, delivery.signature);
  } catch (error) {
    if (error instanceof WebhookNotConfigured) throw new AppError(503, BILLING_MESSAGES.notConfigured);
    throw new AppError(400, BILLING_MESSAGES.badSignature);
  }
  if (reading.kind === "unreadable") onUnreadable(reading);
  if (reading.kind === "subscription") await applySubscriptionEvent(deps.db, reading.event);
}

const FREE: BillingInfo = {
  plan: "free",
  subscriptionStatus: null,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
};

async function accountOf(db: DbOrTx, organizationId: string) {
  const [row] = await db
    .select()
    .from(billingAccounts)
    .where(eq(billingAccounts.organizationId, organizationId));
  return row ?? null;
}

type AccountRow = NonNullable<Awaited<ReturnType<typeof accountOf>>>;

function toInfo(row: AccountRow | null): BillingInfo {
  if (!row || !isPaidSubscriptionStatus(row.subscriptionStatus)) return FREE;
  return {
    plan: "pro",
    subscriptionStatus: row.subscriptionStatus,
    currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
  };
}

/** CONTRACT §7: `plan` is `free` during the beta, and whenever no paid subscription is on file. */
export async function getBilling(db: DbOrTx, organizationId: string): Promise<BillingInfo> {
  return toInfo(await accountOf(db, organizationId));
}

function requireGateway(deps: BillingDeps): BillingGateway {
  if (!deps.gateway) throw new AppError(503, BILLING_MESSAGES.notConfigured);
  return deps.gateway;
}

/** Stripe's own errors stay in the log; the user gets a message they can act on. */
async function atProvider<T>(deps: BillingDeps, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    deps.log.error({ err: error }, "Stripe call failed");
    throw new AppError(502, "The billing provider could not be reached. Please try again in a moment.");
  }
}

/** The Stripe customer portal for this organization; its customer is created on first use. */
export async function openPortal(
  deps: BillingDeps,
  auth: { organizationId: string; email: string },
): Promise<string> {
  const gateway = requireGateway(deps);
  let account = await accountOf(deps.db, auth.organizationId);
  if (!account) {
    const [organization] = await deps.db
      .select({ name: organizations.name })
      .from(organizations)
      .where(eq(organizations.id, auth.organizationId));
    const customerId = await atProvider(deps, () =>
      gateway.createCustomer({
        organizationId: auth.organizationId,
        name: organization?.name ?? auth.organizationId,
        email: auth.email,
      }),
    );
    // Two admins at once: the first customer stored wins, the other is never used.
    await deps.db
      .insert(billingAccounts)
      .values({ organizationId: auth.organizationId, stripeCustomerId: customerId })
      .onConflictDoNothing({ target: billingAccounts.organizationId });
    account = await accountOf(deps.db, auth.organizationId);
  }
  if (!account) throw new AppError(409, "Please try again.");
  const customerId = account.stripeCustomerId;
  return atProvider(deps, () =>
    gateway.createPortalSession(customerId, `${deps.publicUrl}/dashboard/settings?tab=billing`),
  );
}

function stateColumns(state: SubscriptionState) {
  return {
    stripeSubscriptionId: state.subscriptionId,
    subscriptionStatus: state.status,
    priceId: state.priceId,
    currentPeriodEnd: state.currentPeriodEnd,
    cancelAtPeriodEnd: state.cancelAtPeriodEnd,
    updatedAt: new Date(),
  };
}

/** Cancel (at the period's end) or resume the organization's active subscription. */
export async function setCancelAtPeriodEnd(
  deps: BillingDeps,
  organizationId: string,
  cancel: boolean,
): Promise<BillingInfo> {
  const gateway = requireGateway(deps);
  const account = await accountOf(deps.db, organizationId);
  const subscriptionId = account?.stripeSubscriptionId;
  if (!account || !subscriptionId || !isPaidSubscriptionStatus(account.subscriptionStatus)) {
    throw badRequest(BILLING_MESSAGES.noSubscription);
  }
  const state = await atProvider(deps, () => gateway.setCancelAtPeriodEnd(subscriptionId, cancel));
  // Stripe's answer is the newest state: webhook events created before now describe older ones.
  const [row] = await deps.db
    .update(billingAccounts)
    .set({ ...stateColumns(state), lastEventAt: new Date() })
    .where(eq(billingAccounts.organizationId, organizationId))
    .returning();
  return toInfo(row ?? null);
}

/**
 * A signed subscription event from Stripe, for a customer of ours. Applied only when newer than
 * what is stored: Stripe does not promise to deliver events in order.
 */
export async function applySubscriptionEvent(db: DbOrTx, event: SubscriptionEvent): Promise<boolean> {
  const state = event.subscription;
  const columns =
    event.type === "deleted"
      ? { ...stateColumns(state), subscriptionStatus: "canceled", cancelAtPeriodEnd: false }
      : stateColumns(state);
  const updated = await db
    .update(billingAccounts)
    .set({ ...columns, lastEventAt: event.createdAt })
    .where(
      and(
        eq(billingAccounts.stripeCustomerId, state.customerId),
        or(isNull(billingAccounts.lastEventAt), lt(billingAccounts.lastEventAt, event.createdAt)),
      ),
    )
    .returning({ organizationId: billingAccounts.organizationId });
  return updated.length > 0;
}
