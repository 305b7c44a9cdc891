import { OVERVIEW_API_PATHS } from "@/features/overview/api";
import { NEXT_STEPS_PATH } from "@/features/overview/next-steps/api";
import { OverviewPage } from "@/features/overview/overview-page";
import { prefetchLoader } from "@/lib/route-prefetch";

export function OverviewRoute() {
  return <OverviewPage />;
}

/**
 * The Next steps card sits above the figures and shows only once its answer says a step is open:
 * the first render waits for it (briefly), so it never pushes the figures down once they show.
 */
export const overviewLoader = prefetchLoader(OVERVIEW_API_PATHS, {
  paths: [NEXT_STEPS_PATH],
  withinMs: 1_000,
});
