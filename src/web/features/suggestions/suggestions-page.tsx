import { Lightbulb, RefreshCw } from "lucide-react";
import { CardGridSkeleton } from "@/components/card-grid-skeleton";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/layout/page-header";
import { QueryError } from "@/components/query-error";
import { SearchInput } from "@/components/search-input";
import { Button } from "@/components/ui/button";
import {
  canSuggestFor,
  useAcceptSuggestion,
  useRefreshSuggestions,
  useRemoveSuggestion,
  useSuggestions,
} from "@/features/suggestions/api";
import { SuggestionCard } from "@/features/suggestions/suggestion-card";
import { useOrganization } from "@/hooks/use-organization";
import { useSearchFilter } from "@/hooks/use-search-filter";
import { cn } from "@/lib/utils";

/** SPEC §2 Suggestions (/dashboard/suggestions): the stored suggestions for the organization. */
export function SuggestionsPage() {
  const organization = useOrganization();
  const website = organization.data?.website;
  const suggestions = useSuggestions(website);
  const refresh = useRefreshSuggestions(website);
  const accept = useAcceptSuggestion();
  const remove = useRemoveSuggestion();
  const search = useSearchFilter(suggestions.data?.suggestions ?? [], ({ targetOrg }) => [
    targetOrg.name,
    targetOrg.website,
  ]);
  const loading = organization.isPending || (canSuggestFor(website) && suggestions.isPending);
  const busyId = accept.isPending
    ? accept.variables?.suggestion.id
    : remove.isPending
      ? remove.variables
      : undefined;

  return (
    <div className="grid gap-6">
      <PageHeader title="Suggestions">
        <Button
          variant="outline"
          onClick={() => refresh.mutate()}
          disabled={!canSuggestFor(website) || refresh.isPending}
          aria-busy={refresh.isPending}
        >
          <RefreshCw className={cn(refresh.isPending && "animate-spin")} />
          Refresh
        </Button>
      </PageHeader>
      <SearchInput value={search.query} onChange={search.setQuery} placeholder="Search suggestions..." />
      {loading ? (
        <CardGridSkeleton />
      ) : organization.isError ? (
        <QueryError
          title="Failed to fetch organization data"
          error={organization.error}
          onRetry={() => organization.refetch()}
        />
      ) : suggestions.isError ? (
        <QueryError
          title="Failed to fetch suggestions"
          error={suggestions.error}
          onRetry={() => suggestions.refetch()}
        />
      ) : search.results.length === 0 ? (
        <EmptyState
          icon={Lightbulb}
          description={
            search.isFiltering
              ? "No suggestions found matching your search."
              : "No suggestions available at the moment."
          }
        />
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {search.results.map((suggestion) => (
            <SuggestionCard
              key={suggestion.id}
              suggestion={suggestion}
              busy={busyId === suggestion.id}
              onAccept={(type) => accept.mutate({ suggestion, type })}
              onRemove={() => remove.mutate(suggestion.id)}
            />
          ))}
        </div>
      )}
    </div>
  );
}
