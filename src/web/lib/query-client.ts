import { focusManager, QueryClient, type QueryFunction } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";

/**
 * SPEC §7: a query's key is the API path it GETs (`['/api/relationships']`), so any feature can
 * refresh another's data by invalidating the path. The signal is not passed on purpose: a GET
 * that finishes after its screen unmounts still fills the cache for the next visit.
 */
const getQueryPath: QueryFunction = ({ queryKey }) => {
  const [path] = queryKey;
  if (typeof path !== "string" || !path.startsWith("/api/")) {
    throw new Error(`Query key must start with an /api/ path, got ${JSON.stringify(queryKey)}`);
  }
  return apiRequest(path);
};

/**
 * SPEC §7: no retries, no polling, data never stale on its own. Issue 37 changes one thing: every
 * screen's queries are asked again when the visitor comes back to it ("always", since nothing is
 * stale on its own), so a screen never shows what it had when it was left. Polling stays off but
 * for the live figures (`lib/live-figures.ts`).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryPath,
        retry: false,
        refetchOnWindowFocus: "always",
        refetchInterval: false,
        staleTime: Number.POSITIVE_INFINITY,
      },
      mutations: { retry: false },
    },
  });
}

/**
 * "Coming back" is a tab shown again (TanStack's own signal, visibilitychange) or a window focused
 * again: a window beside another stays visible, so clicking back into it sends no visibilitychange.
 * Both arrive on a tab switch; the second finds the first's GET under way and shares it.
 */
function listenForFocus(handleFocus: () => void): () => void {
  const onVisibilityChange = () => {
    if (document.visibilityState !== "hidden") handleFocus();
  };
  window.addEventListener("visibilitychange", onVisibilityChange, false);
  window.addEventListener("focus", handleFocus, false);
  return () => {
    window.removeEventListener("visibilitychange", onVisibilityChange);
    window.removeEventListener("focus", handleFocus);
  };
}

if (typeof window !== "undefined")
  focusManager.setEventListener((handleFocus) => listenForFocus(() => handleFocus()));

/** The app's one cache; the session clears it on sign-in, sign-out and a dead token. */
export const queryClient = createQueryClient();

/**
 * Refreshes every cached path starting with one of `prefixes`, so a mutation reaches keys that carry
 * an id or a query string (`/api/relationships/{id}`, `/api/ecosystem/suggestions?domain=…`).
 */
export function invalidateApiPaths(client: QueryClient, ...prefixes: string[]) {
  return client.invalidateQueries({
    predicate: ({ queryKey: [path] }) =>
      typeof path === "string" && prefixes.some((prefix) => path.startsWith(prefix)),
  });
}
