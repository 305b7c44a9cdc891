import { lazy, type ReactNode, Suspense, useState } from "react";
import { DashboardHeader } from "@/components/layout/dashboard-header";
import { SidebarNav } from "@/components/layout/sidebar-nav";
import { UnverifiedDomainBanner } from "@/components/layout/unverified-domain-banner";

// The drawer (Radix Dialog and its scroll lock) loads the first time it opens, not with the page.
const MobileNavigation = lazy(() =>
  import("@/components/layout/mobile-navigation").then((module) => ({ default: module.MobileNavigation })),
);

/** SPEC §2 Dashboard shell: header, a sidebar always shown from `md` up, a drawer below it. */
export function DashboardShell({ children }: { children: ReactNode }) {
  const [navOpen, setNavOpen] = useState(false);
  const [navLoaded, setNavLoaded] = useState(false);
  const openNav = () => {
    setNavLoaded(true);
    setNavOpen(true);
  };

  return (
    <div className="min-h-svh bg-muted/30">
      <DashboardHeader navOpen={navOpen} onOpenNav={openNav} />
      <div className="flex">
        <aside
          data-testid="sidebar"
          className="sticky top-14 hidden h-[calc(100svh-3.5rem)] w-60 shrink-0 overflow-y-auto border-r bg-sidebar md:block"
        >
          <SidebarNav />
        </aside>
        <main className="min-w-0 flex-1 px-4 py-6 sm:px-6 lg:px-8">
          <UnverifiedDomainBanner />
          {children}
        </main>
      </div>
      {navLoaded ? (
        <Suspense fallback={null}>
          <MobileNavigation open={navOpen} onOpenChange={setNavOpen} />
        </Suspense>
      ) : null}
    </div>
  );
}
