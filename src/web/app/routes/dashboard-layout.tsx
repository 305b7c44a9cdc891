import { Outlet } from "react-router";
import { DashboardShell } from "@/components/layout/dashboard-shell";
import { ORGANIZATION_KEY } from "@/hooks/use-organization";
import { prefetchLoader } from "@/lib/route-prefetch";

export function DashboardLayoutRoute() {
  return (
    <DashboardShell>
      <Outlet />
    </DashboardShell>
  );
}

/** The shell's banner reads the organization on every dashboard page. */
export const dashboardLayoutLoader = prefetchLoader(ORGANIZATION_KEY);
