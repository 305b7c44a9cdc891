import type {
  CreateWebhookInput,
  QueuedWebhookMessage,
  UpdateWebhookInput,
  WebhookDelivery,
  WebhookEndpoint,
} from "@shared/webhooks";
import { WEBHOOK_MESSAGES } from "@shared/webhooks";
import { useIsMutating, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { toast } from "@/components/ui/toast";
import { type MessageOutcome, messageOutcome } from "@/features/settings/webhooks/message-outcome";
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

const DELETE_ENDPOINT_KEY = ["delete-webhook-endpoint"];
const OUTCOME_KEY = "webhook-message-outcome";

/**
 * Failures stay in the confirmation dialog, as revoking an API key's do. Once deleted, the endpoint
 * leaves the list at once and its own queries are dropped, not asked again: a deleted endpoint
 * answers 404.
 */
export function useDeleteWebhookEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: DELETE_ENDPOINT_KEY,
    mutationFn: (id: string) => apiRequest<void>(endpointPath(id), { method: "DELETE" }),
    onSuccess: (_answer, id) => {
      toast.success(WEBHOOK_MESSAGES.deleted);
      client.setQueryData<WebhookEndpoint[]>([WEBHOOKS_PATH], (list) =>
        list?.filter((endpoint) => endpoint.id !== id),
      );
      const own = endpointPath(id);
      client.removeQueries({
        predicate: ({ queryKey: [first, second] }) =>
          (typeof first === "string" && (first === own || first.startsWith(`${own}/`))) ||
          (first === OUTCOME_KEY && second === id),
      });
      return client.invalidateQueries({ queryKey: [WEBHOOKS_PATH], exact: true });
    },
  });
}

/** Whether this endpoint's deletion is under way: its polls stop before the DELETE is answered. */
function useDeleting(endpointId: string) {
  return (
    useIsMutating({
      mutationKey: DELETE_ENDPOINT_KEY,
      predicate: (mutation) => mutation.state.variables === endpointId,
    }) > 0
  );
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
      apiRequest<QueuedWebhookMessage>(endpointPath(id, "test"), { method: "POST" }),
    onSuccess: (answer, id) => {
      toast.success(answer.message);
      return invalidateApiPaths(client, deliveriesPath(id));
    },
    onError: (error) => toast.error(errorMessage(error, "Failed to send the test event")),
  });
}

/** Resend: the attempt's message again, same `webhook-id` (admins only, enabled endpoints only). */
export function useResendWebhookMessage(endpointId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      apiRequest<QueuedWebhookMessage>(
        `${deliveriesPath(endpointId)}/${encodeURIComponent(deliveryId)}/resend`,
        { method: "POST" },
      ),
    onSuccess: (answer) => {
      toast.success(answer.message);
      return invalidateApiPaths(client, deliveriesPath(endpointId));
    },
    onError: (error) => toast.error(errorMessage(error, "Failed to resend the message")),
  });
}

/** A test event or a resend, as queued: the attempt whose outcome is awaited, and when it was asked. */
export type SentMessage = QueuedWebhookMessage & { sentAt: number };

/** One attempt may take 10 s; with its recording and the outbox's wake-up, 20 s is plenty. */
export const OUTCOME_WAIT_MS = 20_000;
const OUTCOME_POLL_MS = 1_000;

/**
 * The outcome of a message just sent, asked for every second until its attempt is recorded, for
 * OUTCOME_WAIT_MS at most (SPEC §7 has no polling: this one ends by itself). Once known, the
 * endpoints and deliveries are asked again: the endpoint's health follows the attempt. Its key is
 * not the path it asks (the one exception to query keys being paths): refreshing an endpoint's
 * paths (after a delete, say) must not ask a deleted endpoint for it, which would answer 404.
 */
export function useMessageOutcome(
  endpointId: string,
  sent: SentMessage | null,
): { outcome: MessageOutcome; expired: boolean } | null {
  const client = useQueryClient();
  const [expired, setExpired] = useState(false);
  const messageId = sent?.messageId ?? "";
  const deleting = useDeleting(endpointId);
  const query = useQuery<WebhookDelivery[]>({
    queryKey: [OUTCOME_KEY, endpointId, messageId],
    queryFn: () =>
      apiRequest<WebhookDelivery[]>(
        `${deliveriesPath(endpointId)}?messageId=${encodeURIComponent(messageId)}`,
      ),
    enabled: sent !== null && !expired && !deleting,
    refetchOnMount: "always",
    refetchInterval: (current) =>
      sent !== null &&
      messageOutcome(current.state.data, sent.attempt).state === "waiting" &&
      Date.now() - sent.sentAt < OUTCOME_WAIT_MS
        ? OUTCOME_POLL_MS
        : false,
  });
  const outcome = sent === null ? null : messageOutcome(query.data, sent.attempt);
  const known = outcome !== null && outcome.state !== "waiting";

  useEffect(() => {
    setExpired(false);
    if (sent === null) return;
    const timer = setTimeout(() => setExpired(true), Math.max(0, sent.sentAt + OUTCOME_WAIT_MS - Date.now()));
    return () => clearTimeout(timer);
  }, [sent]);

  useEffect(() => {
    if (!known) return;
    const refreshed = new Set([WEBHOOKS_PATH, deliveriesPath(endpointId)]);
    void client.invalidateQueries({
      predicate: ({ queryKey: [path] }) => typeof path === "string" && refreshed.has(path),
    });
  }, [known, client, endpointId]);

  return outcome === null ? null : { outcome, expired: expired && !known };
}
