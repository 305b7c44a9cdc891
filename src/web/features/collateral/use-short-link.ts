import { type QueryClient, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { createShortUrl, SHORT_URL_PATH, type Shortener } from "@/features/collateral/snippet-copy";

/**
 * The short form of a tracked link, asked once and kept: the server gives the same link the same
 * code every time (CONTRACT §5), so the preview can show it and every copy reuse it. Asking records
 * no click. A failure is not kept: the next copy asks again.
 */
function shortLinkQuery(trackedUrl: string | null | undefined) {
  return {
    queryKey: [SHORT_URL_PATH, trackedUrl ?? ""],
    queryFn: () => createShortUrl(trackedUrl),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    retry: false,
  } as const;
}

/** The ad's short link, for the preview and the link shown beside Copy link. */
export function useShortLink(trackedUrl: string | null | undefined) {
  return useQuery(shortLinkQuery(trackedUrl));
}

/** For the copy buttons: the cached short link at once, else asked for now. */
export function shortenerFor(client: QueryClient): Shortener {
  return (trackedUrl) => client.fetchQuery(shortLinkQuery(trackedUrl));
}

export function useShortener(): Shortener {
  const client = useQueryClient();
  return useCallback<Shortener>((trackedUrl) => shortenerFor(client)(trackedUrl), [client]);
}
