import { hash } from "node:crypto";

const BLOCK_BYTES = 64;
/** Messages up to this long reuse one buffer; a longer one (attacker-sized input) gets its own. */
const SCRATCH_BYTES = 256;

/** HMAC-SHA256 of the parts, concatenated (strings as UTF-8), under one fixed key. */
export type HmacSha256 = (...parts: Array<Buffer | string>) => Buffer;

/**
 * HMAC-SHA256 (RFC 2104) under a key fixed once, equal byte for byte to `createHmac("sha256",
 * key)`: H((K ^ opad) || H((K ^ ipad) || message)), as two one-shot `crypto.hash` calls. A
 * createHmac object per call (key import, context set-up and free) was a tenth of a redirect's
 * CPU, for the click id every click carries; the two hashes cost a fifth of it.
 */
export function createHmacSha256(secret: string | Buffer): HmacSha256 {
  let key = typeof secret === "string" ? Buffer.from(secret, "utf8") : secret;
  if (key.length > BLOCK_BYTES) key = hash("sha256", key, "buffer");
  // Both padded keys sit at the start of buffers reused by every call (calls are synchronous).
  const inner = Buffer.alloc(BLOCK_BYTES + SCRATCH_BYTES, 0x36);
  const outer = Buffer.alloc(BLOCK_BYTES + 32, 0x5c);
  for (let i = 0; i < key.length; i++) {
    inner[i] = (key[i] as number) ^ 0x36;
    outer[i] = (key[i] as number) ^ 0x5c;
  }

  return (...parts) => {
    let length = BLOCK_BYTES;
    for (const part of parts) length += typeof part === "string" ? Buffer.byteLength(part) : part.length;
    const message = length <= inner.length ? inner : Buffer.allocUnsafe(length);
    if (message !== inner) inner.copy(message, 0, 0, BLOCK_BYTES);
    let at = BLOCK_BYTES;
    for (const part of parts)
      at += typeof part === "string" ? message.write(part, at) : part.copy(message, at);
    // Digests pass as "binary" (latin1) strings, one byte per character: a Buffer made by `hash` costs
    // more than the hashing itself, and a small one from a string comes from Node's pool.
    outer.write(hash("sha256", message.subarray(0, length), "binary"), BLOCK_BYTES, "binary");
    return Buffer.from(hash("sha256", outer, "binary"), "binary");
  };
}
