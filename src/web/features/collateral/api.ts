import type {
  Collateral,
  CollateralStatus,
  CreateCollateralInput,
  GeneratedCollateral,
} from "@shared/collateral";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import { DRAFT_HINT } from "@/features/collateral/collateral-status";
import { apiRequest, errorMessage } from "@/lib/api-client";
import { invalidateApiPaths } from "@/lib/query-client";

export const COLLATERAL_PATH = "/api/marketing/collateral";
const GENERATE_PATH = "/api/marketing/generate";

function collateralItemPath(id: string): string {
  return `${COLLATERAL_PATH}/${encodeURIComponent(id)}`;
}

/** The caller's own collateral (the server sorts it active, draft, archived). */
export function useOwnCollateral() {
  return useQuery<Collateral[]>({ queryKey: [COLLATERAL_PATH] });
}

/** A related organization's collateral: its active items plus any the caller wrote for it. */
export function useOrganizationCollateral(organizationId: string) {
  const params = new URLSearchParams({ organizationId });
  return useQuery<Collateral[]>({ queryKey: [`${COLLATERAL_PATH}?${params}`] });
}

/** One prefix covers the own list and every `?organizationId=` list, whichever screen changed it. */
function useRefreshCollateral() {
  const client = useQueryClient();
  return () => invalidateApiPaths(client, COLLATERAL_PATH);
}

export type SaveCollateralInput = { id?: string; values: CreateCollateralInput };

/**
 * The dialog's Create/Update. SPEC §8: collateral-submit failures are logged only; the dialog
 * stays open (the caller closes it on success) so nothing typed is lost.
 */
export function useSaveCollateral() {
  const refresh = useRefreshCollateral();
  return useMutation({
    mutationFn: ({ id, values }: SaveCollateralInput) =>
      id
        ? apiRequest<Collateral>(collateralItemPath(id), { method: "PATCH", body: values })
        : apiRequest<Collateral>(COLLATERAL_PATH, { method: "POST", body: values }),
    onSuccess: (saved) => {
      // SPEC names no notice for a save; a draft's says who cannot see it yet.
      if (saved.status === "draft") toast(DRAFT_HINT);
      return refresh();
    },
    onError: (error) => console.error("Failed to save collateral", error),
  });
}

/** The card's Archive/Publish toggle. SPEC §8: status-update failures are logged only. */
export function useSetCollateralStatus() {
  const refresh = useRefreshCollateral();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: CollateralStatus }) =>
      apiRequest<Collateral>(collateralItemPath(id), { method: "PATCH", body: { status } }),
    onSuccess: () => refresh(),
    onError: (error) => console.error("Failed to update collateral status", error),
  });
}

export function useDeleteCollateral() {
  const refresh = useRefreshCollateral();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>(collateralItemPath(id), { method: "DELETE" }),
    onSuccess: async () => {
      toast.success("Collateral deleted successfully");
      await refresh();
    },
    onError: (error) => toast.error(errorMessage(error, "Failed to delete collateral")),
  });
}

/**
 * The dialog's 'Generate with AI' for the caller's own organization: fills the form, saves
 * nothing. No notice on failure: the button itself says 'AI Error :(' (SPEC §8 inline).
 */
export function useGenerateCollateralDraft() {
  return useMutation({
    mutationFn: () => apiRequest<GeneratedCollateral>(GENERATE_PATH, { method: "POST" }),
    onError: (error) => console.error("Failed to generate collateral", error),
  });
}

/** Tool detail's Generate: the server writes an active item for the Buddy, then the list reloads. */
export function useGenerateCollateralFor(organizationId: string) {
  const refresh = useRefreshCollateral();
  return useMutation({
    mutationFn: () => {
      const params = new URLSearchParams({ organizationId, autoSave: "true" });
      return apiRequest<GeneratedCollateral>(`${GENERATE_PATH}?${params}`, { method: "POST" });
    },
    onSuccess: () => refresh(),
    // SPEC §8: a manual generation failure is a notice (automatic ones, elsewhere, stay silent).
    onError: (error) => toast.error(errorMessage(error, "Failed to generate collateral")),
  });
}
