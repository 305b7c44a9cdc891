import type { NotificationPreferences } from "@shared/notifications";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { notificationPreferences } from "../../db/schema";

/** A person who never chose: every kind of mail but product news (issue 37, item 8). */
export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = {
  emailNotifications: true,
  marketingEmails: false,
  newCompetitorAlerts: true,
  weeklyDigest: true,
};

/** The person's stored choices, or the defaults. */
export async function getNotificationPreferences(
  db: DbOrTx,
  userId: string,
): Promise<NotificationPreferences> {
  const [row] = await db
    .select({
      emailNotifications: notificationPreferences.emailNotifications,
      marketingEmails: notificationPreferences.marketingEmails,
      newCompetitorAlerts: notificationPreferences.newCompetitorAlerts,
      weeklyDigest: notificationPreferences.weeklyDigest,
    })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId));
  return row ?? DEFAULT_NOTIFICATION_PREFERENCES;
}
