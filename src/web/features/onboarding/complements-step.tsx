import type { SuggestionsResponse } from "@shared/suggestions";
import { SuggestionGroup, SuggestionPicker } from "@/features/onboarding/suggestion-picker";

type ComplementsStepProps = {
  loading: boolean;
  suggestions: SuggestionsResponse | undefined;
  selected: readonly string[];
  onToggle: (name: string) => void;
};

/** Step 3: complementary tools grouped by category name, to become Buddies (SPEC §2). */
export function ComplementsStep({ loading, suggestions, selected, onToggle }: ComplementsStepProps) {
  const categories = (suggestions?.categories ?? []).filter((category) => category.tools.length > 0);
  // The server lists companies already on Buddy first (their categories too).
  const onBuddy = categories.some((category) => category.tools.some((tool) => tool.isPlatformUser));
  return (
    <SuggestionPicker
      loading={loading}
      hasSuggestions={categories.length > 0}
      emptyText="We couldn't find tools to suggest. You can add Buddies later from your dashboard."
    >
      {onBuddy ? (
        <p data-testid="on-buddy-note" className="text-muted-foreground text-sm">
          Companies marked On Buddy are already here: as your Buddies they can share your ads, and you theirs,
          from today.
        </p>
      ) : null}
      {categories.map((category) => (
        <section key={category.slug} className="grid gap-2">
          <h3 className="font-medium text-sm">{category.name}</h3>
          <SuggestionGroup
            label={category.name}
            tools={category.tools}
            selected={selected}
            onToggle={onToggle}
          />
        </section>
      ))}
    </SuggestionPicker>
  );
}
