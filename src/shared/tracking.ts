import { z } from "zod";
import { allowedJson, text } from "./text";

/** SPEC §9 / CONTRACT §5. */
export const CONVERSION_TYPES = ["signup", "trial", "purchase", "upgrade", "activation", "referral"] as const;
export const CLICK_ID_TTL_MS = 2_592_000_000;
export const CLICK_ID_PARAM = "bclickid";

/** A short link's code: this many random bytes, written in base64url (8 characters). */
export const SHORT_CODE_BYTES = 6;
/** Every code a short link can have: base64url, at most 32 characters. */
const SHORT_CODE = /^[A-Za-z0-9_-]{1,32}$/;
export const isShortCode = (value: string): boolean => SHORT_CODE.test(value);
/** Longer than any click id the server issues (44 characters); its MAC decides the rest. */
export const CLICK_ID_MAX_LENGTH = 64;
/** The cap on a conversion's metadata, in UTF-8 bytes of its JSON (what is sent and stored). */
export const CONVERSION_METADATA_MAX_BYTES = 4096;

export const conversionTypeSchema = z.enum(CONVERSION_TYPES, {
  error: `type must be one of ${CONVERSION_TYPES.join(", ")}`,
});
export type ConversionType = z.infer<typeof conversionTypeSchema>;

const utf8 = new TextEncoder();
/** Bytes, not characters: "é" is one character and 2 bytes, "中" one and 3, an emoji two and 4. */
export function jsonByteLength(value: unknown): number {
  return utf8.encode(JSON.stringify(value)).byteLength;
}

export const recordConversionSchema = z.object({
  clickId: text("clickId", { error: "clickId is required" })
    .min(1, { error: "clickId is required" })
    .max(CLICK_ID_MAX_LENGTH),
  type: conversionTypeSchema,
  value: z.number({ error: "value must be a number" }).finite().min(0).max(1e12).optional(),
  metadata: z
    .record(z.string(), z.unknown(), { error: "metadata must be a JSON object" })
    .superRefine(allowedJson("metadata"))
    .refine((value) => jsonByteLength(value) <= CONVERSION_METADATA_MAX_BYTES, {
      error: `metadata must be at most ${CONVERSION_METADATA_MAX_BYTES} bytes as UTF-8 JSON`,
    })
    .optional(),
});
export type RecordConversionInput = z.infer<typeof recordConversionSchema>;

export const metricsSchema = z.object({ sent: z.number().int(), received: z.number().int() });
export type Metrics = z.infer<typeof metricsSchema>;

export const shortUrlResponseSchema = z.object({ shortUrl: z.string() });

export const dailyMetricsSchema = z.array(
  z.object({
    day: z.string(),
    clicksSent: z.number().int(),
    clicksReceived: z.number().int(),
    leadsSent: z.number().int(),
    leadsReceived: z.number().int(),
  }),
);
export type DailyMetrics = z.infer<typeof dailyMetricsSchema>;

export const ACTIVITY_KINDS = [
  "click_sent",
  "click_received",
  "lead_sent",
  "lead_received",
  "new_buddy",
] as const;
export const activitySchema = z.array(
  z.object({
    kind: z.enum(ACTIVITY_KINDS),
    at: z.string(),
    /** The other organization: the partner, or the new Buddy. */
    organization: z.object({ id: z.string(), name: z.string() }),
    /** For leads: the conversion type. */
    detail: z.string().nullable(),
  }),
);
export type Activity = z.infer<typeof activitySchema>;
