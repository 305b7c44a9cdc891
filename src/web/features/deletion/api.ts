import type { DeletionConfirmed } from "@shared/deletion";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";

/** Issue 38: the mailed link's button deletes what its token was issued for. */
export function useConfirmDeletion() {
  return useMutation({
    mutationFn: (token: string) =>
      apiRequest<DeletionConfirmed>("/api/deletion/confirm", { method: "POST", body: { token } }),
  });
}
