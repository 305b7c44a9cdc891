import type { MessageResponse } from "@shared/auth";
import { useMutation } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import { apiRequest, errorMessage } from "@/lib/api-client";

/** Issue 38: asking mails a link; the deletion itself happens on that link's page. */
export function useRequestOrganizationDeletion() {
  return useMutation({
    mutationFn: (name: string) =>
      apiRequest<MessageResponse>("/api/organization/deletion", { method: "POST", body: { name } }),
    onError: (error) => toast.error(errorMessage(error, "Failed to request the deletion")),
  });
}

export function useRequestAccountDeletion() {
  return useMutation({
    mutationFn: () => apiRequest<MessageResponse>("/api/account/deletion", { method: "POST", body: {} }),
    onError: (error) => toast.error(errorMessage(error, "Failed to request the deletion")),
  });
}
