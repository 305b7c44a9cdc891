import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Secrets Buddy must use again but never show again (an organization's Stripe signing secret),
 * kept sealed with AES-256-GCM under a key derived from APP_SECRET with HKDF. A copy of the
 * database alone opens nothing, and a sealed value altered or moved to another purpose (another
 * `purpose`) fails to open rather than opening to something else.
 */
const VERSION = "v1";
const IV_BYTES = 12;

export type SecretSealer = {
  seal(secret: string): string;
  /** The secret, or null when the value was not sealed by this deployment for this purpose. */
  open(sealed: string): string | null;
};

export function createSecretSealer(appSecret: string, purpose: string): SecretSealer {
  const key = Buffer.from(hkdfSync("sha256", appSecret, "buddy sealed secrets", purpose, 32));
  const aad = Buffer.from(`${VERSION}:${purpose}`);
  return {
    seal(secret) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(aad);
      const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
      return [VERSION, iv, sealed, cipher.getAuthTag()]
        .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
        .join(".");
    },
    open(value) {
      const [version, iv, sealed, tag] = value.split(".");
      if (version !== VERSION || !iv || sealed === undefined || !tag) return null;
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
        decipher.setAAD(aad);
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        return Buffer.concat([decipher.update(Buffer.from(sealed, "base64url")), decipher.final()]).toString(
          "utf8",
        );
      } catch {
        return null;
      }
    },
  };
}
