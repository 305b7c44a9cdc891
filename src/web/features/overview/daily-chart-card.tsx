import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useDailyMetrics } from "@/features/overview/api";
import { maxDailyValue } from "@/features/overview/chart-geometry";
import { ChartLegend, DailyChart } from "@/features/overview/daily-chart";
import { LoadError } from "@/features/overview/load-error";

/** No SPEC §8 text for this load; worded like the others. */
export const DAILY_LOAD_ERROR = "Failed to fetch daily metrics";
export const NO_DAILY_ACTIVITY_TEXT = "No clicks or leads in the last 30 days yet.";

/** Clicks and leads sent and received per day over the last 30 days. */
export function DailyChartCard() {
  const daily = useDailyMetrics();

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
          <Skeleton role="status" aria-label="Loading" className="h-60 w-full" />
        ) : daily.isError ? (
          <LoadError title={DAILY_LOAD_ERROR} error={daily.error} onRetry={() => daily.refetch()} />
        ) : (
          <>
            <ChartLegend />
            <DailyChart days={daily.data} />
            {maxDailyValue(daily.data) === 0 ? (
              <p className="text-muted-foreground text-sm">{NO_DAILY_ACTIVITY_TEXT}</p>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
