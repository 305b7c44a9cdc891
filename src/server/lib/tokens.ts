import { createHmac, createSecretKey, hash, type KeyObject, randomBytes, timingSafeEqual } from "node:crypto";

/** 256 random bits, URL-safe: session, verification, reset tokens and key material. */
export function generateToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/**
 * Tokens are looked up by their SHA-256: they carry 256 bits of entropy, so a fast hash is
 * enough (no dictionary to attack) and a stolen table yields nothing usable.
 */
export function hashToken(token: string): string {
  // The one-shot form: the same digest without a Hash object, on every authenticated request.
  return hash("sha256", token, "hex");
}

const keys = new Map<string, KeyObject>();

/** The secret as a key, made once: createHmac then skips importing it again on every call. */
export function secretKey(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, "utf8"));
    keys.set(secret, key);
  }
  return key;
}

/** HMAC-SHA256 of `data` under the secret, in base64url. */
export function hmac(secret: string, data: string): string {
  return createHmac("sha256", secretKey(secret)).update(data).digest("base64url");
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
