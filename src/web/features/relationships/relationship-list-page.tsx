import { OVERLAP_MESSAGES, type OverlapSummary } from "@shared/overlap";
import type { Relationship, RelationshipType } from "@shared/relationships";
import type { LucideIcon } from "lucide-react";
import { useId, useState } from "react";
import { CardGridSkeleton } from "@/components/card-grid-skeleton";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/layout/page-header";
import { QueryError } from "@/components/query-error";
import { SearchInput } from "@/components/search-input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { AddFromLink } from "@/features/relationships/add-from-link";
import { AddOrganizationControl } from "@/features/relationships/add-organization-control";
import { useCustomerOverlap, useRelationships, useRemoveRelationship } from "@/features/relationships/api";
import { RelationshipCard } from "@/features/relationships/relationship-card";
import { useSearchFilter } from "@/hooks/use-search-filter";
import { toolDetailPath } from "@/lib/paths";
import { useCurrentUser } from "@/lib/session";

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

type Overlap = OverlapSummary["partners"][number];

/** "38 shared customers" ("fewer than 5 …" under 5), or nothing before a first run. */
function overlapWords(overlap: Overlap | undefined): string | undefined {
  if (!overlap) return undefined;
  const amount =
    overlap.customers === null ? OVERLAP_MESSAGES.fewerThan : overlap.customers.toLocaleString("en-US");
  return `${amount} shared ${overlap.customers === 1 ? "customer" : "customers"}`;
}

/** Most shared customers first; "fewer than 5" after every count, partners never compared last. */
function byOverlap(overlaps: Map<string, Overlap>) {
  const rank = (relationship: Relationship) => {
    const overlap = overlaps.get(relationship.targetOrg.id);
    return overlap ? (overlap.customers ?? 0.5) : -1;
  };
  return (a: Relationship, b: Relationship) => rank(b) - rank(a);
}

/** The Buddies and Block List pages: the active relationships of one type, searchable. */
export function RelationshipListPage({ config }: { config: RelationshipListConfig }) {
  const relationships = useRelationships();
  const remove = useRemoveRelationship(config.type);
  const { user } = useCurrentUser();
  const overlap = useCustomerOverlap(config.linksToDetail && user?.role === "admin");
  const overlaps = new Map((overlap.data?.partners ?? []).map((entry) => [entry.partnerId, entry]));
  const [sort, setSort] = useState<"added" | "overlap">("added");
  const sortId = useId();
  const active = (relationships.data ?? []).filter(
    (relationship) => relationship.type === config.type && relationship.status === "active",
  );
  const search = useSearchFilter(active, ({ targetOrg }) => [targetOrg.name, targetOrg.website]);
  const shown = sort === "overlap" ? [...search.results].sort(byOverlap(overlaps)) : search.results;

  return (
    <div className="grid gap-6">
      <PageHeader title={config.title} />
      <AddFromLink type={config.type} label={config.addLabel} />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <SearchInput value={search.query} onChange={search.setQuery} placeholder={config.searchPlaceholder} />
        <AddOrganizationControl type={config.type} label={config.addLabel} />
      </div>
      {overlaps.size > 0 ? (
        <div className="flex items-center gap-2">
          <Label htmlFor={sortId} className="text-muted-foreground">
            Sort by
          </Label>
          <NativeSelect
            id={sortId}
            value={sort}
            onChange={(event) => setSort(event.target.value === "overlap" ? "overlap" : "added")}
          >
            <option value="added">Most recent</option>
            <option value="overlap">Shared customers</option>
          </NativeSelect>
        </div>
      ) : null}
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
          {shown.map((relationship) => (
            <RelationshipCard
              key={relationship.id}
              relationship={relationship}
              href={config.linksToDetail ? toolDetailPath(relationship.id) : undefined}
              showStatus={config.linksToDetail}
              removeLabel={config.removeLabel}
              removing={remove.isPending && remove.variables === relationship.id}
              onRemove={() => remove.mutate(relationship.id)}
              overlap={overlapWords(overlaps.get(relationship.targetOrg.id))}
            />
          ))}
        </div>
      )}
    </div>
  );
}
