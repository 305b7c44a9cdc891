import type {
  NotificationPreference,
  NotificationPreferences,
  UpdateNotificationPreferences,
} from "@shared/notifications";
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { notificationPreferences } from "../../db/schema";

/** A person who never chose: every kind of mail but product news (issue 37, item 8). */
export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = {
  emailNotifications: true,
  marketingEmails: false,
  newCompetitorAlerts: true,
  weeklyDigest: true,
};

const COLUMNS = {
  emailNotifications: notificationPreferences.emailNotifications,
  marketingEmails: notificationPreferences.marketingEmails,
  newCompetitorAlerts: notificationPreferences.newCompetitorAlerts,
  weeklyDigest: notificationPreferences.weeklyDigest,
} as const;

/** The person's stored choices, or the defaults. */
export async function getNotificationPreferences(
  db: DbOrTx,
  userId: string,
): Promise<NotificationPreferences> {
  const [row] = await db
    .select(COLUMNS)
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId));
  return row ?? DEFAULT_NOTIFICATION_PREFERENCES;
}

/**
 * Stores the choices sent, leaving the others as they were (the defaults for a first choice), in
 * one statement: two changes at once each keep their own field.
 */
export async function updateNotificationPreferences(
  db: DbOrTx,
  userId: string,
  changes: UpdateNotificationPreferences,
): Promise<NotificationPreferences> {
  const set: Partial<Record<NotificationPreference, boolean>> = {};
  for (const key of Object.keys(COLUMNS) as NotificationPreference[]) {
    const value = changes[key];
    if (value !== undefined) set[key] = value;
  }
  const [row] = await db
    .insert(notificationPreferences)
    .values({ userId, ...DEFAULT_NOTIFICATION_PREFERENCES, ...set })
    .onConflictDoUpdate({ target: notificationPreferences.userId, set: { ...set, updatedAt: sql`now()` } })
    .returning(COLUMNS);
  if (!row) throw new Error("notification preferences not stored");
  return row;
}

/**
 * The SQL truth of "this person wants this kind of mail", for a query that has the person's
 * `notification_preferences` row as `p` (left joined: no row means the defaults).
 */
export function wantsMail(preference: NotificationPreference) {
  const column = {
    emailNotifications: sql`p.email_notifications`,
    marketingEmails: sql`p.marketing_emails`,
    newCompetitorAlerts: sql`p.new_competitor_alerts`,
    weeklyDigest: sql`p.weekly_digest`,
  }[preference];
  return sql`coalesce(${column}, ${sql.raw(String(DEFAULT_NOTIFICATION_PREFERENCES[preference]))})`;
}
