import { lazy, Suspense } from "react";
import { OVERLAP_SETTINGS_TAB } from "@/features/overlap/overlap-links";
import { SettingsPage } from "@/features/settings/settings-page";
import { useCurrentUser } from "@/lib/session";

const OverlapPanel = lazy(() =>
  import("@/features/overlap/overlap-panel").then((module) => ({ default: module.OverlapPanel })),
);

/** Settings, with the account overlap tab (CONTRACT §11) for admins, from its own feature. */
export function SettingsRoute() {
  const { user } = useCurrentUser();
  const organizationId = user?.organizationId;
  return (
    <SettingsPage
      extraTabs={
        organizationId
          ? [
              {
                value: OVERLAP_SETTINGS_TAB,
                label: "Account overlap",
                adminOnly: true,
                panel: (
                  <Suspense fallback={null}>
                    <OverlapPanel organizationId={organizationId} />
                  </Suspense>
                ),
              },
            ]
          : []
      }
    />
  );
}
