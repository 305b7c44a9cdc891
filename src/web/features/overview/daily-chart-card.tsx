import { lazy, Suspense, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useDailyFigures, useDailyRevenue, useRevenue } from "@/features/overview/api";
import { maxDailyValue } from "@/features/overview/chart-geometry";
import { LoadError } from "@/features/overview/load-error";
import {
  REVENUE_SERIES,
  revenueChartKind,
  revenueCurrencies,
  revenueDays,
} from "@/features/overview/revenue-chart";

// The chart draws once its data is in: its code loads meanwhile, not with the page. `lazy` would
// drop the chart's type parameter (its series' keys), so the component keeps its own type.
const DailyChart = lazy(() =>
  import("@/features/overview/daily-chart").then((m) => ({ default: m.DailyChart })),
) as unknown as typeof import("@/features/overview/daily-chart").DailyChart;
const ChartLegend = lazy(() =>
  import("@/features/overview/daily-chart").then((m) => ({ default: m.ChartLegend })),
);

/** No SPEC §8 text for this load; worded like the others. */
export const DAILY_LOAD_ERROR = "Failed to fetch daily metrics";
export const NO_DAILY_ACTIVITY_TEXT = "No clicks or leads in the last 30 days yet.";

/** "counts", or the currency whose revenue the chart shows. */
type Shown = "counts" | string;

/**
 * Clicks and leads sent and received per day over the last 30 days, or, once there is revenue,
 * the revenue of one currency both ways (CONTRACT §8: currencies are never added together).
 */
export function DailyChartCard() {
  const daily = useDailyFigures();
  const revenue = useDailyRevenue();
  const totals = useRevenue();
  const [shown, setShown] = useState<Shown>("counts");
  const currencies = revenue.data ? revenueCurrencies(revenue.data, totals.data) : [];
  const currency = shown !== "counts" && currencies.includes(shown) ? shown : null;
  const loading = <Skeleton role="status" aria-label="Loading" className="h-60 w-full" />;

  const chart = () => {
    if (!daily.data) return null;
    if (currency && revenue.data) {
      return (
        <>
          <ChartLegend series={REVENUE_SERIES} />
          <DailyChart
            days={revenueDays(daily.data, revenue.data, currency)}
            kind={revenueChartKind(currency)}
          />
        </>
      );
    }
    return (
      <>
        <ChartLegend />
        <DailyChart days={daily.data} />
        {maxDailyValue(daily.data) === 0 ? (
          <p className="text-muted-foreground text-sm">{NO_DAILY_ACTIVITY_TEXT}</p>
        ) : null}
      </>
    );
  };

  return (
    <Card data-testid="daily-chart-card" className="gap-4">
      <CardHeader>
        <CardTitle>
          <h2>Last 30 Days</h2>
        </CardTitle>
        <CardDescription>
          {currency ? `Revenue in ${currency} per day` : "Clicks and leads per day"}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-3 px-4 sm:px-6">
        {currencies.length > 0 ? (
          // biome-ignore lint/a11y/useSemanticElements: a group of toggle buttons, not a form's fieldset.
          <div role="group" aria-label="Chart" className="flex flex-wrap gap-2">
            {["counts", ...currencies].map((option) => (
              <Button
                key={option}
                type="button"
                size="sm"
                variant={(currency ?? "counts") === option ? "secondary" : "ghost"}
                aria-pressed={(currency ?? "counts") === option}
                onClick={() => setShown(option)}
              >
                {option === "counts" ? "Clicks & leads" : `Revenue (${option})`}
              </Button>
            ))}
          </div>
        ) : null}
        {daily.isPending ? (
          loading
        ) : daily.isError ? (
          <LoadError title={DAILY_LOAD_ERROR} error={daily.error} onRetry={() => daily.refetch()} />
        ) : (
          <Suspense fallback={loading}>{chart()}</Suspense>
        )}
      </CardContent>
    </Card>
  );
}
