import { hash } from "node:crypto";
import { hmac } from "../../lib/tokens";

/**
 * A visitor is its address and user agent, hashed with a salt derived from APP_SECRET and the
 * UTC day: the same visitor is recognisable within a day (repeats, bursts), never across days,
 * and no raw address is stored.
 */
export function createVisitorHasher(secret: string) {
  let day = "";
  let salt = "";
  return (ip: string, userAgent: string, now = new Date()): string => {
    const today = now.toISOString().slice(0, 10);
    if (today !== day) {
      day = today;
      salt = hmac(secret, `visitor-salt:${today}`);
    }
    return hash("sha256", `${salt}|${ip}|${userAgent}`, "base64url").slice(0, 32);
  };
}
