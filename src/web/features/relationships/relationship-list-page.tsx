import type { RelationshipType } from "@shared/relationships";
import type { LucideIcon } from "lucide-react";
import { CardGridSkeleton } from "@/components/card-grid-skeleton";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/layout/page-header";
import { QueryError } from "@/components/query-error";
import { SearchInput } from "@/components/search-input";
import { AddFromLink } from "@/features/relationships/add-from-link";
import { AddOrganizationControl } from "@/features/relationships/add-organization-control";
import { useRelationships, useRemoveRelationship } from "@/features/relationships/api";
import { RelationshipCard } from "@/features/relationships/relationship-card";
import { useSearchFilter } from "@/hooks/use-search-filter";
import { toolDetailPath } from "@/lib/paths";

export type RelationshipListConfig = {
  type: RelationshipType;
  title: string;
  addLabel: string;
  removeLabel: string;
  searchPlaceholder: string;
  icon: LucideIcon;
  /** SPEC empty state when the list has nothing at all. */
  emptyText: string;
  /** Shown when the list has items but none match the search. */
  noMatchText: string;
  /** Buddies link to their detail page and show their status. */
  linksToDetail: boolean;
};

/** The Buddies and Block List pages: the active relationships of one type, searchable. */
export function RelationshipListPage({ config }: { config: RelationshipListConfig }) {
  const relationships = useRelationships();
  const remove = useRemoveRelationship(config.type);
  const active = (relationships.data ?? []).filter(
    (relationship) => relationship.type === config.type && relationship.status === "active",
  );
  const search = useSearchFilter(active, ({ targetOrg }) => [targetOrg.name, targetOrg.website]);

  return (
    <div className="grid gap-6">
      <PageHeader title={config.title} />
      <AddFromLink type={config.type} label={config.addLabel} />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <SearchInput value={search.query} onChange={search.setQuery} placeholder={config.searchPlaceholder} />
        <AddOrganizationControl type={config.type} label={config.addLabel} />
      </div>
      {relationships.isPending ? (
        <CardGridSkeleton />
      ) : relationships.isError ? (
        <QueryError
          title="Failed to fetch relationships"
          error={relationships.error}
          onRetry={() => relationships.refetch()}
        />
      ) : search.results.length === 0 ? (
        <EmptyState
          icon={config.icon}
          description={search.isFiltering ? config.noMatchText : config.emptyText}
        />
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {search.results.map((relationship) => (
            <RelationshipCard
              key={relationship.id}
              relationship={relationship}
              href={config.linksToDetail ? toolDetailPath(relationship.id) : undefined}
              showStatus={config.linksToDetail}
              removeLabel={config.removeLabel}
              removing={remove.isPending && remove.variables === relationship.id}
              onRemove={() => remove.mutate(relationship.id)}
            />
          ))}
        </div>
      )}
    </div>
  );
}
