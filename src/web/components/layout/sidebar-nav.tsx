import {
  FileCode,
  Handshake,
  LayoutDashboard,
  Lightbulb,
  type LucideIcon,
  Megaphone,
  Settings,
  ShieldBan,
} from "lucide-react";
import { NavLink } from "react-router";
import { paths } from "@/lib/paths";
import { cn } from "@/lib/utils";

type NavItem = { label: string; to: string; icon: LucideIcon; end?: boolean };

/** SPEC §2 Dashboard shell: these entries, in this order. */
const NAV_ITEMS: readonly NavItem[] = [
  // `end`: Overview must not stay highlighted on every /dashboard/* page.
  { label: "Overview", to: paths.dashboard, icon: LayoutDashboard, end: true },
  { label: "Buddies", to: paths.tools, icon: Handshake },
  { label: "Marketing", to: paths.marketing, icon: Megaphone },
  { label: "Suggestions", to: paths.suggestions, icon: Lightbulb },
  { label: "Block List", to: paths.competitors, icon: ShieldBan },
  { label: "API Docs", to: paths.apiDocs, icon: FileCode },
  { label: "Settings", to: paths.settings, icon: Settings },
];

/** The dashboard's main navigation; NavLink marks the current entry with aria-current="page". */
export function SidebarNav({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <nav aria-label="Main" className="grid gap-1 p-3">
      {NAV_ITEMS.map(({ label, to, icon: Icon, end }) => (
        <NavLink
          key={to}
          to={to}
          end={end}
          onClick={onNavigate}
          className={({ isActive }) =>
            cn(
              "flex items-center gap-3 rounded-md px-3 py-2 font-medium text-sm transition-colors",
              isActive
                ? "bg-accent text-accent-foreground"
                : "text-muted-foreground hover:bg-muted hover:text-foreground",
            )
          }
        >
          <Icon className="size-4" aria-hidden="true" />
          {label}
        </NavLink>
      ))}
    </nav>
  );
}
