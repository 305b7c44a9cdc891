import { FIRST_VIEW_API_PATHS, OVERVIEW_API_PATHS } from "@/features/overview/api";
import { NEXT_STEPS_PATH } from "@/features/overview/next-steps/api";
import { OverviewPage } from "@/features/overview/overview-page";
import { prefetchLoader } from "@/lib/route-prefetch";

export function OverviewRoute() {
  return <OverviewPage />;
}

/**
 * The first render waits (briefly, and only on a first visit) for what the first view shows. The
 * Next steps card sits above the figures and shows only once its answer says a step is open, so it
 * never pushes them down; and the figures render with the page, in its one interruptible render,
 * instead of each in a render of its own as its answer comes.
 */
export const overviewLoader = prefetchLoader(OVERVIEW_API_PATHS, {
  paths: [NEXT_STEPS_PATH, ...FIRST_VIEW_API_PATHS],
  withinMs: 1_000,
});
