import type { ReactNode } from "react";
import { useSearchParams } from "react-router";
import { PageHeader } from "@/components/layout/page-header";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { ApiKeysPanel } from "@/features/settings/api-keys/api-keys-panel";
import { BillingPanel } from "@/features/settings/billing/billing-panel";
import { InstallPanel } from "@/features/settings/install/install-panel";
import { NotificationsPanel } from "@/features/settings/notifications/notifications-panel";
import { OrganizationProfile } from "@/features/settings/profile/organization-profile";
import { SecurityLogPanel } from "@/features/settings/security-log/security-log-panel";
import { TeamPanel } from "@/features/settings/team/team-panel";
import { WebhooksPanel } from "@/features/settings/webhooks/webhooks-panel";
import { useCurrentUser } from "@/lib/session";

/**
 * SPEC §2 Settings: six tabs, picked by `?tab=` (default profile), and for admins a seventh, the
 * security log (CONTRACT §3), which a password-changed mail links to (`?tab=security-log`).
 */
const TABS = [
  { value: "profile", label: "Profile" },
  { value: "team", label: "Team" },
  { value: "install", label: "Install" },
  { value: "api", label: "API Keys & Webhooks" },
  { value: "billing", label: "Billing" },
  { value: "notifications", label: "Notifications" },
  { value: "security-log", label: "Security log", adminOnly: true },
] as const;
type SettingsTab = string;
/** A tab another feature brings, composed by the route (features never import each other). */
export type ExtraSettingsTab = { value: string; label: string; adminOnly: true; panel: ReactNode };

/** SPEC §2: the profile tab is also called general or organization. */
const TAB_ALIASES: Record<string, SettingsTab> = { general: "profile", organization: "profile" };

/** The tab `value` names among those shown; anything else (a member's `security-log`) is the profile. */
function parseTab(value: string | null, shown: readonly { value: SettingsTab }[]): SettingsTab {
  if (!value) return "profile";
  return shown.find((tab) => tab.value === value)?.value ?? TAB_ALIASES[value] ?? "profile";
}

const PANELS: Record<(typeof TABS)[number]["value"], ReactNode> = {
  profile: <OrganizationProfile />,
  team: <TeamPanel />,
  install: <InstallPanel />,
  // Keys let a company's systems call Buddy; webhooks let Buddy call them (CONTRACT §9).
  api: (
    <div className="grid gap-6">
      <ApiKeysPanel />
      <WebhooksPanel />
    </div>
  ),
  billing: <BillingPanel />,
  notifications: <NotificationsPanel />,
  "security-log": <SecurityLogPanel />,
};

export function SettingsPage({ extraTabs = [] }: { extraTabs?: readonly ExtraSettingsTab[] }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const { user } = useCurrentUser();
  const isAdmin = user?.role === "admin";
  // The security log stays last: the tabs other features bring come before it.
  const own = TABS.map((tab) => ({ ...tab, panel: PANELS[tab.value] }));
  const tabs: { value: string; label: string; adminOnly?: boolean; panel: ReactNode }[] = [
    ...own.slice(0, -1),
    ...extraTabs,
    ...own.slice(-1),
  ];
  const shown = tabs.filter((tab) => !tab.adminOnly || isAdmin);
  const tab = parseTab(searchParams.get("tab"), shown);

  const selectTab = (value: string) =>
    setSearchParams(
      (params) => {
        params.set("tab", parseTab(value, shown));
        return params;
      },
      { replace: true },
    );

  return (
    <div className="grid gap-6">
      <PageHeader title="Settings" />
      <Tabs value={tab} onValueChange={selectTab} className="gap-4">
        <TabsList className="h-auto w-full flex-wrap justify-start sm:w-fit">
          {shown.map(({ value, label }) => (
            // Fixed height: on a narrow screen the tabs wrap onto a second row.
            <TabsTrigger key={value} value={value} className="h-8 flex-none">
              {label}
            </TabsTrigger>
          ))}
        </TabsList>
        {shown.map(({ value, panel }) => (
          <TabsContent key={value} value={value}>
            {panel}
          </TabsContent>
        ))}
      </Tabs>
    </div>
  );
}
