import { formatMoney } from "@shared/money";
import type { DailyFigures, DailyRevenue, Revenue } from "@shared/tracking";
import type { ChartDay, ChartSeries } from "@/features/overview/chart-geometry";

export type RevenueKey = "received" | "sent";

/** Received dashed, as the received counts are: the chart does not rely on colour alone. */
export const REVENUE_SERIES: ChartSeries<RevenueKey>[] = [
  { key: "sent", label: "Revenue sent", colour: "text-sky-600 dark:text-sky-400", dashed: false },
  {
    key: "received",
    label: "Revenue received",
    colour: "text-emerald-600 dark:text-emerald-400",
    dashed: true,
  },
];

/**
 * The currencies with revenue in the period, in the revenue card's order: the most sales both ways
 * first (amounts in different currencies are never compared, CONTRACT §8), then by code.
 */
export function revenueCurrencies(rows: DailyRevenue, totals: Revenue | undefined): string[] {
  const sales = new Map<string, number>();
  for (const total of [...(totals?.sent ?? []), ...(totals?.received ?? [])])
    sales.set(total.currency, (sales.get(total.currency) ?? 0) + total.sales);
  return [...new Set(rows.map((row) => row.currency))].sort(
    (a, b) => (sales.get(b) ?? 0) - (sales.get(a) ?? 0) || a.localeCompare(b),
  );
}

/** One currency's revenue on each of the chart's days, zeros where it had none. */
export function revenueDays(
  days: DailyFigures,
  rows: DailyRevenue,
  currency: string,
): ChartDay<RevenueKey>[] {
  const byDay = new Map(rows.filter((row) => row.currency === currency).map((row) => [row.day, row]));
  return days.map(({ day }) => ({
    day,
    sent: byDay.get(day)?.sent ?? 0,
    received: byDay.get(day)?.received ?? 0,
  }));
}

/** Tooltips in the currency to the cent; the axis short enough for its margin ("$12K"). */
export function revenueChartKind(currency: string) {
  const compact = new Intl.NumberFormat("en-US", {
    style: "currency",
    currency,
    notation: "compact",
    minimumFractionDigits: 0,
    maximumFractionDigits: 1,
  });
  return {
    series: REVENUE_SERIES,
    text: {
      subject: `Revenue in ${currency} per day`,
      format: (value: number) => formatMoney(value, currency, "en-US"),
      formatTick: (value: number) => compact.format(value),
    },
    title: `Revenue in ${currency}, last 30 days`,
    axis: currency,
  };
}
