import { ORGANIZATION_SEARCH_MIN, type OrganizationSearchResult } from "@shared/organizations";
import type { RelationshipType } from "@shared/relationships";
import { useId, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { useOrganizationSearch } from "@/features/relationships/api";
import { useDebouncedValue } from "@/features/relationships/use-debounced-value";

const SEARCH_DEBOUNCE_MS = 250;

type OrganizationSearchProps = {
  type: RelationshipType;
  busy: boolean;
  onPick: (organization: OrganizationSearchResult) => void;
  /** The company is not listed: switch to the new-organization form. */
  onCreate: () => void;
};

/** The add control's open state: search organizations on the platform, click one to add it. */
export function OrganizationSearch({ type, busy, onPick, onCreate }: OrganizationSearchProps) {
  const id = useId();
  const [query, setQuery] = useState("");
  const debounced = useDebouncedValue(query, SEARCH_DEBOUNCE_MS);
  const search = useOrganizationSearch(debounced, type);
  const tooShort = query.trim().length < ORGANIZATION_SEARCH_MIN;
  const settling = debounced !== query || search.isFetching;

  return (
    <div className="grid gap-3">
      <div className="grid gap-2">
        <Label htmlFor={id}>Search organizations</Label>
        <Input
          id={id}
          type="search"
          autoFocus
          placeholder="Search by name or website"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      </div>
      {tooShort ? (
        <p className="text-muted-foreground text-sm">Enter at least 3 characters to search</p>
      ) : settling ? (
        <p role="status" className="flex items-center gap-2 text-muted-foreground text-sm">
          <Spinner />
          Searching…
        </p>
      ) : search.isError ? (
        <p className="text-destructive text-sm">{search.error.message}</p>
      ) : search.data?.length ? (
        <ul aria-label="Search results" className="grid max-h-64 gap-1 overflow-y-auto">
          {search.data.map((organization) => (
            <li key={organization.id}>
              <button
                type="button"
                disabled={busy}
                onClick={() => onPick(organization)}
                className="flex w-full items-center justify-between gap-2 rounded-md px-3 py-2 text-left text-sm hover:bg-accent disabled:opacity-50"
              >
                <span className="min-w-0">
                  <span className="block truncate font-medium">{organization.name}</span>
                  <span className="block truncate text-muted-foreground text-xs">{organization.domain}</span>
                </span>
                {organization.isPlatformUser ? <Badge variant="secondary">Platform User</Badge> : null}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-muted-foreground text-sm">No organizations found.</p>
      )}
      <Button type="button" variant="link" className="h-auto justify-start px-0" onClick={onCreate}>
        Can't find it? Add a new company
      </Button>
    </div>
  );
}
