import type { SuggestionsResponse } from "@shared/suggestions";
import { SuggestionGroup, SuggestionPicker } from "@/features/onboarding/suggestion-picker";

type CompetitorsStepProps = {
  loading: boolean;
  suggestions: SuggestionsResponse | undefined;
  selected: readonly string[];
  onToggle: (name: string) => void;
};

/** Step 2: pick the competitors to block (SPEC §2). */
export function CompetitorsStep({ loading, suggestions, selected, onToggle }: CompetitorsStepProps) {
  const competitors = suggestions?.competitors ?? [];
  return (
    <SuggestionPicker
      loading={loading}
      hasSuggestions={competitors.length > 0}
      emptyText="We couldn't find competitors to suggest. You can add them later from your Block List."
    >
      <SuggestionGroup
        label="Suggested competitors"
        tools={competitors}
        selected={selected}
        onToggle={onToggle}
      />
    </SuggestionPicker>
  );
}
