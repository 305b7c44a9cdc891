import { OVERVIEW_API_PATHS } from "@/features/overview/api";
import { NEXT_STEPS_PATH } from "@/features/overview/next-steps/api";
import { OverviewPage } from "@/features/overview/overview-page";
import { prefetchLoader } from "@/lib/route-prefetch";

export function OverviewRoute() {
  return <OverviewPage />;
}

export const overviewLoader = prefetchLoader([...OVERVIEW_API_PATHS, NEXT_STEPS_PATH]);
