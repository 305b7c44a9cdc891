import { ComingSoonPage } from "@/components/coming-soon-page";

export function CompetitorsRoute() {
  return <ComingSoonPage title="Block List" />;
}
