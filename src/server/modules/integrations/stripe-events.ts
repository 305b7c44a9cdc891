import { isCurrency, MAX_MINOR_UNITS } from "@shared/money";
import { text } from "@shared/text";
import { CUSTOMER_ID_MAX_LENGTH, EVENT_ID_MAX_LENGTH } from "@shared/tracking";
import { z } from "zod";
import { problemOf, readSignedEvent } from "../../lib/stripe-webhook";
import type { ConversionInput } from "../tracking/conversions/conversions.service";
import type { RefundInput } from "../tracking/conversions/refunds.service";

/** What a Stripe event means for revenue: a purchase to record. */
export type StripeRevenue = Omit<ConversionInput, "organizationId" | "now"> & {
  type: "purchase";
  channel: "stripe";
};

/** What a Stripe event means for a recorded purchase: revenue taken back or given back. */
export type StripeRefund = Omit<RefundInput, "organizationId" | "now"> & {
  channel: "stripe";
  target: { paymentIntentId: string };
};

/**
 * Why a validly signed event could not be read, a label of `buddy_stripe_events_unreadable_total`:
 * a body that is no JSON, JSON that is no event (no id or type), or a Checkout Session, invoice,
 * charge or dispute whose fields are missing or of another type than Stripe documents.
 */
export const UNREADABLE_REASONS = [
  "not_json",
  "not_an_event",
  "checkout_session",
  "invoice",
  "charge",
  "dispute",
] as const;
export type UnreadableReason = (typeof UNREADABLE_REASONS)[number];

export type StripeEventReading =
  | { kind: "purchase"; eventId: string; revenue: StripeRevenue }
  | { kind: "refund"; eventId: string; refund: StripeRefund }
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

/**
 * A payment intent, as its id or expanded. Read leniently: a purchase whose payment intent Buddy
 * cannot read is still a purchase (its refunds are then not matched), never an unreadable event.
 */
const paymentIntentId = z
  .union([stripeId("payment_intent", 255), z.looseObject({ id: stripeId("payment_intent", 255) })])
  .nullish()
  .transform((value) => (typeof value === "string" ? value : value?.id) ?? undefined)
  .catch(undefined);
/**
 * An invoice's payment intent: `payment_intent` up to Stripe's API version 2025-03-31, then the
 * invoice's `payments` list (`payments.data[].payment.payment_intent`), the first one paid.
 */
const invoicePayments = z
  .looseObject({
    data: z.array(
      z.looseObject({
        status: z.string().nullish(),
        payment: z.looseObject({ payment_intent: paymentIntentId }).nullish(),
      }),
    ),
  })
  .nullish()
  .transform(
    (payments) =>
      (
        payments?.data.find((entry) => entry.status === "paid" && entry.payment?.payment_intent) ??
        payments?.data.find((entry) => entry.payment?.payment_intent)
      )?.payment?.payment_intent,
  )
  .catch(undefined);

/** Any event: Buddy reads the id and type of all, and the object of a few types. */
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
    payment_intent: paymentIntentId,
  }),
);

const invoicePaid = dataOf(
  z.looseObject({
    id: stripeId("id", EVENT_ID_MAX_LENGTH),
    customer,
    amount_paid: minorUnits,
    currency,
    billing_reason: z.string().nullish(),
    payment_intent: paymentIntentId,
    payments: invoicePayments,
  }),
);

/** A charge refunded: `amount_refunded` is the running total of its refunds. */
const chargeRefunded = dataOf(
  z.looseObject({
    id: stripeId("id", 255),
    amount_refunded: minorUnits,
    currency,
    payment_intent: paymentIntentId,
  }),
);

const dispute = dataOf(
  z.looseObject({
    id: stripeId("id", 100),
    amount: minorUnits,
    currency,
    payment_intent: paymentIntentId,
    status: z.string().nullish(),
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
        ...(session.payment_intent ? { paymentIntentId: session.payment_intent } : {}),
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
        ...((invoice.payment_intent ?? invoice.payments)
          ? { paymentIntentId: invoice.payment_intent ?? invoice.payments }
          : {}),
      },
    };
  }

  if (type === "charge.refunded") {
    const parsed = chargeRefunded.safeParse(json);
    if (!parsed.success)
      return { kind: "unreadable", reason: "charge", eventId, type, problem: problemOf(parsed.error) };
    const charge = parsed.data.data.object;
    if (!charge.payment_intent) return { kind: "ignored", eventId, type };
    return {
      kind: "refund",
      eventId,
      refund: {
        channel: "stripe",
        target: { paymentIntentId: charge.payment_intent },
        // Each event is its own refund; it records what its total adds to those recorded before.
        refundId: `stripe:${eventId}`,
        kind: "refund",
        amount: { refundedUpTo: charge.amount_refunded, currency: charge.currency },
      },
    };
  }

  if (type === "charge.dispute.created" || type === "charge.dispute.closed") {
    const parsed = dispute.safeParse(json);
    if (!parsed.success)
      return { kind: "unreadable", reason: "dispute", eventId, type, problem: problemOf(parsed.error) };
    const object = parsed.data.data.object;
    if (!object.payment_intent) return { kind: "ignored", eventId, type };
    const target = { paymentIntentId: object.payment_intent };
    if (type === "charge.dispute.created")
      return {
        kind: "refund",
        eventId,
        refund: {
          channel: "stripe",
          target,
          refundId: `stripe:dispute:${object.id}`,
          kind: "dispute",
          amount: { minor: object.amount, currency: object.currency },
        },
      };
    // Closed: won gives back what the dispute took; lost keeps it taken (nothing to record).
    if (object.status !== "won") return { kind: "ignored", eventId, type };
    return {
      kind: "refund",
      eventId,
      refund: {
        channel: "stripe",
        target,
        refundId: `stripe:dispute_won:${object.id}`,
        kind: "dispute_won",
        amount: { givesBack: `stripe:dispute:${object.id}` },
      },
    };
  }

  return { kind: "ignored", eventId, type };
}
