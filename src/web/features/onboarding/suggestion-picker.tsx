import type { SuggestedTool } from "@shared/suggestions";
import type { ReactNode } from "react";
import { Spinner } from "@/components/ui/spinner";
import { SuggestionChip } from "@/features/onboarding/suggestion-chip";

type SuggestionGroupProps = {
  label: string;
  tools: readonly SuggestedTool[];
  selected: readonly string[];
  onToggle: (name: string) => void;
};

/** A labelled row of chips; selections are kept by name (SPEC §3 payload). */
export function SuggestionGroup({ label, tools, selected, onToggle }: SuggestionGroupProps) {
  return (
    <fieldset aria-label={label} className="m-0 flex min-w-0 flex-wrap gap-2 border-0 p-0">
      {tools.map((tool) => (
        <SuggestionChip
          key={tool.name}
          tool={tool}
          selected={selected.includes(tool.name)}
          onToggle={() => onToggle(tool.name)}
        />
      ))}
    </fieldset>
  );
}

type SuggestionPickerProps = {
  loading: boolean;
  /** Shown when there is nothing to pick (none found, or the lookup failed). */
  emptyText: string;
  hasSuggestions: boolean;
  children: ReactNode;
};

/** Steps 2 and 3: a spinner while suggestions load, a friendly line if none, else the chips. */
export function SuggestionPicker({ loading, emptyText, hasSuggestions, children }: SuggestionPickerProps) {
  if (loading) {
    return (
      <p role="status" className="flex items-center justify-center gap-2 py-6 text-muted-foreground text-sm">
        <Spinner />
        Finding suggestions…
      </p>
    );
  }
  if (!hasSuggestions) {
    return <p className="py-6 text-center text-muted-foreground text-sm">{emptyText}</p>;
  }
  return <div className="grid gap-4">{children}</div>;
}
