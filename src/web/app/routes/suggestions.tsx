import { ComingSoonPage } from "@/components/coming-soon-page";

export function SuggestionsRoute() {
  return <ComingSoonPage title="Suggestions" />;
}
