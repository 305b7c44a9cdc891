import { describe, expect, it } from "vitest";
import { isPaidSubscriptionStatus } from "./billing";

describe("isPaidSubscriptionStatus", () => {
  it.each(["active", "trialing", "past_due"])("counts %s as a paid subscription", (status) => {
    expect(isPaidSubscriptionStatus(status)).toBe(true);
  });

  it.each(["canceled", "incomplete", "incomplete_expired", "unpaid", "paused", "", null, undefined])(
    "does not count %s",
    (status) => {
      expect(isPaidSubscriptionStatus(status)).toBe(false);
    },
  );
});
