import type {
  CreateWebhookInput,
  UpdateWebhookInput,
  WebhookDelivery,
  WebhookEndpoint,
} from "@shared/webhooks";
import { WEBHOOK_MESSAGES } from "@shared/webhooks";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { apiRequest, errorMessage } from "@/lib/api-client";
import { invalidateApiPaths } from "@/lib/query-client";

export const WEBHOOKS_PATH = "/api/webhooks";

function endpointPath(id: string, action?: "rotate-secret" | "test" | "deliveries") {
  const path = `${WEBHOOKS_PATH}/${encodeURIComponent(id)}`;
  return action ? `${path}/${action}` : path;
}

export function deliveriesPath(id: string) {
  return endpointPath(id, "deliveries");
}

/** CONTRACT §9: admins only on the server, so members do not ask at all (`enabled`). */
export function useWebhookEndpoints({ enabled }: { enabled: boolean }) {
  return useQuery<WebhookEndpoint[]>({ queryKey: [WEBHOOKS_PATH], enabled });
}

/** The last 100 attempts, newest first: asked again each time the drawer opens. */
export function useWebhookDeliveries(id: string) {
  return useQuery<WebhookDelivery[]>({ queryKey: [deliveriesPath(id)], refetchOnMount: "always" });
}

/**
 * The secret comes back in full once, in this answer. The dialog shows a refusal (the server's 400
 * text) inline, so no error notice here.
 */
export function useCreateWebhookEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateWebhookInput) =>
      apiRequest<WebhookEndpoint>(WEBHOOKS_PATH, { method: "POST", body: input }),
    onSuccess: () => {
      toast.success(WEBHOOK_MESSAGES.created);
      // Not awaited: the one-time secret should appear at once, not after the list reloads.
      void invalidateApiPaths(client, WEBHOOKS_PATH);
    },
  });
}

/** The enable/disable switch: a failure is a notice, since the switch springs back. */
export function useUpdateWebhookEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: UpdateWebhookInput & { id: string }) =>
      apiRequest<WebhookEndpoint>(endpointPath(id), { method: "PATCH", body: input }),
    onSuccess: (endpoint) =>
      toast.success(endpoint.enabled ? "Webhook endpoint enabled" : "Webhook endpoint disabled"),
    onError: (error) => toast.error(errorMessage(error, "Failed to update webhook endpoint")),
    onSettled: () => invalidateApiPaths(client, WEBHOOKS_PATH),
  });
}

/** Failures stay in the confirmation dialog, as revoking an API key's do. */
export function useDeleteWebhookEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>(endpointPath(id), { method: "DELETE" }),
    onSuccess: () => {
      toast.success(WEBHOOK_MESSAGES.deleted);
      return invalidateApiPaths(client, WEBHOOKS_PATH);
    },
  });
}

/** The new secret, in full once; failures stay in the confirmation dialog. */
export function useRotateWebhookSecret() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<{ secret: string }>(endpointPath(id, "rotate-secret"), { method: "POST" }),
    onSuccess: () => {
      // The list's masked secret ends with the new one's last characters.
      void invalidateApiPaths(client, WEBHOOKS_PATH);
    },
  });
}

export function useSendWebhookTest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<{ message: string; messageId: string }>(endpointPath(id, "test"), { method: "POST" }),
    onSuccess: (answer, id) => {
      toast.success(answer.message);
      return invalidateApiPaths(client, deliveriesPath(id));
    },
    onError: (error) => toast.error(errorMessage(error, "Failed to send the test event")),
  });
}
