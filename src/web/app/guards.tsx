import { Navigate, Outlet } from "react-router";
import { PageLoader } from "@/components/layout/page-loader";
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
 * SPEC §2 for every signed-in screen: no token → /auth (a token with no resolved user is cleared
 * where the user's fetch fails, lib/session.ts); then /setup and /dashboard each admit only their
 * side of onboarding.
 */
function SessionGuard({ onboarded }: { onboarded: boolean }) {
  const { token, user } = useCurrentUser();

  if (token === null) return <Navigate to={paths.auth} replace />;
  if (user === null) return <PageLoader />;
  if (hasFinishedOnboarding(user) !== onboarded) {
    return <Navigate to={onboarded ? paths.setup : paths.dashboard} replace />;
  }
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
