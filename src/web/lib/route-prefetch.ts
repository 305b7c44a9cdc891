import { queryClient } from "@/lib/query-client";
import { loadOnboardedUser } from "@/lib/session";

/**
 * A route loader that starts its screen's GETs as soon as the user is known to be onboarded,
 * without waiting for them: the screen renders with its requests already in flight, instead of
 * starting them after its first render. Keys are API paths (SPEC §7), so the screen's own queries
 * pick the answers up from the cache.
 */
export function prefetchLoader(apiPaths: readonly string[]) {
  return async () => {
    if (await loadOnboardedUser()) {
      for (const path of apiPaths) void queryClient.prefetchQuery({ queryKey: [path] });
    }
    return null;
  };
}
