import {
  NOTIFICATION_MESSAGES,
  NOTIFICATION_PREFERENCES,
  type UnsubscribeAnswer,
  type UpdateNotificationPreferences,
} from "@shared/notifications";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { users } from "../../db/schema";
import { badRequest, notFound } from "../../errors";
import { getNotificationPreferences, updateNotificationPreferences } from "./notifications.service";
import { readUnsubscribeToken, type UnsubscribeClaim } from "./unsubscribe-token";

const labelOf = (claim: UnsubscribeClaim) =>
  NOTIFICATION_PREFERENCES.find(({ key }) => key === claim.preference)?.label ?? claim.preference;

/** A token we signed for a person who still exists, else 400 (forged, altered) or 404 (gone). */
async function claimOf(db: DbOrTx, secret: string | undefined, token: string) {
  const claim = secret ? readUnsubscribeToken(secret, token) : null;
  if (!claim) throw badRequest(NOTIFICATION_MESSAGES.invalidUnsubscribe);
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, claim.userId));
  if (!user) throw notFound(NOTIFICATION_MESSAGES.invalidUnsubscribe);
  return { claim, email: user.email };
}

/** What the link would turn off, and whether it is on now: reading it changes nothing. */
export async function readUnsubscribe(
  db: DbOrTx,
  secret: string | undefined,
  token: string,
): Promise<UnsubscribeAnswer> {
  const { claim, email } = await claimOf(db, secret, token);
  const subscribed = (await getNotificationPreferences(db, claim.userId))[claim.preference];
  const label = labelOf(claim);
  return {
    message: subscribed ? `Unsubscribe ${email} from ${label}?` : `${email} is unsubscribed from ${label}.`,
    email,
    preference: claim.preference,
    subscribed,
  };
}

/** RFC 8058's one-click POST: that one kind of mail off for that person; again, the same answer. */
export async function unsubscribe(
  db: DbOrTx,
  secret: string | undefined,
  token: string,
): Promise<UnsubscribeAnswer> {
  const { claim, email } = await claimOf(db, secret, token);
  const off: UpdateNotificationPreferences = {};
  off[claim.preference] = false;
  await updateNotificationPreferences(db, claim.userId, off);
  return {
    message: `${email} is unsubscribed from ${labelOf(claim)}.`,
    email,
    preference: claim.preference,
    subscribed: false,
  };
}
