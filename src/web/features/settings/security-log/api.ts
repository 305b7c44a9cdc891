import type { SecurityLogResponse } from "@shared/security-log";
import { useInfiniteQuery } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";

export const SECURITY_LOG_PATH = "/api/security-log";

/**
 * CONTRACT §3: the organization's security log, newest first, a page at a time; the next page is
 * the entries before the last one shown (`nextCursor`). Admin-only on the server, so members do
 * not ask at all (`enabled`). What it lists happens in other tabs and other browsers, so the log
 * is not kept once the tab closes (`gcTime: 0`): each visit reads it afresh, from its first page.
 */
export function useSecurityLog({ enabled }: { enabled: boolean }) {
  return useInfiniteQuery({
    queryKey: [SECURITY_LOG_PATH],
    queryFn: ({ pageParam }) =>
      apiRequest<SecurityLogResponse>(
        pageParam === null
          ? SECURITY_LOG_PATH
          : `${SECURITY_LOG_PATH}?before=${encodeURIComponent(pageParam)}`,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    enabled,
    gcTime: 0,
  });
}
