import { describe, expect, it } from "vitest";
import { formatLastEventTime } from "@/features/settings/install/last-event-time";

const NOW = Date.parse("2026-03-02T14:00:00Z");
const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe("formatLastEventTime", () => {
  it("says 'just now' within a minute, and for a time a little ahead (clock skew)", () => {
    expect(formatLastEventTime(ago(0), NOW)).toBe("just now");
    expect(formatLastEventTime(ago(59_000), NOW)).toBe("just now");
    expect(formatLastEventTime(ago(-5_000), NOW)).toBe("just now");
  });

  it("counts minutes within the hour", () => {
    expect(formatLastEventTime(ago(60_000), NOW)).toBe("1 minute ago");
    expect(formatLastEventTime(ago(59 * 60_000), NOW)).toBe("59 minutes ago");
  });

  it("gives the local date and time after an hour, and the text itself when it is no time", () => {
    const older = ago(3 * 3_600_000);
    const local = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
    expect(formatLastEventTime(older, NOW)).toBe(local.format(Date.parse(older)));
    expect(formatLastEventTime("not a time", NOW)).toBe("not a time");
  });
});
