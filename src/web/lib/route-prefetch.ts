import { queryClient } from "@/lib/query-client";
import { loadOnboardedUser } from "@/lib/session";

/**
 * Answers the screen waits for before its first render, at most `withinMs`: those of a part that
 * sits above others and appears only once answered, which would otherwise push what is already on
 * screen down (a layout shift). Only a first visit waits: a cached answer, even a stale one, is
 * used at once and refreshed by the screen.
 */
export type SettleFirst = { paths: readonly string[]; withinMs: number };

/**
 * A route loader that starts its screen's GETs as soon as the user is known to be onboarded,
 * without waiting for them: the screen renders with its requests already in flight, instead of
 * starting them after its first render. Keys are API paths (SPEC §7), so the screen's own queries
 * pick the answers up from the cache.
 */
export function prefetchLoader(apiPaths: readonly string[], settleFirst?: SettleFirst) {
  return async () => {
    if (await loadOnboardedUser()) {
      // What the first render waits for is asked first: a browser sends only a few requests to one
      // origin at a time, and the rest queue behind them.
      const settled = settleFirst
        ? Promise.allSettled(
            settleFirst.paths.map((path) => queryClient.ensureQueryData({ queryKey: [path] })),
          )
        : undefined;
      for (const path of apiPaths) void queryClient.prefetchQuery({ queryKey: [path] });
      if (settleFirst && settled) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const bound = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, settleFirst.withinMs);
        });
        await Promise.race([settled, bound]);
        clearTimeout(timer);
      }
    }
    return null;
  };
}
