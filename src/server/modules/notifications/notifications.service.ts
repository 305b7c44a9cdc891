import type { NotificationPreferences } from "@shared/notifications";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { notificationPreferences } from "../../db/schema";

const ALL_OFF: NotificationPreferences = {
  emailNotifications: false,
  marketingEmails: false,
  newCompetitorAlerts: false,
  weeklyDigest: false,
};

/** SPEC §2: the organization's stored preferences; none stored means all off. */
export async function getNotificationPreferences(
  db: DbOrTx,
  organizationId: string,
): Promise<NotificationPreferences> {
  const [row] = await db
    .select({
      emailNotifications: notificationPreferences.emailNotifications,
      marketingEmails: notificationPreferences.marketingEmails,
      newCompetitorAlerts: notificationPreferences.newCompetitorAlerts,
      weeklyDigest: notificationPreferences.weeklyDigest,
    })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.organizationId, organizationId));
  return row ?? ALL_OFF;
}
