import { z } from "zod";

/** SPEC §2 Notifications: four preferences, all off, not changeable yet ("coming soon"). */
export const NOTIFICATION_PREFERENCES = [
  { key: "emailNotifications", label: "Email Notifications" },
  { key: "marketingEmails", label: "Marketing Emails" },
  { key: "newCompetitorAlerts", label: "New Competitor Alerts" },
  { key: "weeklyDigest", label: "Weekly Digest" },
] as const;

export const notificationPreferencesSchema = z.object({
  emailNotifications: z.boolean(),
  marketingEmails: z.boolean(),
  newCompetitorAlerts: z.boolean(),
  weeklyDigest: z.boolean(),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;
