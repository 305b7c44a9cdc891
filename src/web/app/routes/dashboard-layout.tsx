import { lazy, Suspense } from "react";
import { Outlet } from "react-router";
import { DashboardShell } from "@/components/layout/dashboard-shell";
import { ORGANIZATION_KEY } from "@/hooks/use-organization";
import { prefetchLoader } from "@/lib/route-prefetch";
import { useCurrentUser } from "@/lib/session";

// An admin's browser takes its turn in account overlap runs on any page (CONTRACT §11); the
// component loads after the page, and the protocol's code only when there is a turn to take.
const OverlapParticipant = lazy(() =>
  import("@/features/overlap/overlap-participant").then((module) => ({ default: module.OverlapParticipant })),
);

export function DashboardLayoutRoute() {
  const { user } = useCurrentUser();
  return (
    <DashboardShell>
      {user?.role === "admin" && user.organizationId ? (
        <Suspense fallback={null}>
          <OverlapParticipant organizationId={user.organizationId} />
        </Suspense>
      ) : null}
      <Outlet />
    </DashboardShell>
  );
}

/** The shell's banner reads the organization on every dashboard page. */
export const dashboardLayoutLoader = prefetchLoader(ORGANIZATION_KEY);
