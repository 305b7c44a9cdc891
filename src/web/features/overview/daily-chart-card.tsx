import { lazy, Suspense } from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useDailyMetrics } from "@/features/overview/api";
import { maxDailyValue } from "@/features/overview/chart-geometry";
import { LoadError } from "@/features/overview/load-error";

// The chart draws once its data is in: its code loads meanwhile, not with the page.
const DailyChart = lazy(() =>
  import("@/features/overview/daily-chart").then((m) => ({ default: m.DailyChart })),
);
const ChartLegend = lazy(() =>
  import("@/features/overview/daily-chart").then((m) => ({ default: m.ChartLegend })),
);

/** No SPEC §8 text for this load; worded like the others. */
export const DAILY_LOAD_ERROR = "Failed to fetch daily metrics";
export const NO_DAILY_ACTIVITY_TEXT = "No clicks or leads in the last 30 days yet.";

/** Clicks and leads sent and received per day over the last 30 days. */
export function DailyChartCard() {
  const daily = useDailyMetrics();
  const loading = <Skeleton role="status" aria-label="Loading" className="h-60 w-full" />;

  return (
    <Card data-testid="daily-chart-card" className="gap-4">
      <CardHeader>
        <CardTitle>
          <h2>Last 30 Days</h2>
        </CardTitle>
        <CardDescription>Clicks and leads per day</CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-3 px-4 sm:px-6">
        {daily.isPending ? (
          loading
        ) : daily.isError ? (
          <LoadError title={DAILY_LOAD_ERROR} error={daily.error} onRetry={() => daily.refetch()} />
        ) : (
          <Suspense fallback={loading}>
            <ChartLegend />
            <DailyChart days={daily.data} />
            {maxDailyValue(daily.data) === 0 ? (
              <p className="text-muted-foreground text-sm">{NO_DAILY_ACTIVITY_TEXT}</p>
            ) : null}
          </Suspense>
        )}
      </CardContent>
    </Card>
  );
}
