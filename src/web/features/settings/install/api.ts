import { type ConnectStripeInput, STRIPE_MESSAGES, type StripeConnection } from "@shared/integrations";
import type { InstallSettings } from "@shared/organizations";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import { apiRequest } from "@/lib/api-client";
import { invalidateApiPaths } from "@/lib/query-client";

/** The organization id and PUBLIC_URL the install scripts are pre-configured with. */
export function useInstallSettings() {
  return useQuery<InstallSettings>({ queryKey: ["/api/organization/install"] });
}

export const STRIPE_CONNECTION_PATH = "/api/integrations/stripe";

/** CONTRACT §8: whether Stripe is connected, and the webhook URL to paste into Stripe. */
export function useStripeConnection() {
  return useQuery<StripeConnection>({ queryKey: [STRIPE_CONNECTION_PATH] });
}

/** Admins only (403 otherwise). Both show a failure inline; success is a notice. */
export function useConnectStripe() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ConnectStripeInput) =>
      apiRequest<StripeConnection>(STRIPE_CONNECTION_PATH, { method: "PUT", body: input }),
    onSuccess: (connection) => {
      client.setQueryData([STRIPE_CONNECTION_PATH], connection);
      toast.success(STRIPE_MESSAGES.connected);
    },
  });
}

export function useDisconnectStripe() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<void>(STRIPE_CONNECTION_PATH, { method: "DELETE" }),
    onSuccess: () => {
      toast.success(STRIPE_MESSAGES.disconnected);
      return invalidateApiPaths(client, STRIPE_CONNECTION_PATH);
    },
  });
}
