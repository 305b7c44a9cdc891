import { ComingSoonPage } from "@/components/coming-soon-page";

export function MarketingRoute() {
  return <ComingSoonPage title="Marketing" />;
}
