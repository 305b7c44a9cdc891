import { NOTIFICATION_PREFERENCES, type NotificationPreferences } from "@shared/notifications";
import { useQuery } from "@tanstack/react-query";
import { QueryError } from "@/components/query-error";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Skeleton } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";

export const NOTIFICATION_PREFERENCES_PATH = "/api/notification-preferences";

/** SPEC §2 Notifications: four toggles, disabled and off for now; preferences are coming soon. */
export function NotificationsPanel() {
  const preferences = useQuery<NotificationPreferences>({ queryKey: [NOTIFICATION_PREFERENCES_PATH] });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Notifications</CardTitle>
        <CardDescription>Notification preferences are coming soon.</CardDescription>
      </CardHeader>
      <CardContent>
        {preferences.isPending ? (
          <div role="status" aria-label="Loading" className="grid gap-3">
            {NOTIFICATION_PREFERENCES.map(({ key }) => (
              <Skeleton key={key} className="h-8 w-full" />
            ))}
          </div>
        ) : preferences.isError ? (
          <QueryError
            title="Failed to fetch notification preferences"
            error={preferences.error}
            onRetry={() => preferences.refetch()}
          />
        ) : (
          <ul className="divide-y">
            {NOTIFICATION_PREFERENCES.map(({ key, label }) => (
              <li key={key} className="flex items-center justify-between gap-4 py-3">
                <Label htmlFor={`notification-${key}`} className="font-normal">
                  {label}
                </Label>
                <Switch id={`notification-${key}`} checked={preferences.data[key]} disabled />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
