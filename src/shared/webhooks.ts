import { z } from "zod";
import { text } from "./text";

/** CONTRACT §9: the events an endpoint may ask for. */
export const WEBHOOK_EVENTS = ["conversion.created", "relationship.created"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** Sent on demand to any endpoint, whatever it asked for. */
export const WEBHOOK_TEST_EVENT = "webhook.test";

export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  "conversion.created": "A conversion is recorded (sent or received)",
  "relationship.created": "Another company adds you as a Buddy",
};

/** Standard Webhooks: `whsec_` and the base64 of the key (32 random bytes here). */
export const WEBHOOK_SECRET_PREFIX = "whsec_";
export const WEBHOOK_URL_MAX = 2048;

export const WEBHOOK_MESSAGES = {
  url: "Enter the endpoint's URL, starting with https:// or http://",
  urlLength: `The URL must be at most ${WEBHOOK_URL_MAX} characters`,
  urlCredentials: "The URL must not contain a user name or password",
  privateAddress: "Webhooks cannot be sent to a private or loopback address",
  port: "Webhooks are sent to the standard ports only (443 for https, 80 for http)",
  events: "Choose at least one event",
  unknownEvent: `Events must be among ${WEBHOOK_EVENTS.join(", ")}`,
  nothingToChange: "Send url, events or enabled",
  notFound: "Webhook endpoint not found",
  created: "Webhook endpoint added",
  deleted: "Webhook endpoint deleted",
  testQueued: "Test event queued",
  disabled: "Disabled after failing for 5 days",
} as const;

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const protocol = new URL(value).protocol;
  return protocol === "https:" || protocol === "http:";
}

const urlField = text("URL", { error: WEBHOOK_MESSAGES.url })
  .min(1, { error: WEBHOOK_MESSAGES.url })
  .max(WEBHOOK_URL_MAX, { error: WEBHOOK_MESSAGES.urlLength })
  .refine(isHttpUrl, { error: WEBHOOK_MESSAGES.url, abort: true })
  .refine(
    (value) => {
      const url = new URL(value);
      return url.username === "" && url.password === "";
    },
    { error: WEBHOOK_MESSAGES.urlCredentials },
  )
  .describe("Where the events are POSTed: http or https, on the standard port.");

const eventsField = z
  .array(z.enum(WEBHOOK_EVENTS, { error: WEBHOOK_MESSAGES.unknownEvent }), { error: WEBHOOK_MESSAGES.events })
  .min(1, { error: WEBHOOK_MESSAGES.events })
  .max(WEBHOOK_EVENTS.length * 4, { error: WEBHOOK_MESSAGES.unknownEvent })
  // Repeats say nothing more: kept once, in the list's order.
  .transform((events) => WEBHOOK_EVENTS.filter((event) => events.includes(event)));

export const createWebhookSchema = z.object({ url: urlField, events: eventsField });
export type CreateWebhookInput = z.input<typeof createWebhookSchema>;

export const updateWebhookSchema = z
  .object({ url: urlField.optional(), events: eventsField.optional(), enabled: z.boolean().optional() })
  .refine((input) => input.url !== undefined || input.events !== undefined || input.enabled !== undefined, {
    error: WEBHOOK_MESSAGES.nothingToChange,
  });
export type UpdateWebhookInput = z.input<typeof updateWebhookSchema>;

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  enabled: z.boolean(),
  /** Masked: the prefix and the last 4 characters. */
  secret: z.string(),
  /** Set when Buddy disabled it (failing for 5 days); null when enabled or disabled by an admin. */
  disabledReason: z.string().nullable(),
  /** The first failed attempt since the last success, while it keeps failing. */
  failingSince: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

/** The only answer that carries the secret in full. */
export const createdWebhookSchema = webhookEndpointSchema.extend({ secret: z.string() });
export const rotatedSecretSchema = z.object({ secret: z.string() });

export const WEBHOOK_DELIVERY_STATUSES = ["succeeded", "failed", "pending"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const webhookDeliverySchema = z.object({
  id: z.string(),
  /** The `webhook-id` sent, the same on every attempt of a message. */
  messageId: z.string(),
  eventType: z.string(),
  /** From 1. */
  attempt: z.number().int(),
  /** pending: the message waits for this attempt (its first, or a retry). */
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  responseStatus: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  /** The response's first 1 KB, or why there was no response. */
  response: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export function maskWebhookSecret(last4: string): string {
  return `${WEBHOOK_SECRET_PREFIX}${"•".repeat(8)}${last4}`;
}
