import { DAY_MS, isoDay } from "@shared/days";
import { describe, expect, it } from "vitest";
import { periodStarts, type Span, windowParts } from "./period-window";

const count = (span: Span, unit: "day" | "part" | "month", starts: Iterable<string>) =>
  unit === "day"
    ? (Date.parse(span.to) - Date.parse(span.from)) / DAY_MS
    : [...starts].filter((start) => start >= span.from && start < span.to).length;

describe("a window as periods and days", () => {
  it("sums the window's days for every first day of four years, from at most 4 days, 2 parts and 6 months", () => {
    // A different number of clicks each day from 2024 to 2027, rolled up as the triggers do (by
    // periodStarts, which period-starts.api.test.ts holds equal to the database's); each
    // window's sum read as the ledger reads it must be the sum of its days.
    const start = Date.UTC(2024, 0, 1);
    const end = Date.UTC(2028, 0, 1);
    const daily = new Map<string, number>();
    const rollups = {
      year: new Map<string, number>(),
      month: new Map<string, number>(),
      part: new Map<string, number>(),
    };
    for (let at = start, n = 1; at < end; at += DAY_MS, n++) {
      const clicks = (n * 7919) % 101;
      const day = isoDay(at);
      daily.set(day, clicks);
      for (const [period, starts] of Object.entries(periodStarts(day)) as [keyof typeof rollups, string][])
        rollups[period].set(starts, (rollups[period].get(starts) ?? 0) + clicks);
    }
    const inSpan = (rows: Map<string, number>, span: Span) =>
      span.sign *
      [...rows].filter(([at]) => at >= span.from && at < span.to).reduce((sum, [, n]) => sum + n, 0);
    let suffix = [...daily.values()].reduce((sum, n) => sum + n, 0);
    for (let first = start; first < end; first += DAY_MS) {
      const parts = windowParts(isoDay(first));
      const read =
        [...rollups.year].filter(([at]) => at >= parts.years).reduce((sum, [, n]) => sum + n, 0) +
        inSpan(rollups.month, parts.months) +
        inSpan(rollups.part, parts.parts) +
        inSpan(daily, parts.days);
      expect(read, isoDay(first)).toBe(suffix);
      expect(count(parts.days, "day", [])).toBeLessThanOrEqual(4);
      expect(count(parts.parts, "part", rollups.part.keys())).toBeLessThanOrEqual(2);
      expect(count(parts.months, "month", rollups.month.keys())).toBeLessThanOrEqual(6);
      suffix -= daily.get(isoDay(first)) ?? 0;
    }
  });

  it("reads a window from a year's first day from the years alone", () => {
    const parts = windowParts("2026-01-01");
    expect(parts.years).toBe("2026-01-01");
    for (const span of [parts.months, parts.parts, parts.days]) expect(span.from).toBe(span.to);
  });

  it("adds the days to the next period, or takes away the days before the first", () => {
    // November 29: November 29 and 30, then December, then the years from 2027.
    expect(windowParts("2025-11-29")).toEqual({
      years: "2026-01-01",
      months: { from: "2025-12-01", to: "2026-01-01", sign: 1 },
      parts: { from: "2025-12-01", to: "2025-12-01", sign: 1 },
      days: { from: "2025-11-29", to: "2025-12-01", sign: 1 },
    });
    // March 11: the part from March 9 less March 9 and 10, then the rest of March, then the rest
    // of the year less January and February.
    expect(windowParts("2026-03-11")).toEqual({
      years: "2026-01-01",
      months: { from: "2026-01-01", to: "2026-03-01", sign: -1 },
      parts: { from: "2026-03-01", to: "2026-03-09", sign: -1 },
      days: { from: "2026-03-09", to: "2026-03-11", sign: -1 },
    });
  });
});
