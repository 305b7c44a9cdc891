import type Stripe from "stripe";
import type { ConversionInput } from "../tracking/conversions/conversions.service";

/** What a Stripe event means for revenue: a purchase to record, or nothing. */
export type StripeRevenue = Omit<ConversionInput, "organizationId" | "now"> & { type: "purchase" };

const idOf = (value: string | { id: string } | null | undefined): string | undefined =>
  typeof value === "string" ? value : (value?.id ?? undefined);

/**
 * CONTRACT §8. A completed Checkout whose `client_reference_id` is a click id is a purchase of
 * that click (binding the session's customer to it); a paid invoice of a bound customer is a
 * purchase of the customer's click, except the subscription's first invoice, which the checkout
 * has counted already. Stripe's amounts are minor units already, its currencies lower case.
 */
export function revenueOfStripeEvent(event: Stripe.Event): StripeRevenue | null {
  if (event.type === "checkout.session.completed") {
    const session = event.data.object;
    const clickId = session.client_reference_id;
    if (!clickId || session.amount_total === null || !session.currency) return null;
    return {
      type: "purchase",
      clickId,
      customerId: idOf(session.customer),
      valueMinor: session.amount_total,
      currency: session.currency.toUpperCase(),
      eventId: event.id,
      metadata: { stripe: { event: event.id, checkoutSession: session.id } },
    };
  }
  if (event.type === "invoice.paid") {
    const invoice = event.data.object;
    const customerId = idOf(invoice.customer);
    if (!customerId || invoice.billing_reason === "subscription_create" || !invoice.id) return null;
    return {
      type: "purchase",
      customerId,
      valueMinor: invoice.amount_paid,
      currency: invoice.currency.toUpperCase(),
      eventId: invoice.id,
      metadata: { stripe: { event: event.id, invoice: invoice.id } },
    };
  }
  return null;
}
