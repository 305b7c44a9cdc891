import { describe, expect, it } from "vitest";
import { DAY_MS, isoDay, windowStart } from "./days";

describe("isoDay", () => {
  it("names a moment's UTC day, whatever the hour", () => {
    expect(isoDay(Date.parse("2026-03-10T00:00:00Z"))).toBe("2026-03-10");
    expect(isoDay(Date.parse("2026-03-10T23:59:59.999Z"))).toBe("2026-03-10");
    expect(isoDay(Date.parse("2026-03-10T00:00:00Z") + DAY_MS)).toBe("2026-03-11");
  });
});

describe("windowStart", () => {
  it("starts days − 1 days before today, UTC", () => {
    const now = new Date("2026-03-10T23:30:00Z");
    expect(windowStart(1, now)).toBe("2026-03-10");
    expect(windowStart(30, now)).toBe("2026-02-09");
  });

  it("crosses a daylight-saving change and a leap day a whole day at a time", () => {
    expect(windowStart(2, new Date("2024-03-01T00:30:00Z"))).toBe("2024-02-29");
    expect(windowStart(366, new Date("2024-12-31T12:00:00Z"))).toBe("2024-01-01");
  });
});
