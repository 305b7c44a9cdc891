import { describe, expect, it } from "vitest";
import {
  type ActivityItem,
  describeActivity,
  formatRelativeTime,
} from "@/features/overview/describe-activity";

function item(kind: ActivityItem["kind"], detail: string | null = null): ActivityItem {
  return { kind, at: "2025-03-01T12:00:00.000Z", organization: { id: "o2", name: "Acme" }, detail };
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
