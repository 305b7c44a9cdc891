import type { BillingInfo, BillingPortal } from "@shared/billing";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";

export const BILLING_PATH = "/api/billing";

/** Admin-only on the server (CONTRACT §7): members do not ask. */
export function useBilling({ enabled }: { enabled: boolean }) {
  return useQuery<BillingInfo>({ queryKey: [BILLING_PATH], enabled });
}

/** SPEC §8: billing failures are only logged. */
const logFailure = (error: unknown) => console.error("Billing request failed", error);

export function useOpenBillingPortal() {
  return useMutation({
    mutationFn: () => apiRequest<BillingPortal>(`${BILLING_PATH}/portal`, { method: "POST" }),
    // SPEC §7: the browser goes to the provider's portal.
    onSuccess: ({ url }) => window.location.assign(url),
    onError: logFailure,
  });
}

export function useChangeCancellation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: "cancel" | "reactivate") =>
      apiRequest<BillingInfo>(`${BILLING_PATH}/${action}`, { method: "POST" }),
    onSuccess: (info) => client.setQueryData([BILLING_PATH], info),
    onError: logFailure,
  });
}
