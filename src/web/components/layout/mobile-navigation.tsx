import { BrandLogo } from "@/components/layout/brand-logo";
import { SidebarNav } from "@/components/layout/sidebar-nav";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "@/components/ui/sheet";

/** The drawer below `md`: its own chunk, loaded the first time it opens (dashboard-shell.tsx). */
export function MobileNavigation({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent id="mobile-navigation" closeLabel="Close navigation" className="md:hidden">
        <div className="border-b px-4 py-4">
          <SheetTitle>
            <BrandLogo />
          </SheetTitle>
          <SheetDescription className="sr-only">Dashboard navigation</SheetDescription>
        </div>
        <SidebarNav onNavigate={() => onOpenChange(false)} />
      </SheetContent>
    </Sheet>
  );
}
