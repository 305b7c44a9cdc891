import type { WebhookDelivery } from "@shared/webhooks";

/** What became of a message just sent (a test event, a resend), as far as its attempts tell. */
export type MessageOutcome =
  | { state: "waiting" }
  | { state: "delivered"; delivery: WebhookDelivery }
  | { state: "failed"; delivery: WebhookDelivery; retrying: boolean };

/**
 * The outcome of attempt `attempt` of a message, from that message's deliveries (newest first):
 * the newest attempt made from it on, and whether Buddy retries it (a pending one is listed).
 */
export function messageOutcome(
  deliveries: readonly WebhookDelivery[] | undefined,
  attempt: number,
): MessageOutcome {
  const made = deliveries?.find((delivery) => delivery.status !== "pending" && delivery.attempt >= attempt);
  if (!made) return { state: "waiting" };
  if (made.status === "succeeded") return { state: "delivered", delivery: made };
  const retrying = (deliveries ?? []).some(
    (delivery) => delivery.status === "pending" && delivery.attempt > made.attempt,
  );
  return { state: "failed", delivery: made, retrying };
}

export type OutcomeTone = "waiting" | "delivered" | "failed";

/** The outcome in words, after `label` ("Test event", "Resent message"). */
export function describeOutcome(
  label: string,
  outcome: MessageOutcome,
  expired: boolean,
): { tone: OutcomeTone; text: string } {
  if (outcome.state === "waiting") {
    return expired
      ? { tone: "waiting", text: `${label}: no answer recorded yet. See Deliveries for it.` }
      : { tone: "waiting", text: `${label} sent, waiting for the endpoint's answer…` };
  }
  const { delivery } = outcome;
  const took = delivery.durationMs === null ? "" : ` in ${delivery.durationMs} ms`;
  if (outcome.state === "delivered") {
    return { tone: "delivered", text: `${label} delivered: HTTP ${delivery.responseStatus}${took}` };
  }
  const why =
    delivery.responseStatus !== null
      ? `HTTP ${delivery.responseStatus}`
      : (delivery.response ?? "no response");
  const next = outcome.retrying ? ". Buddy retries it." : "";
  return { tone: "failed", text: `${label} failed: ${why}${next}` };
}
