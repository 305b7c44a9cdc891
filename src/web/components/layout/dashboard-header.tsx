import { LogOut, Menu } from "lucide-react";
import { Link } from "react-router";
import { BrandLogo } from "@/components/layout/brand-logo";
import { Button } from "@/components/ui/button";
import { paths } from "@/lib/paths";
import { useCurrentUser, useSignOut } from "@/lib/session";

type DashboardHeaderProps = {
  navOpen: boolean;
  onOpenNav: () => void;
};

export function DashboardHeader({ navOpen, onOpenNav }: DashboardHeaderProps) {
  const { user } = useCurrentUser();
  const signOut = useSignOut();

  return (
    <header className="sticky top-0 z-40 flex h-14 items-center gap-2 border-b bg-background/95 px-3 backdrop-blur sm:px-4">
      <Button
        variant="ghost"
        size="icon"
        className="md:hidden"
        aria-label="Open navigation"
        aria-expanded={navOpen}
        aria-controls="mobile-navigation"
        data-testid="sidebar-toggle"
        onClick={onOpenNav}
      >
        <Menu />
      </Button>
      <Link
        to={paths.dashboard}
        className="flex items-center rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        <BrandLogo />
      </Link>
      <div className="ml-auto flex min-w-0 items-center gap-3">
        {user ? (
          <span className="hidden max-w-56 truncate text-muted-foreground text-sm sm:inline">
            {user.email}
          </span>
        ) : null}
        <Button variant="outline" size="sm" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
          <LogOut />
          Logout
        </Button>
      </div>
    </header>
  );
}
