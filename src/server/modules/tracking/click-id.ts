import { randomBytes } from "node:crypto";

const ID_BYTES = 16;
const POOL_BYTES = ID_BYTES * 256;
let pool = randomBytes(POOL_BYTES);
let offset = 0;

/**
 * A click id (bclickid): 128 random bits, URL-safe. Taken from a pool of random bytes filled
 * 256 ids at a time, as one call to the system's generator per redirect shows in profiles.
 */
export function newClickId(): string {
  if (offset + ID_BYTES > POOL_BYTES) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const id = pool.toString("base64url", offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return id;
}
