import { hash } from "node:crypto";
import { hmac } from "../../lib/tokens";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A visitor is its address and user agent, hashed with a salt derived from APP_SECRET and the
 * UTC day: the same visitor is recognisable within a day (repeats, bursts), never across days,
 * and no raw address is stored.
 */
export function createVisitorHasher(secret: string) {
  // The day's bounds in epoch milliseconds: comparing numbers, not formatting a date per click.
  let dayStart = 0;
  let dayEnd = 0;
  let salt = "";
  return (ip: string, userAgent: string, now = Date.now()): string => {
    if (now < dayStart || now >= dayEnd) {
      dayStart = now - (now % DAY_MS);
      dayEnd = dayStart + DAY_MS;
      salt = hmac(secret, `visitor-salt:${new Date(dayStart).toISOString().slice(0, 10)}`);
    }
    return hash("sha256", `${salt}|${ip}|${userAgent}`, "base64url").slice(0, 32);
  };
}
