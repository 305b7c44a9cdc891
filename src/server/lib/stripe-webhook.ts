import Stripe from "stripe";
import type { z } from "zod";

/** CONTRACT §8: a `Stripe-Signature` dated within five minutes of now, either side. */
export const STRIPE_SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * The most a Stripe event's body may weigh: a route Stripe posts to keeps its raw bytes up to this
 * (plugins/raw-json-body.ts), since the signature covers those exact bytes.
 */
export const STRIPE_EVENT_BODY_LIMIT = 256 * 1024;

export class StripeSignatureError extends Error {}

/** What Stripe posted: the raw bytes and their `Stripe-Signature`. */
export type StripeDelivery = { body: Buffer; signature: string };

/**
 * A request's body and `Stripe-Signature` header as a delivery, or null when either is missing
 * (no header, or a body not kept raw): no signature can cover it.
 */
export function stripeDelivery(signature: unknown, body: unknown): StripeDelivery | null {
  return typeof signature === "string" && Buffer.isBuffer(body) ? { body, signature } : null;
}

/**
 * The time a `Stripe-Signature` header signs, read as the `stripe` package reads it (the last
 * `t=`, through parseInt), since that is the time its HMAC covers: NaN when there is none.
 */
function signedAt(header: string): number {
  let timestamp = Number.NaN;
  for (const item of header.split(",")) {
    const [key, value] = item.split("=");
    if (key === "t") timestamp = Number.parseInt(value ?? "", 10);
  }
  return timestamp;
}

/**
 * Checks a webhook's `Stripe-Signature` against the exact bytes that arrived: the HMAC by the
 * `stripe` package, the time here. The package refuses only a signature older than its tolerance,
 * so a request dated in the future (replayable until then) would pass it; here a timestamp more
 * than the tolerance from now either way, or none, is refused too. Throws StripeSignatureError.
 * Shared by the organizations' own Stripe (integrations) and Buddy's billing.
 */
export function verifyStripeSignature(
  body: Buffer,
  header: string,
  secret: string,
  nowMs: number = Date.now(),
): void {
  const timestamp = signedAt(header);
  const now = Math.floor(nowMs / 1000);
  if (!Number.isFinite(timestamp) || Math.abs(now - timestamp) > STRIPE_SIGNATURE_TOLERANCE_SECONDS)
    throw new StripeSignatureError("Timestamp outside the tolerance zone");
  const signature = Stripe.webhooks.signature;
  if (!signature) throw new Error("the stripe package has no signature helper");
  try {
    signature.verifyHeader(body, header, secret, STRIPE_SIGNATURE_TOLERANCE_SECONDS, undefined, nowMs);
  } catch (error) {
    throw new StripeSignatureError(error instanceof Error ? error.message : String(error));
  }
}

/** A signed body's JSON, or `undefined` when it is none: a shape Buddy cannot read. */
export function signedJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    return undefined;
  }
}

/** Why a signed event could not be read, and its first problem, for the log (never the values). */
export type Unreadable<Reason extends string> = { kind: "unreadable"; reason: Reason; problem: string };

/** The first thing wrong in a parse, by its path: for the log line, without the values themselves. */
export function problemOf(error: z.ZodError): string {
  const [issue] = error.issues;
  return issue ? `${issue.path.join(".") || "(body)"}: ${issue.message}` : "unreadable";
}

/**
 * A verified body (signedJson's) read as a Stripe event by `schema` (its id, type, …): nothing in
 * it is trusted to have the shape Stripe documents. Not JSON, or not such an event, is unreadable.
 */
export function readSignedEvent<T>(
  json: unknown,
  schema: z.ZodType<T>,
): { kind: "event"; event: T } | Unreadable<"not_json" | "not_an_event"> {
  if (json === undefined) return { kind: "unreadable", reason: "not_json", problem: "(body): not JSON" };
  const event = schema.safeParse(json);
  if (!event.success) return { kind: "unreadable", reason: "not_an_event", problem: problemOf(event.error) };
  return { kind: "event", event: event.data };
}
