import { type ReactNode, useState } from "react";
import { BrandLogo } from "@/components/layout/brand-logo";
import { DashboardHeader } from "@/components/layout/dashboard-header";
import { SidebarNav } from "@/components/layout/sidebar-nav";
import { UnverifiedDomainBanner } from "@/components/layout/unverified-domain-banner";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "@/components/ui/sheet";

/** SPEC §2 Dashboard shell: header, a sidebar always shown from `md` up, a drawer below it. */
export function DashboardShell({ children }: { children: ReactNode }) {
  const [navOpen, setNavOpen] = useState(false);

  return (
    <div className="min-h-svh bg-muted/30">
      <DashboardHeader navOpen={navOpen} onOpenNav={() => setNavOpen(true)} />
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
      <Sheet open={navOpen} onOpenChange={setNavOpen}>
        <SheetContent id="mobile-navigation" closeLabel="Close navigation" className="md:hidden">
          <div className="border-b px-4 py-4">
            <SheetTitle>
              <BrandLogo />
            </SheetTitle>
            <SheetDescription className="sr-only">Dashboard navigation</SheetDescription>
          </div>
          <SidebarNav onNavigate={() => setNavOpen(false)} />
        </SheetContent>
      </Sheet>
    </div>
  );
}
