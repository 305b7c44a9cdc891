import type {
  OverlapLevel,
  OverlapPartner,
  OverlapPopulation,
  OverlapRun,
  OverlapSettings,
  OverlapSummary,
} from "@shared/overlap";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import { apiRequest, errorMessage } from "@/lib/api-client";
import { invalidateApiPaths } from "@/lib/query-client";
import { overlapErrorMessage } from "./overlap-errors";

export const OVERLAP_PATH = "/api/overlap";
export const OVERLAP_AWAITING_PATH = "/api/overlap/runs?awaiting=true";
export const partnerOverlapPath = (partnerId: string) =>
  `/api/overlap/partners/${encodeURIComponent(partnerId)}`;

export function useOverlapSettings() {
  return useQuery<OverlapSettings>({ queryKey: [OVERLAP_PATH] });
}

export function useDiscoverable(enabled: boolean) {
  return useQuery<{ organizations: { id: string; name: string; domain: string }[] }>({
    queryKey: ["/api/overlap/discoverable"],
    enabled,
  });
}

export function useOverlapRuns() {
  return useQuery<{ runs: OverlapRun[] }>({ queryKey: ["/api/overlap/runs"] });
}

/** Runs whose next step is this side's: polled while a page is open, and on focus. */
export function useAwaitingRuns(enabled: boolean) {
  return useQuery<{ runs: OverlapRun[] }>({
    queryKey: [OVERLAP_AWAITING_PATH],
    enabled,
    refetchInterval: 15_000,
  });
}

export function usePartnerOverlap(partnerId: string, enabled = true) {
  return useQuery<OverlapPartner>({ queryKey: [partnerOverlapPath(partnerId)], enabled, retry: false });
}

export function useOverlapSummary(enabled: boolean) {
  return useQuery<OverlapSummary>({ queryKey: ["/api/overlap/partners"], enabled });
}

export function useRefreshOverlap() {
  const client = useQueryClient();
  return () => invalidateApiPaths(client, OVERLAP_PATH);
}

export function useSetDiscovery() {
  const refresh = useRefreshOverlap();
  return useMutation({
    mutationFn: (enabled: boolean) =>
      apiRequest<OverlapSettings>("/api/overlap/discovery", { method: "PUT", body: { enabled } }),
    onSuccess: (_data, enabled) => {
      toast.success(enabled ? "Overlap discovery turned on" : "Overlap discovery turned off");
      refresh();
    },
    onError: (error) => toast.error(errorMessage(error, "Failed to update overlap discovery")),
  });
}

export function useUpdatePartnerOverlap(partnerId: string) {
  const refresh = useRefreshOverlap();
  return useMutation({
    mutationFn: (body: { level?: OverlapLevel; consent?: boolean }) =>
      apiRequest<OverlapPartner>(partnerOverlapPath(partnerId), { method: "PUT", body }),
    onSuccess: () => refresh(),
    onError: (error) => toast.error(errorMessage(error, "Failed to update sharing")),
  });
}

export type Comparison = {
  partnerId: string;
  partnerName: string;
  population: OverlapPopulation;
  partnerPopulation: OverlapPopulation;
};

/** Step 1 from this browser: the protocol's code loads with the first comparison. */
export function useStartComparison(organizationId: string) {
  const refresh = useRefreshOverlap();
  return useMutation({
    mutationFn: async ({ partnerName: _, ...input }: Comparison) =>
      (await import("./overlap-engine")).startOverlapRun(organizationId, input),
    onSuccess: (_run, { partnerName }) =>
      toast.success(`Comparison started: it finishes when an admin of ${partnerName} next opens Buddy`),
    onError: (error) => toast.error(overlapErrorMessage(error, "Failed to start the comparison")),
    onSettled: () => refresh(),
  });
}
