import { NOTIFICATION_PREFERENCE_KEYS, type NotificationPreference } from "@shared/notifications";
import { hmac, safeEqual } from "../../lib/tokens";

/** The path every notice's List-Unsubscribe names (RFC 8058's one-click POST goes to it). */
export const UNSUBSCRIBE_PATH = "/api/notifications/unsubscribe";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export type UnsubscribeClaim = { userId: string; preference: NotificationPreference };

/** What is signed: a purpose of its own, so no other HMAC of APP_SECRET can pass for one. */
const signed = (claim: UnsubscribeClaim) => `unsubscribe|${claim.userId}|${claim.preference}`;

/**
 * `<user id>.<preference>.<HMAC>`: it names the person and the kind of mail, and works without
 * signing in and without expiring (an unsubscribe link must keep working in an old mail). It can
 * only ever turn that one kind of mail off for that one person.
 */
export function unsubscribeToken(secret: string, claim: UnsubscribeClaim): string {
  return `${claim.userId}.${claim.preference}.${hmac(secret, signed(claim))}`;
}

export function unsubscribeUrl(publicUrl: string, secret: string, claim: UnsubscribeClaim): string {
  return `${publicUrl}${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(unsubscribeToken(secret, claim))}`;
}

/** The claim when the token is one we signed, else null (forged, altered or cut). */
export function readUnsubscribeToken(secret: string, token: string): UnsubscribeClaim | null {
  const [userId, preference, mac, ...rest] = token.split(".");
  if (rest.length > 0 || !userId || !preference || !mac || !UUID.test(userId)) return null;
  if (!(NOTIFICATION_PREFERENCE_KEYS as readonly string[]).includes(preference)) return null;
  const claim = { userId, preference: preference as NotificationPreference };
  return safeEqual(mac, hmac(secret, signed(claim))) ? claim : null;
}
