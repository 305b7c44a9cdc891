import { ComingSoonPage } from "@/components/coming-soon-page";

export function OverviewRoute() {
  return <ComingSoonPage title="Overview" />;
}
