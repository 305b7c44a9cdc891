import { Outlet } from "react-router";
import { DashboardShell } from "@/components/layout/dashboard-shell";

export function DashboardLayoutRoute() {
  return (
    <DashboardShell>
      <Outlet />
    </DashboardShell>
  );
}
