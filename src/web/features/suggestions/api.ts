import type { Relationship, RelationshipType } from "@shared/relationships";
import type { SuggestionsResponse } from "@shared/suggestions";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import { apiRequest, errorMessage } from "@/lib/api-client";
import { invalidateApiPaths } from "@/lib/query-client";

const SUGGESTIONS_PATH = "/api/ecosystem/suggestions";
const RELATIONSHIPS_PATH = "/api/relationships";

/** The dashboard's suggestions call for the organization's website (SPEC §7). */
export function suggestionsPath(website: string): string {
  return `${SUGGESTIONS_PATH}?domain=${encodeURIComponent(website)}`;
}

/** SPEC §5: suggestions are fetched only when the domain contains a dot. */
export function canSuggestFor(website: string | undefined): website is string {
  return website?.includes(".") ?? false;
}

export function useSuggestions(website: string | undefined) {
  return useQuery<SuggestionsResponse>({
    queryKey: [suggestionsPath(website ?? "")],
    enabled: canSuggestFor(website),
  });
}

function useRefreshEcosystem() {
  const client = useQueryClient();
  return () => invalidateApiPaths(client, SUGGESTIONS_PATH, RELATIONSHIPS_PATH);
}

/** SPEC §4: the refresh button forces new suggestions, then reloads them. */
export function useRefreshSuggestions(website: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<SuggestionsResponse>(`${suggestionsPath(website ?? "")}&force=true`),
    onSuccess: async () => {
      await invalidateApiPaths(client, SUGGESTIONS_PATH);
      toast.success("Successfully refreshed suggestions");
    },
    onError: (error) => toast.error(errorMessage(error, "Failed to refresh suggestions")),
  });
}

type AcceptSuggestion = { suggestion: Relationship; type: RelationshipType };

/** SPEC §4 suggestion actions: the server reuses the relationship for that domain or the suggestion. */
export function useAcceptSuggestion() {
  const refresh = useRefreshEcosystem();
  return useMutation({
    mutationFn: ({ suggestion: { targetOrg }, type }: AcceptSuggestion) =>
      apiRequest<Relationship>(RELATIONSHIPS_PATH, {
        method: "POST",
        body: { organizationId: targetOrg.id, name: targetOrg.name, url: targetOrg.website, type },
      }),
    onSuccess: async (_relationship, { type }) => {
      toast.success(type === "competitor" ? "Added as competitor" : "Added as Buddy");
      await refresh();
    },
    onError: (error) => toast.error(errorMessage(error, "Failed to add relationship")),
  });
}

/** SPEC §4 Removal: a suggestion is deleted outright. */
export function useRemoveSuggestion() {
  const refresh = useRefreshEcosystem();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`${RELATIONSHIPS_PATH}/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: async () => {
      toast.success("Suggestion removed");
      await refresh();
    },
    onError: (error) => toast.error(errorMessage(error, "Failed to remove suggestion")),
  });
}
