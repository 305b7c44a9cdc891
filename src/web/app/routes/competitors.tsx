import { CompetitorsPage } from "@/features/relationships/competitors-page";

export function CompetitorsRoute() {
  return <CompetitorsPage />;
}
