import { z } from "zod";
import { text } from "./text";

/** A Stripe webhook signing secret, as Stripe shows it on the endpoint's page. */
const STRIPE_WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/=_-]{16,200}$/;

export const STRIPE_MESSAGES = {
  badSecret: "Paste the webhook signing secret from Stripe: it starts with whsec_",
  connected: "Stripe connected. Paste the webhook URL into your Stripe dashboard if you have not yet.",
  disconnected: "Stripe disconnected.",
  notConnected: "Stripe is not connected for this organization",
  badSignature: "Invalid Stripe signature",
} as const;

/** CONTRACT §8: `PUT /api/integrations/stripe`. */
export const connectStripeSchema = z.object({
  webhookSecret: text("webhookSecret", { error: STRIPE_MESSAGES.badSecret }).regex(STRIPE_WEBHOOK_SECRET, {
    error: STRIPE_MESSAGES.badSecret,
  }),
});
export type ConnectStripeInput = z.infer<typeof connectStripeSchema>;

/**
 * The secret itself is never answered: only whether one is set, where Stripe must send events, and
 * when an event signed with it last arrived (ISO 8601; null before the first), so an admin sees
 * that the connection works rather than only that a secret was pasted.
 */
export const stripeConnectionSchema = z.object({
  connected: z.boolean(),
  webhookUrl: z.string(),
  lastEventAt: z.string().nullable(),
});
export type StripeConnection = z.infer<typeof stripeConnectionSchema>;

/** The events Buddy follows (CONTRACT §8); every other event is answered 200 and ignored. */
export const STRIPE_REVENUE_EVENTS = [
  "checkout.session.completed",
  "invoice.paid",
  "charge.refunded",
  "charge.dispute.created",
  "charge.dispute.closed",
] as const;
