import { ComingSoonPage } from "@/components/coming-soon-page";

export function ToolDetailRoute() {
  return <ComingSoonPage title="Buddy details" />;
}
