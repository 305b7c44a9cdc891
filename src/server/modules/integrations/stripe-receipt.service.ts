import { STRIPE_MESSAGES } from "@shared/integrations";
import type { Db } from "../../db/client";
import { AppError, badRequest } from "../../errors";
import type { SecretSealer } from "../../lib/sealed-secrets";
import {
  type StripeDelivery,
  StripeSignatureError,
  signedJson,
  verifyStripeSignature,
} from "../../lib/stripe-webhook";
import type { ConversionInput, ConversionResult } from "../tracking/conversions/conversions.service";
import type { RefundInput, RefundOutcome } from "../tracking/conversions/refunds.service";
import { noteStripeEvent, stripeWebhookSecret } from "./stripe-connection.service";
import { readStripeEvent, type UnreadableReason } from "./stripe-events";

export type StripeReceiptDeps = {
  db: Db;
  sealer: SecretSealer;
  /** The tracker's one recorder of conversions (tracker.ts). */
  recordConversion: (input: ConversionInput) => Promise<ConversionResult>;
  /** Refunds and disputes of a recorded purchase (refunds.service.ts). */
  recordRefund: (input: RefundInput) => Promise<RefundOutcome>;
  countUnreadable: (reason: UnreadableReason) => void;
  log: { info(object: object, message: string): void; warn(object: object, message: string): void };
};

/**
 * CONTRACT §8: one event from an organization's own Stripe. Throws 400 only when the delivery is
 * not the organization's (no connection, a missing or wrong signature, or one dated more than 5
 * minutes from now). Everything validly signed is taken: a purchase is recorded, a refund or a
 * dispute of a recorded purchase is taken from it (or a won dispute given back), and another
 * event, a shape Buddy cannot read, an unknown click id or customer, or an amount Buddy cannot
 * keep records nothing and is only logged, or Stripe would send it again for days.
 */
export async function receiveStripeEvent(
  deps: StripeReceiptDeps,
  organizationId: string,
  delivery: StripeDelivery | null,
): Promise<void> {
  const secret = await stripeWebhookSecret(deps.db, deps.sealer, organizationId);
  if (!secret) throw badRequest(STRIPE_MESSAGES.notConnected);
  if (!delivery) throw badRequest(STRIPE_MESSAGES.badSignature);
  try {
    verifyStripeSignature(delivery.body, delivery.signature, secret);
  } catch (error) {
    if (error instanceof StripeSignatureError) throw badRequest(STRIPE_MESSAGES.badSignature);
    throw error;
  }
  // Any validly signed event proves the connection works, whatever it records.
  try {
    await noteStripeEvent(deps.db, organizationId);
  } catch (error) {
    deps.log.warn(
      { organizationId, err: error },
      "Could not note the Stripe event's time: the event is still taken",
    );
  }
  // Signed by the organization's Stripe, and still read as untrusted.
  const reading = readStripeEvent(signedJson(delivery.body));
  if (reading.kind === "unreadable") {
    deps.countUnreadable(reading.reason);
    const { reason, eventId, type, problem } = reading;
    deps.log.warn(
      { organizationId, event: eventId, type, reason, problem },
      "Stripe event of a shape Buddy cannot read: recorded nothing",
    );
    return;
  }
  if (reading.kind === "refund") {
    try {
      const result = await deps.recordRefund({ ...reading.refund, organizationId });
      if (result.outcome === "nothing")
        deps.log.info(
          { organizationId, event: reading.eventId, reason: result.reason },
          "Stripe refund or dispute recorded nothing",
        );
      else if (result.outcome === "recorded" && result.clampedFrom !== undefined)
        deps.log.info(
          { organizationId, event: reading.eventId, asked: result.clampedFrom, refund: result.refund },
          "Stripe took back more than remained of the conversion: took what remained",
        );
    } catch (error) {
      // An unknown payment intent (a payment Buddy never recorded) or a conversion without a value.
      if (!(error instanceof AppError && (error.statusCode === 404 || error.statusCode === 400))) throw error;
      deps.log.info(
        { organizationId, event: reading.eventId, reason: error.message },
        "Stripe refund or dispute recorded nothing",
      );
    }
    return;
  }
  if (reading.kind !== "purchase") return;
  try {
    await deps.recordConversion({ ...reading.revenue, organizationId });
  } catch (error) {
    if (!(error instanceof AppError && (error.statusCode === 404 || error.statusCode === 400))) throw error;
    deps.log.info(
      { organizationId, event: reading.eventId, reason: error.message },
      "Stripe event recorded nothing",
    );
  }
}
