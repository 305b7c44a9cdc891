import { ComingSoonPage } from "@/components/coming-soon-page";

export function ToolsRoute() {
  return <ComingSoonPage title="Buddies" />;
}
