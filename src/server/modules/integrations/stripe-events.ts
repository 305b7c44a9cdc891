import { isCurrency, MAX_MINOR_UNITS } from "@shared/money";
import { text } from "@shared/text";
import { CUSTOMER_ID_MAX_LENGTH, EVENT_ID_MAX_LENGTH } from "@shared/tracking";
import { z } from "zod";
import { problemOf, readSignedEvent } from "../../lib/stripe-webhook";
import type { ConversionInput } from "../tracking/conversions/conversions.service";

/** What a Stripe event means for revenue: a purchase to record. */
export type StripeRevenue = Omit<ConversionInput, "organizationId" | "now"> & {
  type: "purchase";
  channel: "stripe";
};

/**
 * Why a validly signed event could not be read, a label of `buddy_stripe_events_unreadable_total`:
 * a body that is no JSON, JSON that is no event (no id or type), or a Checkout Session or invoice
 * whose fields are missing or of another type than Stripe documents.
 */
export const UNREADABLE_REASONS = ["not_json", "not_an_event", "checkout_session", "invoice"] as const;
export type UnreadableReason = (typeof UNREADABLE_REASONS)[number];

export type StripeEventReading =
  | { kind: "purchase"; eventId: string; revenue: StripeRevenue }
  | { kind: "ignored"; eventId: string; type: string }
  | { kind: "unreadable"; reason: UnreadableReason; eventId?: string; type?: string; problem: string };

/** An id Stripe made (`evt_…`, `cus_…`, `in_…`): text under the one text rule, never empty. */
const stripeId = (label: string, max: number) => text(label, { trim: false }).min(1).max(max);
/** Stripe's amounts are minor units already: a whole number Buddy can keep exactly. */
const minorUnits = z.int().min(0).max(MAX_MINOR_UNITS);
/** Stripe's currencies are lower case (`usd`); Buddy keeps ISO 4217 codes in upper case. */
const currency = z
  .string()
  .transform((code) => code.toUpperCase())
  .refine(isCurrency, { error: "not an ISO 4217 currency" });
/** A customer, as its id or expanded to the object (a deleted one too). */
const customer = z
  .union([
    stripeId("customer", CUSTOMER_ID_MAX_LENGTH),
    z.looseObject({ id: stripeId("customer", CUSTOMER_ID_MAX_LENGTH) }),
  ])
  .nullish()
  .transform((value) => (typeof value === "string" ? value : value?.id));

/** Any event: Buddy reads the id and type of all, and the object of two types. */
const eventSchema = z.looseObject({
  id: stripeId("id", EVENT_ID_MAX_LENGTH),
  type: text("type", { trim: false }).min(1).max(200),
});
const dataOf = <T extends z.ZodType>(object: T) => z.looseObject({ data: z.looseObject({ object }) });

const checkoutSessionCompleted = dataOf(
  z.looseObject({
    id: stripeId("id", EVENT_ID_MAX_LENGTH),
    client_reference_id: text("client_reference_id", { trim: false }).nullish(),
    // Null for a Checkout without a payment (setup mode): nothing to record, not unreadable.
    amount_total: minorUnits.nullable(),
    currency: currency.nullable(),
    customer,
  }),
);

const invoicePaid = dataOf(
  z.looseObject({
    id: stripeId("id", EVENT_ID_MAX_LENGTH),
    customer,
    amount_paid: minorUnits,
    currency,
    billing_reason: z.string().nullish(),
  }),
);

/**
 * CONTRACT §8. A completed Checkout whose `client_reference_id` is a click id is a purchase of
 * that click (binding the session's customer to it); a paid invoice of a bound customer is a
 * purchase of the customer's click, except the subscription's first invoice, which the checkout
 * has counted already. Stripe's amounts are minor units already, its currencies lower case.
 *
 * `json` is the signed body, already verified: nothing in it is trusted to have the shape Stripe
 * documents. A body Buddy cannot read (`undefined`: not JSON) or an event of those two types
 * whose object it cannot read is `unreadable`, answered 200 like any other event and recorded
 * nowhere but the log and the metrics: Stripe would otherwise send it again for days.
 */
export function readStripeEvent(json: unknown): StripeEventReading {
  const envelope = readSignedEvent(json, eventSchema);
  if (envelope.kind === "unreadable") return envelope;
  const { id: eventId, type } = envelope.event;

  if (type === "checkout.session.completed") {
    const parsed = checkoutSessionCompleted.safeParse(json);
    if (!parsed.success)
      return {
        kind: "unreadable",
        reason: "checkout_session",
        eventId,
        type,
        problem: problemOf(parsed.error),
      };
    const session = parsed.data.data.object;
    if (!session.client_reference_id || session.amount_total === null || session.currency === null)
      return { kind: "ignored", eventId, type };
    return {
      kind: "purchase",
      eventId,
      revenue: {
        type: "purchase",
        channel: "stripe",
        clickId: session.client_reference_id,
        customerId: session.customer,
        valueMinor: session.amount_total,
        currency: session.currency,
        eventId,
        metadata: { stripe: { event: eventId, checkoutSession: session.id } },
      },
    };
  }

  if (type === "invoice.paid") {
    const parsed = invoicePaid.safeParse(json);
    if (!parsed.success)
      return { kind: "unreadable", reason: "invoice", eventId, type, problem: problemOf(parsed.error) };
    const invoice = parsed.data.data.object;
    if (!invoice.customer || invoice.billing_reason === "subscription_create")
      return { kind: "ignored", eventId, type };
    return {
      kind: "purchase",
      eventId,
      revenue: {
        type: "purchase",
        channel: "stripe",
        customerId: invoice.customer,
        valueMinor: invoice.amount_paid,
        currency: invoice.currency,
        eventId: invoice.id,
        metadata: { stripe: { event: eventId, invoice: invoice.id } },
      },
    };
  }

  return { kind: "ignored", eventId, type };
}
