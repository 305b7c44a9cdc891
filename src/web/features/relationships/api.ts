import type { MessageResponse } from "@shared/auth";
import { ORGANIZATION_SEARCH_MIN, type OrganizationSearchResult } from "@shared/organizations";
import type { OverlapSummary } from "@shared/overlap";
import type { AddRelationshipInput, Relationship, RelationshipType } from "@shared/relationships";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import { apiRequest, errorMessage } from "@/lib/api-client";
import { liveFigures } from "@/lib/live-figures";
import { invalidateApiPaths } from "@/lib/query-client";

export const RELATIONSHIPS_PATH = "/api/relationships";
const ORGANIZATION_SEARCH_PATH = "/api/organizations/search";
/** Suggestions become relationships (and vice versa), so each change refreshes both. */
const SUGGESTIONS_PATH = "/api/ecosystem/suggestions";
/** The overview's partners list every Buddy and no blocked company (CONTRACT §10). */
const PARTNERS_PATH = "/api/metrics/partners";

function relationshipPath(id: string): string {
  return `${RELATIONSHIPS_PATH}/${encodeURIComponent(id)}`;
}

/** Every relationship of the caller except deleted ones; the pages pick type and status. */
export function useRelationships() {
  return useQuery<Relationship[]>({ queryKey: [RELATIONSHIPS_PATH] });
}

/**
 * The latest customer overlap with each partner (CONTRACT §11), for the Buddies list's sort; asked
 * for admins only (account overlap is theirs).
 */
export function useCustomerOverlap(enabled: boolean) {
  return useQuery<OverlapSummary>({ queryKey: ["/api/overlap/partners"], enabled, retry: false });
}

/** A Buddy's page: live, as its partnership strength moves with the pair's traffic and revenue. */
export function useRelationship(id: string) {
  return useQuery<Relationship>({ queryKey: [relationshipPath(id)], ...liveFigures });
}

function useRefreshRelationships() {
  const client = useQueryClient();
  return () =>
    invalidateApiPaths(client, RELATIONSHIPS_PATH, SUGGESTIONS_PATH, ORGANIZATION_SEARCH_PATH, PARTNERS_PATH);
}

/** SPEC §8 notices per list: the Buddies page adds tools, the Block List competitors. */
const ADD_NOTICES: Record<RelationshipType, { success: string; failure: string }> = {
  complement: { success: "Tool added successfully", failure: "Failed to add tool" },
  competitor: { success: "Competitor added successfully", failure: "Failed to add competitor" },
};

export type AddOrganizationInput = Omit<AddRelationshipInput, "type">;

/** SPEC §4: the server reuses an active or suggested relationship for the same domain. */
export function useAddRelationship(type: RelationshipType) {
  const refresh = useRefreshRelationships();
  const notices = ADD_NOTICES[type];
  return useMutation({
    mutationFn: (input: AddOrganizationInput) =>
      apiRequest<Relationship>(RELATIONSHIPS_PATH, { method: "POST", body: { ...input, type } }),
    onSuccess: async () => {
      toast.success(notices.success);
      await refresh();
    },
    onError: (error) => toast.error(errorMessage(error, notices.failure)),
  });
}

/**
 * SPEC §4 Removal: a Buddy is soft-deleted (status deleted) while a competitor is deleted
 * outright, so unblocking leaves no trace in the block list.
 */
const REMOVALS: Record<
  RelationshipType,
  { remove: (id: string) => Promise<unknown>; success: string; failure: string }
> = {
  complement: {
    remove: (id) => apiRequest(relationshipPath(id), { method: "PATCH", body: { status: "deleted" } }),
    success: "Tool removed",
    failure: "Failed to remove tool",
  },
  competitor: {
    remove: (id) => apiRequest(relationshipPath(id), { method: "DELETE" }),
    success: "Competitor removed",
    failure: "Failed to remove competitor",
  },
};

export function useRemoveRelationship(type: RelationshipType) {
  const refresh = useRefreshRelationships();
  const { remove, success, failure } = REMOVALS[type];
  return useMutation({
    mutationFn: remove,
    onSuccess: async () => {
      toast.success(success);
      await refresh();
    },
    onError: (error) => toast.error(errorMessage(error, failure)),
  });
}

/** Tool detail: invite a contact at the partner company to the platform. */
export function useInviteContact(id: string) {
  return useMutation({
    mutationFn: (input: { email: string }) =>
      apiRequest<MessageResponse>(`${relationshipPath(id)}/invite`, { method: "POST", body: input }),
    onSuccess: () => toast.success("Invitation sent successfully"),
    onError: (error) => toast.error(errorMessage(error, "Failed to send invitation")),
  });
}

/** SPEC §5: the search runs from 3 characters; shorter queries send nothing (the server says 400). */
export function useOrganizationSearch(query: string, type: RelationshipType) {
  const trimmed = query.trim();
  const params = new URLSearchParams({ query: trimmed, type });
  return useQuery<OrganizationSearchResult[]>({
    queryKey: [`${ORGANIZATION_SEARCH_PATH}?${params}`],
    enabled: trimmed.length >= ORGANIZATION_SEARCH_MIN,
  });
}
