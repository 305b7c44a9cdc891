import type { WebhookDelivery } from "@shared/webhooks";
import { describe, expect, it } from "vitest";
import { describeOutcome, messageOutcome } from "@/features/settings/webhooks/message-outcome";

const attempt = (overrides: Partial<WebhookDelivery>): WebhookDelivery => ({
  id: "att",
  messageId: "msg_1",
  eventType: "webhook.test",
  attempt: 1,
  status: "succeeded",
  responseStatus: 200,
  durationMs: 42,
  response: "ok",
  request: "{}",
  createdAt: "2026-03-02T14:05:09.000Z",
  ...overrides,
});
const pending = (n: number) =>
  attempt({
    id: `job:${n}`,
    attempt: n,
    status: "pending",
    responseStatus: null,
    durationMs: null,
    response: null,
    request: null,
  });

describe("a sent message's outcome", () => {
  it("waits until the attempt asked for (or a later one) is made", () => {
    expect(messageOutcome(undefined, 1)).toEqual({ state: "waiting" });
    expect(messageOutcome([pending(1)], 1)).toEqual({ state: "waiting" });
    // A resend is attempt 3: the earlier attempts say nothing of it.
    expect(messageOutcome([pending(3), attempt({ attempt: 2, status: "failed" })], 3)).toEqual({
      state: "waiting",
    });
  });

  it("is delivered, or failed and retried while a later attempt waits", () => {
    expect(messageOutcome([attempt({})], 1)).toMatchObject({ state: "delivered" });
    const failed = attempt({ status: "failed", responseStatus: 500 });
    expect(messageOutcome([pending(2), failed], 1)).toMatchObject({ state: "failed", retrying: true });
    expect(messageOutcome([failed], 1)).toMatchObject({ state: "failed", retrying: false });
  });

  it("reads as words: the status and time, or why there was no answer", () => {
    expect(describeOutcome("Test event", messageOutcome([attempt({})], 1), false)).toEqual({
      tone: "delivered",
      text: "Test event delivered: HTTP 200 in 42 ms",
    });
    const timeout = attempt({ status: "failed", responseStatus: null, response: "No answer within 10 s" });
    expect(describeOutcome("Resent message", messageOutcome([timeout], 1), false)).toEqual({
      tone: "failed",
      text: "Resent message failed: No answer within 10 s",
    });
    expect(describeOutcome("Test event", { state: "waiting" }, false).text).toBe(
      "Test event sent, waiting for the endpoint's answer…",
    );
    expect(describeOutcome("Test event", { state: "waiting" }, true).text).toBe(
      "Test event: no answer recorded yet. See Deliveries for it.",
    );
  });
});
