import { randomBytes } from "node:crypto";
import { WEBHOOK_SECRET_PREFIX } from "@shared/webhooks";
import { createSecretSealer, type SecretSealer } from "../../lib/sealed-secrets";

/** After a rotation, the previous secret signs beside the new one this long (CONTRACT §9). */
export const PREVIOUS_SECRET_MS = 24 * 60 * 60_000;

/** Standard Webhooks: `whsec_` and the base64 of a random key (32 bytes, 256 bits). */
export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString("base64")}`;
}

export function webhookSecretSealer(appSecret: string): SecretSealer {
  return createSecretSealer(appSecret, "webhook signing secret");
}

/** What an endpoint's row stores for a new secret. */
export function sealedSecret(sealer: SecretSealer, secret: string) {
  return { secretSealed: sealer.seal(secret), secretHint: secret.slice(-4) };
}
