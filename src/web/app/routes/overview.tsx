import { OVERVIEW_API_PATHS } from "@/features/overview/api";
import { OverviewPage } from "@/features/overview/overview-page";
import { prefetchLoader } from "@/lib/route-prefetch";

export function OverviewRoute() {
  return <OverviewPage />;
}

export const overviewLoader = prefetchLoader(OVERVIEW_API_PATHS);
