import Stripe from "stripe";

/** What we keep of a Stripe subscription. */
export type SubscriptionState = {
  customerId: string;
  subscriptionId: string;
  status: string;
  priceId: string | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
};

export type SubscriptionEvent = {
  type: "updated" | "deleted";
  /** When Stripe created the event: a late, older event must not undo a newer one. */
  createdAt: Date;
  subscription: SubscriptionState;
};

/** The little of Stripe that billing needs, so the service depends on this, not on the SDK. */
export type BillingGateway = {
  createCustomer(input: { organizationId: string; name: string; email: string }): Promise<string>;
  createPortalSession(customerId: string, returnUrl: string): Promise<string>;
  setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<SubscriptionState>;
  /** Verifies the signature; throws on a bad one. Null for events billing does not follow. */
  parseWebhook(rawBody: Buffer, signature: string): SubscriptionEvent | null;
};

export type StripeGatewayOptions = {
  secretKey: string;
  webhookSecret: string | undefined;
  /** Another Stripe API host, e.g. a local fake in tests. */
  endpoint?: { host: string; port: number; protocol: "http" | "https" };
};

const idOf = (value: string | { id: string }) => (typeof value === "string" ? value : value.id);

/** Since API version 2025-03-31 the period lives on each subscription item. */
function toState(subscription: Stripe.Subscription): SubscriptionState {
  const item = subscription.items?.data?.[0];
  return {
    customerId: idOf(subscription.customer),
    subscriptionId: subscription.id,
    status: subscription.status,
    priceId: item?.price?.id ?? null,
    currentPeriodEnd: item?.current_period_end ? new Date(item.current_period_end * 1000) : null,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
  };
}

const FOLLOWED = {
  "customer.subscription.created": "updated",
  "customer.subscription.updated": "updated",
  "customer.subscription.deleted": "deleted",
} as const;

export class WebhookNotConfigured extends Error {}

export function createStripeGateway(options: StripeGatewayOptions): BillingGateway {
  const stripe = new Stripe(options.secretKey, {
    maxNetworkRetries: 2,
    timeout: 10_000,
    telemetry: false,
    ...options.endpoint,
  });
  return {
    async createCustomer({ organizationId, name, email }) {
      const customer = await stripe.customers.create({ name, email, metadata: { organizationId } });
      return customer.id;
    },
    async createPortalSession(customerId, returnUrl) {
      const session = await stripe.billingPortal.sessions.create({
        customer: customerId,
        return_url: returnUrl,
      });
      return session.url;
    },
    async setCancelAtPeriodEnd(subscriptionId, cancel) {
      return toState(await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: cancel }));
    },
    parseWebhook(rawBody, signature) {
      if (!options.webhookSecret) throw new WebhookNotConfigured();
      const event = stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret);
      const type = FOLLOWED[event.type as keyof typeof FOLLOWED];
      if (!type) return null;
      return {
        type,
        createdAt: new Date(event.created * 1000),
        subscription: toState(event.data.object as Stripe.Subscription),
      };
    },
  };
}
