import { SettingsPage } from "@/features/settings/settings-page";

export function SettingsRoute() {
  return <SettingsPage />;
}
