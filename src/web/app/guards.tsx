import { TriangleAlert } from "lucide-react";
import { useEffect } from "react";
import { Navigate, Outlet, useLocation } from "react-router";
import { EmptyState } from "@/components/empty-state";
import { PageLoader } from "@/components/layout/page-loader";
import { Button } from "@/components/ui/button";
import { forgetNoticeLink, pendingNoticeLink, rememberNoticeLink } from "@/lib/notice-link";
import { paths } from "@/lib/paths";
import { getToken, hasFinishedOnboarding, useCurrentUser } from "@/lib/session";

/**
 * SPEC §2: a signed-in user is redirected away from /auth. The current-user query is off on
 * /auth, so the stored token decides; the dashboard guards then check the token and onboarding.
 * The token is read (not subscribed to) so a login in progress here navigates on its own terms.
 */
export function RedirectSignedIn() {
  return getToken() ? <Navigate to={paths.dashboard} replace /> : <Outlet />;
}

/**
 * SPEC §2 for every signed-in screen: no token → /auth (a dead token is cleared where the server
 * says so, lib/session.ts); a user that could not be fetched otherwise keeps the token and is asked
 * for again; then /setup and /dashboard each admit only their side of onboarding.
 */
function SessionGuard({ onboarded }: { onboarded: boolean }) {
  const { token, user, failed, retry } = useCurrentUser();
  const location = useLocation();
  // A notice mail's link opened signed out: the sign-in lands on the overview, which goes on to it.
  const noticeLink =
    onboarded && user !== null && location.pathname === paths.dashboard ? pendingNoticeLink() : null;
  useEffect(() => {
    if (noticeLink) forgetNoticeLink();
  }, [noticeLink]);

  if (token === null) {
    rememberNoticeLink(location.pathname, location.search);
    return <Navigate to={paths.auth} replace />;
  }
  if (failed) return <UserLoadError onRetry={() => void retry()} />;
  if (user === null) return <PageLoader />;
  if (hasFinishedOnboarding(user) !== onboarded) {
    return <Navigate to={onboarded ? paths.setup : paths.dashboard} replace />;
  }
  if (noticeLink) return <Navigate to={noticeLink} replace />;
  return <Outlet />;
}

/** Dashboard routes render only after onboarding is complete. */
export function RequireOnboarded() {
  return <SessionGuard onboarded />;
}

/** /setup: only for a signed-in user who has not finished onboarding (no organization yet). */
export function RequireOnboardingPending() {
  return <SessionGuard onboarded={false} />;
}

/** The signed-in user could not be fetched (the server or the network failed): the session stays. */
function UserLoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <div role="alert" className="flex min-h-svh items-center justify-center p-4">
      <EmptyState
        icon={TriangleAlert}
        title="Failed to fetch user"
        description="You are still signed in. Buddy could not be reached just now."
      >
        <Button variant="outline" onClick={onRetry}>
          Try again
        </Button>
      </EmptyState>
    </div>
  );
}
