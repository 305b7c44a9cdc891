import {
  NOTIFICATION_MESSAGES,
  NOTIFICATION_PREFERENCES,
  type NotificationPreference,
  type UpdateNotificationPreferences,
} from "@shared/notifications";
import { QueryError } from "@/components/query-error";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Skeleton } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import { useNotificationPreferences, useUpdateNotificationPreferences } from "./api";

/** One switch's change: its own key alone. */
function changeOf(key: NotificationPreference, checked: boolean): UpdateNotificationPreferences {
  const change: UpdateNotificationPreferences = {};
  change[key] = checked;
  return change;
}

/**
 * SPEC §2 Notifications: the four toggles, each the signed-in person's own choice, saved as soon
 * as it is switched (issue 37, item 8). Every mail they allow carries a one-click unsubscribe.
 */
export function NotificationsPanel() {
  const preferences = useNotificationPreferences();
  const update = useUpdateNotificationPreferences();

  return (
    <Card>
      <CardHeader>
        <CardTitle>Notifications</CardTitle>
        <CardDescription>
          Choose which e-mails Buddy sends you. Each applies to you alone, and every e-mail has a link to turn
          its kind off.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {preferences.isPending ? (
          <div role="status" aria-label="Loading" className="grid gap-3">
            {NOTIFICATION_PREFERENCES.map(({ key }) => (
              <Skeleton key={key} className="h-12 w-full" />
            ))}
          </div>
        ) : preferences.isError ? (
          <QueryError
            title={NOTIFICATION_MESSAGES.loadFailed}
            error={preferences.error}
            onRetry={() => preferences.refetch()}
          />
        ) : (
          <ul className="divide-y">
            {NOTIFICATION_PREFERENCES.map(({ key, label, description }) => (
              <li key={key} className="flex items-center justify-between gap-4 py-3">
                <div className="grid min-w-0 gap-1">
                  <Label htmlFor={`notification-${key}`}>{label}</Label>
                  <p id={`notification-${key}-description`} className="text-muted-foreground text-sm">
                    {description}
                  </p>
                </div>
                <Switch
                  id={`notification-${key}`}
                  aria-describedby={`notification-${key}-description`}
                  checked={preferences.data[key]}
                  disabled={update.isPending && update.variables?.[key] !== undefined}
                  onCheckedChange={(checked) => update.mutate(changeOf(key, checked))}
                />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
