import type { ApiKey, CreateApiKeyInput, CreatedApiKey } from "@shared/api-keys";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import { apiRequest } from "@/lib/api-client";
import { invalidateApiPaths } from "@/lib/query-client";

export const API_KEYS_PATH = "/api/api-keys";

/**
 * SPEC §9: API keys are the one list retried (once). Admin-only on the server, so members do not
 * ask at all (`enabled`): they would only get the 403.
 */
export function useApiKeys({ enabled }: { enabled: boolean }) {
  return useQuery<ApiKey[]>({ queryKey: [API_KEYS_PATH], retry: 1, enabled });
}

/**
 * Creation and revocation show their failures inline in their dialogs (SPEC §8), so the hooks
 * raise no error notices; the dialogs read `error`.
 */
export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateApiKeyInput) =>
      apiRequest<CreatedApiKey>(API_KEYS_PATH, { method: "POST", body: input }),
    onSuccess: () => {
      toast.success("API key saved successfully");
      // Not awaited: the one-time key should appear at once, not after the list reloads.
      void invalidateApiPaths(client, API_KEYS_PATH);
    },
  });
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<void>(`${API_KEYS_PATH}/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => invalidateApiPaths(client, API_KEYS_PATH),
  });
}
