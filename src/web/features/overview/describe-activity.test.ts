import { describe, expect, it } from "vitest";
import {
  type ActivityItem,
  describeActivity,
  formatRelativeTime,
} from "@/features/overview/describe-activity";

function item(
  kind: ActivityItem["kind"],
  detail: string | null = null,
  amount: ActivityItem["amount"] = null,
): ActivityItem {
  return { kind, at: "2025-03-01T12:00:00.000Z", organization: { id: "o2", name: "Acme" }, detail, amount };
}

describe("describeActivity", () => {
  it("writes one readable sentence per kind, with the lead's conversion type when known", () => {
    expect(describeActivity(item("click_sent"))).toBe("Click sent to Acme");
    expect(describeActivity(item("click_received"))).toBe("Click received from Acme");
    expect(describeActivity(item("lead_sent", "trial"))).toBe("Lead (trial) sent to Acme");
    expect(describeActivity(item("lead_received", "signup"))).toBe("Lead (signup) received from Acme");
    expect(describeActivity(item("lead_received"))).toBe("Lead received from Acme");
    expect(describeActivity(item("new_buddy"))).toBe("New Buddy: Acme");
  });

  it("names a sale's amount in its currency, both ways", () => {
    const usd = { currency: "USD", value: 49.99 };
    expect(describeActivity(item("sale_received", "purchase", usd))).toBe("Purchase of $49.99 from Acme");
    expect(describeActivity(item("sale_sent", "purchase", usd))).toBe("Purchase of $49.99 sent to Acme");
    expect(describeActivity(item("sale_received", "upgrade", { currency: "JPY", value: 500 }))).toBe(
      "Upgrade of ¥500 from Acme",
    );
    expect(describeActivity(item("sale_sent", "purchase", { currency: "EUR", value: 1234.5 }))).toBe(
      "Purchase of €1,234.50 sent to Acme",
    );
    // Without its type, still a sale; without an amount (never sent so), the lead's words.
    expect(describeActivity(item("sale_received", null, usd))).toBe("Sale of $49.99 from Acme");
    expect(describeActivity(item("sale_received", "trial"))).toBe("Lead (trial) received from Acme");
  });

  it("names what a refund or dispute took back, and a dispute won gave back", () => {
    const eur = { currency: "EUR", value: 30.5 };
    expect(describeActivity(item("refund_received", "refund", eur))).toBe(
      "Refund of €30.50 on a sale from Acme",
    );
    expect(describeActivity(item("refund_sent", "refund", eur))).toBe(
      "Refund of €30.50 on a sale sent to Acme",
    );
    expect(describeActivity(item("refund_received", "dispute", eur))).toBe(
      "Dispute of €30.50 on a sale from Acme",
    );
    expect(describeActivity(item("refund_sent", "dispute_won", eur))).toBe(
      "Dispute won: €30.50 back on a sale sent to Acme",
    );
  });
});

describe("formatRelativeTime", () => {
  const now = Date.parse("2025-03-10T12:00:00.000Z");
  it("says how long ago, in the largest whole unit", () => {
    expect(formatRelativeTime("2025-03-10T11:59:30.000Z", now)).toBe("just now");
    expect(formatRelativeTime("2025-03-10T11:55:00.000Z", now)).toBe("5 minutes ago");
    expect(formatRelativeTime("2025-03-10T09:00:00.000Z", now)).toBe("3 hours ago");
    expect(formatRelativeTime("2025-03-09T10:00:00.000Z", now)).toBe("yesterday");
    expect(formatRelativeTime("2025-02-24T12:00:00.000Z", now)).toBe("2 weeks ago");
  });

  it("treats a time slightly in the future (clock skew) as just now", () => {
    expect(formatRelativeTime("2025-03-10T12:00:05.000Z", now)).toBe("just now");
  });
});
