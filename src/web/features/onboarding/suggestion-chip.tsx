import type { SuggestedTool } from "@shared/suggestions";
import { Check, ExternalLink, Plus } from "lucide-react";
import { externalHref } from "@/components/external-link-button";
import { cn } from "@/lib/utils";

type SuggestionChipProps = {
  tool: SuggestedTool;
  selected: boolean;
  onToggle: () => void;
};

/**
 * A toggle chip for one suggested company, its reason as the tooltip, with a link to its site. A
 * company already on Buddy (a proven organization) says so: it is the one that can trade ads back.
 */
export function SuggestionChip({ tool, selected, onToggle }: SuggestionChipProps) {
  return (
    <div
      data-testid="suggestion-chip"
      className={cn(
        "inline-flex items-center rounded-full border text-sm transition-colors",
        selected ? "border-primary bg-primary text-primary-foreground" : "bg-background hover:bg-accent",
      )}
    >
      <button
        type="button"
        aria-pressed={selected}
        title={tool.reason}
        onClick={onToggle}
        className="flex items-center gap-1.5 rounded-l-full py-1.5 pr-1 pl-3 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        {selected ? (
          <Check className="size-3.5" aria-hidden="true" />
        ) : (
          <Plus className="size-3.5" aria-hidden="true" />
        )}
        {tool.name}
      </button>
      {tool.isPlatformUser ? (
        <span
          data-testid="on-buddy-badge"
          title={`${tool.name} is on Buddy: as your Buddy it can share your ads and you can share theirs`}
          className={cn(
            "rounded-full px-1.5 py-0.5 font-medium text-[10px] uppercase tracking-wide",
            selected ? "bg-primary-foreground/20" : "bg-sky-100 text-sky-800",
          )}
        >
          On Buddy
        </span>
      ) : null}
      {tool.direct_integration ? (
        <span
          className={cn(
            "rounded-full px-1.5 py-0.5 font-medium text-[10px] uppercase tracking-wide",
            selected ? "bg-primary-foreground/20" : "bg-emerald-100 text-emerald-800",
          )}
        >
          Integrates
        </span>
      ) : null}
      <a
        href={externalHref(tool.url)}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={`Visit ${tool.name}`}
        title={`Visit ${tool.name}`}
        className="rounded-r-full py-1.5 pr-3 pl-1.5 opacity-70 outline-none hover:opacity-100 focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        <ExternalLink className="size-3.5" aria-hidden="true" />
      </a>
    </div>
  );
}
