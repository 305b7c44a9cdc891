import { ComingSoonPage } from "@/components/coming-soon-page";

export function SettingsRoute() {
  return <ComingSoonPage title="Settings" />;
}
