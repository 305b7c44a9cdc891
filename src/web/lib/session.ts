import type { MeResponse, MessageResponse, SessionResponse, User } from "@shared/auth";
import { onlineManager, useMutation, useQuery } from "@tanstack/react-query";
import { useCallback, useSyncExternalStore } from "react";
import { useLocation, useNavigate } from "react-router";
import { toast } from "@/components/ui/toast";
import { ApiError, apiRequest, errorMessage } from "@/lib/api-client";
import { isPublicPath, paths } from "@/lib/paths";
import { queryClient } from "@/lib/query-client";
import { clearSession, getToken, onSessionCleared, setToken, subscribeToToken } from "@/lib/token-store";

export const CURRENT_USER_KEY = ["/api/me"] as const;

// The cache belongs to the signed-in user: whoever clears the session clears it too.
onSessionCleared(() => queryClient.clear());

export { clearSession, getToken, setToken };

/** The stored token, re-rendering when it is set or cleared (so guards react to a dead session). */
function useToken(): string | null {
  return useSyncExternalStore(subscribeToToken, getToken);
}

/** Guards and post-sign-in navigation share this, so /setup and /dashboard can never bounce. */
export function hasFinishedOnboarding(user: User): boolean {
  return user.hasCompletedOnboarding || user.organizationId !== null;
}

function homePathFor(user: User): string {
  return hasFinishedOnboarding(user) ? paths.dashboard : paths.setup;
}

async function fetchCurrentUser(): Promise<MeResponse | null> {
  const token = getToken();
  try {
    return await apiRequest<MeResponse>(CURRENT_USER_KEY[0]);
  } catch (error) {
    // A token stored while this one was asked about (a sign-in in another tab): ask about that one.
    const current = getToken();
    if (current !== null && current !== token) return fetchCurrentUser();
    // SPEC §4: only a clearToken answer removes the token, and api-client has removed it with
    // its cache: a null user. Any other failure (a 5xx, the network, a fetch cut by a reload)
    // keeps the token, and the query fails: the guard offers to try again.
    if (error instanceof ApiError && error.clearsToken) {
      toast.error(errorMessage(error, "Authentication failed"));
      return null;
    }
    if (!isAbort(error)) toast.error(errorMessage(error, "Failed to fetch user"));
    throw error;
  }
}

/** A fetch given up by the page itself (a reload or a navigation away): nothing to tell anyone. */
function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}

function currentUserQuery() {
  // A failed fetch is not asked again by every guard that mounts (StrictMode mounts twice), only
  // by the visitor's "Try again". Nor on focus, as every other query is (issue 37): a failure
  // there (a laptop waking before its network) would put "Failed to fetch user" in place of the
  // screen the visitor came back to, and a dead token is told by the screen's own calls (401).
  return {
    queryKey: CURRENT_USER_KEY,
    queryFn: fetchCurrentUser,
    retryOnMount: false,
    refetchOnWindowFocus: false,
  };
}

/**
 * Starts the signed-in user's fetch as the app starts, beside the download of the screen's code,
 * instead of after the first render. The same rule as `useCurrentUser`: a token, a private path.
 */
export function prefetchCurrentUser(pathname: string) {
  if (getToken() !== null && !isPublicPath(pathname)) void queryClient.prefetchQuery(currentUserQuery());
}

/** The signed-in user once known, if onboarded: a dashboard route's data may be fetched for them. */
export async function loadOnboardedUser(): Promise<User | null> {
  if (getToken() === null) return null;
  try {
    const user = (await queryClient.ensureQueryData(currentUserQuery()))?.user ?? null;
    return user && hasFinishedOnboarding(user) ? user : null;
  } catch {
    // A dead token clears the session, and the cache with it, while its fetch is running: that
    // fetch is cancelled, and there is no user. The guards then send the visitor to /auth.
    return null;
  }
}

/** SPEC §2/§4: the signed-in user, fetched only with a token and never on the public screens. */
export function useCurrentUser() {
  const token = useToken();
  const { pathname } = useLocation();
  const enabled = token !== null && !isPublicPath(pathname);
  const query = useQuery({ ...currentUserQuery(), enabled });
  return {
    token,
    user: query.data?.user ?? null,
    /** The user could not be fetched, for another reason than a dead token: the token is kept. */
    failed: enabled && query.isError && !query.isFetching,
    retry: query.refetch,
  };
}

/** Login and e-mail verification: keep the session, cache its user, go home (SPEC §4). */
export function useStartSession() {
  const navigate = useNavigate();
  return useCallback(
    (session: SessionResponse) => {
      queryClient.setQueryData<MeResponse>(CURRENT_USER_KEY, { user: session.user });
      setToken(session.token);
      navigate(homePathFor(session.user), { replace: true });
    },
    [navigate],
  );
}

/** How long a sign-out waits for the GETs already under way. */
const SIGN_OUT_QUIET_MS = 2_000;

/**
 * Until the sign-out is answered no query asks anything (TanStack's online manager says offline, so
 * polls and focus refetches wait), and the GETs already under way finish first, for 2 s at most: a
 * GET that met the revoked session would answer 401.
 */
async function quietQueries() {
  onlineManager.setOnline(false);
  const until = Date.now() + SIGN_OUT_QUIET_MS;
  while (queryClient.isFetching() > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** SPEC §4 Logout: revoke the token server-side, then always forget it locally and go to /auth. */
export function useSignOut() {
  const navigate = useNavigate();
  return useMutation({
    // The sign-out goes whatever the online manager says (quietQueries sets it offline).
    networkMode: "always",
    mutationFn: async () => {
      await quietQueries();
      return apiRequest<MessageResponse>("/api/logout", { method: "POST" });
    },
    onSuccess: () => toast.success("Logged out successfully"),
    onError: (error) => toast.error(errorMessage(error, "Failed to logout")),
    onSettled: () => {
      clearSession();
      navigate(paths.auth, { replace: true });
      // The cache is cleared: nothing of the old session is left to ask for.
      onlineManager.setOnline(true);
    },
  });
}
