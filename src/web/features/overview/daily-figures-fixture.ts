import { DAY_MS, isoDay } from "@shared/days";
import type { DailyFigures } from "@shared/tracking";

/** Test data: 30 days from 2025-02-01, all zero except the days given by index. */
export function makeDailyFigures(
  overrides: Record<number, Partial<Omit<DailyFigures[number], "day">>> = {},
): DailyFigures {
  const start = Date.parse("2025-02-01T00:00:00.000Z");
  return Array.from({ length: 30 }, (_, index) => ({
    day: isoDay(start + index * DAY_MS),
    clicksSent: 0,
    clicksReceived: 0,
    leadsSent: 0,
    leadsReceived: 0,
    ...overrides[index],
  }));
}
