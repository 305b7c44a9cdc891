import { describe, expect, it } from "vitest";
import {
  chartLayout,
  labelledDayIndexes,
  niceRange,
  niceScale,
  seriesPoints,
  summarizeDailyFigures,
  yPosition,
} from "@/features/overview/chart-geometry";
import { makeDailyFigures } from "@/features/overview/daily-figures-fixture";

describe("niceScale", () => {
  it("rounds the top of the axis up to whole, round steps", () => {
    expect(niceScale(0)).toEqual({ max: 1, ticks: [0, 1] });
    expect(niceScale(7)).toEqual({ max: 8, ticks: [0, 2, 4, 6, 8] });
    expect(niceScale(120)).toEqual({ max: 150, ticks: [0, 50, 100, 150] });
  });
});

describe("niceRange", () => {
  it("reaches below 0 for a day of net refunds, 0 among the ticks, and plots within the area", () => {
    expect(niceRange(-30, 100)).toEqual({ min: -50, max: 100, ticks: [-50, 0, 50, 100] });
    expect(niceRange(-20, 0)).toEqual({ min: -20, max: 0, ticks: [-20, -15, -10, -5, 0] });
    const layout = chartLayout(640);
    const { min, max } = niceRange(-30, 100);
    expect(yPosition(layout, min, max, min)).toBe(layout.top + layout.plotHeight);
    expect(yPosition(layout, max, max, min)).toBe(layout.top);
    expect(yPosition(layout, -30, max, min)).toBeLessThan(layout.top + layout.plotHeight);
  });
});

describe("labelledDayIndexes", () => {
  it("labels fewer days on a phone than on a wide screen, always including the latest day", () => {
    const phone = labelledDayIndexes(30, chartLayout(320));
    const wide = labelledDayIndexes(30, chartLayout(1000));
    expect(phone.at(-1)).toBe(29);
    expect(wide.at(-1)).toBe(29);
    expect(phone.length).toBeLessThanOrEqual(6);
    expect(wide.length).toBeGreaterThan(phone.length);
  });
});

describe("seriesPoints", () => {
  it("places one point per day, from the left edge to the right edge of the plot", () => {
    const days = makeDailyFigures();
    const points = seriesPoints(days, "clicksSent", chartLayout(640), 10).split(" ");
    expect(points).toHaveLength(30);
    expect(points[0]?.startsWith("44,")).toBe(true);
    expect(points[29]?.startsWith("620,")).toBe(true);
  });
});

describe("summarizeDailyFigures", () => {
  it("names the period and each series' total", () => {
    const days = makeDailyFigures({ 0: { clicksSent: 2 }, 29: { clicksSent: 3, leadsReceived: 1 } });
    expect(summarizeDailyFigures(days)).toBe(
      "Clicks and leads per day, Feb 1 to Mar 2. Totals: clicks sent 5, clicks received 0, leads sent 0, leads received 1.",
    );
  });
});
