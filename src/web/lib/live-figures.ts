/**
 * Issue 37: while the overview or a Buddy's page is open, a new click, lead, refund or revenue
 * shows within 5 s, whichever instance recorded it (docs/decisions.md, "Live figures"). Every
 * event is committed before it is answered and its roll-ups are written in the same transaction,
 * and no figure is cached on the server, so asking again is enough: the figures' GETs, which read
 * roll-ups, are asked every 3 s while the page is visible. A hidden tab asks nothing (TanStack's
 * `refetchIntervalInBackground: false`) and asks at once when shown again (refetch on focus).
 */
export const LIVE_FIGURES_POLL_MS = 3_000;

/** After a failed poll, until one succeeds: a server that is down or draining is not hammered. */
export const LIVE_FIGURES_FAILED_POLL_MS = 30_000;

/** The poll's period: slower while the last answer was a failure. */
export function liveFiguresInterval(query: { state: { status: string } }): number {
  return query.state.status === "error" ? LIVE_FIGURES_FAILED_POLL_MS : LIVE_FIGURES_POLL_MS;
}

/**
 * The options of a live figure's query. Stale after one period, so a screen shown again (back from
 * Buddies) asks at once rather than showing the figures it had until the next poll; the route's
 * prefetch and the first render still share one GET.
 */
export const liveFigures = {
  refetchInterval: liveFiguresInterval,
  refetchIntervalInBackground: false,
  staleTime: LIVE_FIGURES_POLL_MS,
} as const;
