import type { NextSteps } from "@shared/next-steps";
import { useQuery } from "@tanstack/react-query";

export const NEXT_STEPS_PATH = "/api/onboarding/next-steps";

/** Asked again this often while a step is open: a partner's click or a lead can tick one. */
export const NEXT_STEPS_POLL_MS = 30_000;

/**
 * The steps, ticked by the server from what the organization's data records. Stale after a few
 * seconds, so coming back to the overview (after adding a Buddy or publishing an ad) asks again,
 * while the route's prefetch and the first render share one GET; polled slowly only while the card
 * shows (not every step done) and the page is visible.
 */
export function useNextSteps() {
  return useQuery<NextSteps>({
    queryKey: [NEXT_STEPS_PATH],
    staleTime: 3_000,
    refetchInterval: (query) =>
      query.state.data?.steps.every((step) => step.done) ? false : NEXT_STEPS_POLL_MS,
    refetchIntervalInBackground: false,
  });
}
