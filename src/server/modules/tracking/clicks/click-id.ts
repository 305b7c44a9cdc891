import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { CLICK_ID_TTL_MS } from "@shared/tracking";
import { type SQL, sql } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import { secretKey } from "../../../lib/tokens";
import { STORED_UUID } from "../links/link-signature";

const TIME_BYTES = 6;
const RANDOM_BYTES = 10;
const ORG_BYTES = 16;
const MAC_BYTES = 12;
const BODY_BYTES = TIME_BYTES + RANDOM_BYTES + ORG_BYTES;
const ID_BYTES = BODY_BYTES + MAC_BYTES;
/** 44 bytes in base64url, without padding. */
export const CLICK_ID_LENGTH = Math.ceil((ID_BYTES * 4) / 3);
/** A clock a little ahead on another instance must not make its fresh clicks unusable here. */
const CLOCK_SKEW_MS = 5 * 60_000;

/** Random bytes for this many ids are drawn at once: one draw per click shows in profiles. */
const POOL_IDS = 256;
let pool = Buffer.alloc(0);
let used = 0;
function randomInto(id: Buffer, at: number, length: number) {
  if (used + length > pool.length) {
    pool = randomBytes((RANDOM_BYTES + MAC_BYTES) * POOL_IDS);
    used = 0;
  }
  pool.copy(id, at, used, used + length);
  used += length;
}

export type ClickIdClaims = { sourceOrgId: string; occurredAt: number };

/**
 * A click id (bclickid) that proves itself: when it was made, 80 random bits, the organization
 * that shared the link, and an HMAC (APP_SECRET) over those and the organization that received the
 * click. A lead can then be checked and recorded on any instance without reading the click's row,
 * which another instance may be committing at this moment: a wrong `org`, a forged or altered id
 * and one over 30 days old are all refused by arithmetic alone.
 */
export function createClickIds(secret: string) {
  const key = secretKey(secret);
  const mac = (body: Buffer, targetOrgId: string) =>
    createHmac("sha256", key).update(body).update(targetOrgId).digest().subarray(0, MAC_BYTES);
  // Redirects issue ids for the same few organizations over and over: their bytes are kept.
  const orgBytes = new LRUCache<string, Buffer>({ max: 10_000 });
  function bytesOf(organizationId: string): Buffer {
    let bytes = orgBytes.get(organizationId);
    if (!bytes) {
      if (!STORED_UUID.test(organizationId))
        throw new Error(`organization id ${organizationId} is not a UUID`);
      bytes = Buffer.from(organizationId.replaceAll("-", ""), "hex");
      orgBytes.set(organizationId, bytes);
    }
    return bytes;
  }

  return {
    /**
     * A click's id. One that may not record a lead (`provable` false: a bot's hit, CONTRACT §5)
     * has random bytes where the MAC goes, so no organization can ever prove it, whoever learns it.
     */
    issue(sourceOrgId: string, targetOrgId: string, now: number, provable = true): string {
      const id = Buffer.allocUnsafe(ID_BYTES);
      id.writeUIntBE(now, 0, TIME_BYTES);
      randomInto(id, TIME_BYTES, RANDOM_BYTES);
      bytesOf(sourceOrgId).copy(id, TIME_BYTES + RANDOM_BYTES);
      if (provable) mac(id.subarray(0, BODY_BYTES), targetOrgId).copy(id, BODY_BYTES);
      else randomInto(id, BODY_BYTES, MAC_BYTES);
      return id.toString("base64url");
    },

    /** What the id proves, when it is ours, was made for `targetOrgId` and is under 30 days old. */
    read(clickId: string, targetOrgId: string, now: number): ClickIdClaims | null {
      if (clickId.length !== CLICK_ID_LENGTH) return null;
      const id = Buffer.from(clickId, "base64url");
      // Only the one spelling of each id: another would slip past the (click id, type) unique index.
      if (id.length !== ID_BYTES || id.toString("base64url") !== clickId) return null;
      if (!timingSafeEqual(mac(id.subarray(0, BODY_BYTES), targetOrgId), id.subarray(BODY_BYTES)))
        return null;
      const occurredAt = id.readUIntBE(0, TIME_BYTES);
      if (now - occurredAt > CLICK_ID_TTL_MS || occurredAt - now > CLOCK_SKEW_MS) return null;
      const org = id.toString("hex", TIME_BYTES + RANDOM_BYTES, BODY_BYTES);
      const sourceOrgId = `${org.slice(0, 8)}-${org.slice(8, 12)}-${org.slice(12, 16)}-${org.slice(16, 20)}-${org.slice(20)}`;
      return { sourceOrgId, occurredAt };
    },
  };
}

export type ClickIds = ReturnType<typeof createClickIds>;

/**
 * In SQL, the time a click id carries (its first 6 bytes, milliseconds since 1970), which is its
 * stored row's `occurred_at`: a join on it too reads only the partition that holds the click
 * (issue 38), where one on the id alone would look in every month's. Null for an id too short to
 * carry one.
 */
export function clickTimeOf(clickId: SQL): SQL {
  return sql`case when ${clickId} ~ '^[A-Za-z0-9_-]{8}' then timestamptz 'epoch' + ('x' || encode(decode(
    translate(substr(${clickId}, 1, 8), '-_', '+/'), 'base64'), 'hex'))::bit(48)::bigint * interval '1 millisecond' end`;
}
