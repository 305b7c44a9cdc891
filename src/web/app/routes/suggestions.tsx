import { SuggestionsPage } from "@/features/suggestions/suggestions-page";

export function SuggestionsRoute() {
  return <SuggestionsPage />;
}
