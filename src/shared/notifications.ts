import { z } from "zod";
import { text } from "./text";

/**
 * SPEC §2 Notifications: the four toggles, in the SPEC's order and words. Each is a person's own
 * choice (issue 37, item 8); `description` says what it sends.
 */
export const NOTIFICATION_PREFERENCES = [
  {
    key: "emailNotifications",
    label: "Email Notifications",
    description:
      "A company adds you as a Buddy, your first lead and first revenue from each partner, a partner asking to compare account lists, a webhook endpoint failing, a colleague waiting for approval.",
  },
  {
    key: "marketingEmails",
    label: "Marketing Emails",
    description: "Product news from Buddy. Nothing is sent yet.",
  },
  {
    key: "newCompetitorAlerts",
    label: "New Competitor Alerts",
    description: "A company in your category joins Buddy, with a link to add it to your block list.",
  },
  {
    key: "weeklyDigest",
    label: "Weekly Digest",
    description: "Mondays at 08:00 UTC: last week's clicks, leads and revenue with each partner.",
  },
] as const;

export const notificationPreferencesSchema = z.object({
  emailNotifications: z.boolean(),
  marketingEmails: z.boolean(),
  newCompetitorAlerts: z.boolean(),
  weeklyDigest: z.boolean(),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;
export type NotificationPreference = keyof NotificationPreferences;
export const NOTIFICATION_PREFERENCE_KEYS = [
  "emailNotifications",
  "marketingEmails",
  "newCompetitorAlerts",
  "weeklyDigest",
] as const satisfies readonly NotificationPreference[];

/**
 * PATCH /api/notification-preferences: any of the four, at least one; what is left out stays as
 * it was. A switch sends only its own, so two tabs never undo each other's choice.
 */
export const updateNotificationPreferencesSchema = notificationPreferencesSchema
  .partial()
  .strict()
  .refine((value) => Object.keys(value).length > 0, { message: "Choose a preference to change" });
export type UpdateNotificationPreferences = z.infer<typeof updateNotificationPreferencesSchema>;

export const NOTIFICATION_MESSAGES = {
  saved: "Notification preferences saved",
  saveFailed: "Failed to save notification preferences",
  loadFailed: "Failed to fetch notification preferences",
  invalidUnsubscribe: "This unsubscribe link is not valid",
} as const;

/** The one-click unsubscribe link's token (RFC 8058): signed, it needs no sign-in. */
export const unsubscribeQuerySchema = z.object({
  token: text("token", { trim: false }).min(1).max(300),
});

/** What the unsubscribe link answers as JSON: the address and the kind of mail it stops. */
export const unsubscribeAnswerSchema = z.object({
  message: z.string(),
  email: z.string(),
  preference: z.enum(NOTIFICATION_PREFERENCE_KEYS),
  /** Whether that kind of mail is still on (a GET changes nothing; after the POST, false). */
  subscribed: z.boolean(),
});
export type UnsubscribeAnswer = z.infer<typeof unsubscribeAnswerSchema>;
