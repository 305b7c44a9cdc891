import {
  NOTIFICATION_MESSAGES,
  type NotificationPreferences,
  type UpdateNotificationPreferences,
} from "@shared/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import { apiRequest, errorMessage } from "@/lib/api-client";

export const NOTIFICATION_PREFERENCES_PATH = "/api/notification-preferences";

export function useNotificationPreferences() {
  return useQuery<NotificationPreferences>({ queryKey: [NOTIFICATION_PREFERENCES_PATH] });
}

/**
 * A switch saves at once, sending its own key alone. It shows the new position while the request
 * runs and springs back, with a notice, if it fails; the answer (all four as stored) replaces it.
 */
export function useUpdateNotificationPreferences() {
  const client = useQueryClient();
  const key = [NOTIFICATION_PREFERENCES_PATH];
  return useMutation({
    mutationFn: (changes: UpdateNotificationPreferences) =>
      apiRequest<NotificationPreferences>(NOTIFICATION_PREFERENCES_PATH, { method: "PATCH", body: changes }),
    onMutate: async (changes) => {
      await client.cancelQueries({ queryKey: key });
      const before = client.getQueryData<NotificationPreferences>(key);
      if (before) client.setQueryData<NotificationPreferences>(key, { ...before, ...changes });
      return { before };
    },
    onSuccess: (stored) => {
      client.setQueryData(key, stored);
      toast.success(NOTIFICATION_MESSAGES.saved);
    },
    onError: (error, _changes, context) => {
      if (context?.before) client.setQueryData(key, context.before);
      toast.error(errorMessage(error, NOTIFICATION_MESSAGES.saveFailed));
    },
  });
}
