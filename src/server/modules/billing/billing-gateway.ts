import { text } from "@shared/text";
import Stripe from "stripe";
import { z } from "zod";
import {
  problemOf,
  readSignedEvent,
  signedJson,
  type Unreadable,
  verifyStripeSignature,
} from "../../lib/stripe-webhook";

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

/**
 * A signed webhook's event: a subscription's new state, an event billing does not follow, or one
 * of a shape it cannot read (answered 200 all the same, with a warning and a metric).
 */
export type WebhookReading =
  | { kind: "subscription"; event: SubscriptionEvent }
  | { kind: "ignored" }
  | Unreadable<"not_json" | "not_an_event" | "subscription">;

/** The little of Stripe that billing needs, so the service depends on this, not on the SDK. */
export type BillingGateway = {
  createCustomer(input: { organizationId: string; name: string; email: string }): Promise<string>;
  createPortalSession(customerId: string, returnUrl: string): Promise<string>;
  setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<SubscriptionState>;
  /** Verifies the signature (StripeSignatureError on a bad one), then reads the event. */
  parseWebhook(rawBody: Buffer, signature: string): WebhookReading;
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

const stripeId = (label: string) => text(label, { trim: false }).min(1).max(255);
const webhookEventSchema = z.looseObject({
  id: stripeId("id"),
  type: text("type", { trim: false }).min(1).max(200),
  created: z.int().min(0),
});
/** What billing reads of a subscription in an event, trusting no field to be as documented. */
const subscriptionEventSchema = z.looseObject({
  data: z.looseObject({
    object: z.looseObject({
      id: stripeId("id"),
      customer: z.union([stripeId("customer"), z.looseObject({ id: stripeId("customer") })]),
      status: stripeId("status"),
      cancel_at_period_end: z.boolean(),
      items: z
        .looseObject({
          data: z.array(
            z.looseObject({
              price: z.looseObject({ id: stripeId("price") }).nullish(),
              current_period_end: z.int().min(0).nullish(),
            }),
          ),
        })
        .nullish(),
    }),
  }),
});

/** A signed body, read as untrusted: the subscription's state from a followed event. */
export function readSubscriptionEvent(json: unknown): WebhookReading {
  const envelope = readSignedEvent(json, webhookEventSchema);
  if (envelope.kind === "unreadable") return envelope;
  const { event } = envelope;
  const followed = event.type;
  if (!Object.hasOwn(FOLLOWED, followed)) return { kind: "ignored" };
  const type = FOLLOWED[followed as keyof typeof FOLLOWED];
  const parsed = subscriptionEventSchema.safeParse(json);
  if (!parsed.success)
    return { kind: "unreadable", reason: "subscription", problem: problemOf(parsed.error) };
  const subscription = parsed.data.data.object;
  const item = subscription.items?.data[0];
  return {
    kind: "subscription",
    event: {
      type,
      createdAt: new Date(event.created * 1000),
      subscription: {
        customerId:
          typeof subscription.customer === "string" ? subscription.customer : subscription.customer.id,
        subscriptionId: subscription.id,
        status: subscription.status,
        priceId: item?.price?.id ?? null,
        currentPeriodEnd: item?.current_period_end ? new Date(item.current_period_end * 1000) : null,
        cancelAtPeriodEnd: subscription.cancel_at_period_end,
      },
    },
  };
}

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
      // The same two-sided rule as the organizations' own Stripe (CONTRACT §8).
      verifyStripeSignature(rawBody, signature, options.webhookSecret);
      return readSubscriptionEvent(signedJson(rawBody));
    },
  };
}
