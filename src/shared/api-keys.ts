import { z } from "zod";
import { text } from "./text";

/** Recognisable in logs and secret scanners; the rest is 256 random bits. */
export const API_KEY_PREFIX = "bk_live_";

export const createApiKeySchema = z.object({
  name: text("Key name", { error: "Key name is required" })
    .min(1, { error: "Key name is required" })
    .max(100, { error: "Key name must be at most 100 characters" }),
});
export type CreateApiKeyInput = z.infer<typeof createApiKeySchema>;

/** CONTRACT §7: the list shows a masked key (a prefix and the last 4 characters). */
export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  key: z.string(),
  createdAt: z.string(),
  lastUsed: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const createdApiKeySchema = z.object({ id: z.string(), key: z.string(), message: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export function maskApiKey(prefix: string, last4: string): string {
  return `${prefix}${"•".repeat(8)}${last4}`;
}
