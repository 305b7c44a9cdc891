import { z } from "zod";
import { idField } from "./http";
import { OVERLAP_POPULATIONS } from "./overlap";
import { text } from "./text";
import { CONVERSION_TYPES, REFUND_KINDS } from "./tracking";

/** CONTRACT §9: the events an endpoint may ask for. */
export const WEBHOOK_EVENTS = [
  "conversion.created",
  "conversion.refunded",
  "relationship.created",
  "overlap.completed",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** Sent on demand to any endpoint, whatever it asked for. */
export const WEBHOOK_TEST_EVENT = "webhook.test";

export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  "conversion.created": "A conversion is recorded (sent or received)",
  "conversion.refunded": "A conversion is refunded or disputed (sent or received)",
  "relationship.created": "Another company adds you as a Buddy",
  "overlap.completed": "An account overlap run with a partner finishes (either side started it)",
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
  deliveryNotFound: "Delivery not found",
  resendQueued: "Message queued to be sent again",
  resendDisabled: "Enable the endpoint to resend its messages: Buddy sends nothing to a disabled endpoint",
  resendNoBody: "This attempt was made before Buddy kept the body it sent, so it cannot be sent again",
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
  /** The body sent, as signed (its first 16 KB); null while the attempt waits to be made. */
  request: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** `?messageId=`: one message's attempts only (the settings poll a test event's or a resend's). */
export const webhookDeliveriesQuerySchema = z.object({ messageId: idField("messageId").optional() });

export const webhookDeliveryParamsSchema = z.object({ id: idField("id"), deliveryId: idField("deliveryId") });

/** What a test event and a resend answer: the `webhook-id` and the attempt that will carry it. */
export const queuedWebhookMessageSchema = z.object({
  message: z.string(),
  messageId: z.string(),
  /** The number the attempt queued will be listed under in the deliveries. */
  attempt: z.number().int(),
});
export type QueuedWebhookMessage = z.infer<typeof queuedWebhookMessageSchema>;

export function maskWebhookSecret(last4: string): string {
  return `${WEBHOOK_SECRET_PREFIX}${"•".repeat(8)}${last4}`;
}

/**
 * CONTRACT §9: the message each event sends, `{type, timestamp, data}`, one schema per event type.
 * The server builds a message when it delivers it and checks it against its schema; the schema's
 * field order is the order sent. The API docs' reference and the `webhooks` of /api/openapi.json
 * (so generated clients type the messages) are made from these schemas, their `.describe()` texts
 * and their example: add an event here, and its producer in server/modules/webhooks/webhook-events.ts.
 */
function webhookMessage<Type extends string, Data extends z.ZodRawShape>(
  type: Type,
  data: Data,
  doc: { when: string; example: { timestamp: string; data: z.input<z.ZodObject<Data>> } },
) {
  return z
    .object({
      type: z.literal(type).describe("The event."),
      timestamp: z.iso.datetime().describe("When the message was made (ISO 8601, UTC)."),
      data: z.object(data).describe("The event's fields."),
    })
    .meta({ description: doc.when, examples: [{ type, ...doc.example }] });
}

const occurredAt = (description: string) => z.iso.datetime().describe(description);

export const WEBHOOK_DIRECTIONS = ["received", "sent"] as const;

export const conversionCreatedMessageSchema = webhookMessage(
  "conversion.created",
  {
    conversionId: z.string().describe("The conversion's id, as the conversion call answered it."),
    type: z.enum(CONVERSION_TYPES).describe("What the customer did."),
    direction: z
      .enum(WEBHOOK_DIRECTIONS)
      .describe(
        "`received`: a partner's link earned it for you (you recorded it). `sent`: your link earned it at a partner.",
      ),
    clickId: z.string().describe("The click the conversion is credited to."),
    customerId: z.string().nullable().describe("The advertiser's own id for the customer, or null."),
    value: z
      .number()
      .nonnegative()
      .nullable()
      .describe(
        "Money in major units (49.99) with the currency's decimals, or null when the conversion has no value.",
      ),
    currency: z
      .string()
      .nullable()
      .describe(
        "ISO 4217 code of `value`, USD unless the advertiser sent another; null when the conversion has no value.",
      ),
    eventId: z.string().nullable().describe("The advertiser's idempotency key, or null."),
    partner: z
      .object({
        id: z.string().describe("The company's id."),
        name: z.string().describe("The company's name."),
      })
      .describe(
        "`{id, name}` of the other company: the one whose link earned it (`received`) or the advertiser (`sent`).",
      ),
    collateralId: z.string().nullable().describe("The ad whose tracked link was clicked."),
    occurredAt: occurredAt("When the conversion was recorded (ISO 8601, UTC)."),
  },
  {
    when:
      `${WEBHOOK_EVENT_LABELS["conversion.created"]}. It goes to both companies of the conversion: the ` +
      "advertiser that recorded it (`direction` `received`) and the company whose link earned it (`sent`).",
    example: {
      timestamp: "2026-03-02T14:05:09.412Z",
      data: {
        conversionId: "8c0f3a52-6b1e-4d7a-9f25-3e4b8a1c7d90",
        type: "purchase",
        direction: "received",
        clickId: "AZVbK3nQ9xT2pLm8Rw4vYc6hJ0sDfGtUaB1eNk7oPq5iXr3zWl2MCjE4h9f",
        customerId: "cus_PqR5tUvW8xYz12",
        value: 49.99,
        currency: "USD",
        eventId: "evt_1PqR5tUvW8xYz12AbCd",
        partner: { id: "3f6d2b1a-8e4c-4a9b-b7d5-0c1e2f3a4b5c", name: "Mailfast" },
        collateralId: "b2e4f6a8-1c3d-4e5f-8a9b-0c1d2e3f4a5b",
        occurredAt: "2026-03-02T14:05:09.398Z",
      },
    },
  },
);

const money = (description: string) => z.number().describe(description);

export const conversionRefundedMessageSchema = webhookMessage(
  "conversion.refunded",
  {
    refundId: z.string().describe("The refund's id, as the refunds call answered it (`id`)."),
    conversionId: z.string().describe("The conversion it refunds, as the conversion call answered it."),
    direction: z
      .enum(WEBHOOK_DIRECTIONS)
      .describe(
        "`received`: a conversion a partner's link earned you. `sent`: one your link earned at a partner.",
      ),
    value: money(
      "What this refund took back, in major units of `currency`; negative for a won dispute, which gives back what the dispute took.",
    ),
    currency: z.string().describe("ISO 4217 code of the conversion's value."),
    reason: z
      .enum(REFUND_KINDS)
      .describe(
        "`refund`, `dispute` (a chargeback opened) or `dispute_won` (the chargeback lost by the customer).",
      ),
    partner: z
      .object({
        id: z.string().describe("The company's id."),
        name: z.string().describe("The company's name."),
      })
      .describe(
        "`{id, name}` of the other company: the one whose link earned it (`received`) or the advertiser (`sent`).",
      ),
    occurredAt: occurredAt("When the refund was recorded (ISO 8601, UTC)."),
    externalRefundId: z
      .string()
      .describe(
        "The refundId the advertiser sent with its key, or the Stripe object it came from (`stripe:…`).",
      ),
    refundedTotal: money("What has been taken back from the conversion in all, this refund included."),
    netValue: money("The conversion's value less `refundedTotal`: what it is worth now."),
  },
  {
    when:
      `${WEBHOOK_EVENT_LABELS["conversion.refunded"]}. It goes to the same two companies as the conversion. ` +
      "Revenue figures are net of refunds, taken back on the day of the refund.",
    example: {
      timestamp: "2026-03-09T10:15:02.733Z",
      data: {
        refundId: "e1a7c3d5-9b2f-4e6a-8c1d-3f5b7a9c2e4d",
        conversionId: "8c0f3a52-6b1e-4d7a-9f25-3e4b8a1c7d90",
        direction: "received",
        value: 20,
        currency: "USD",
        reason: "refund",
        partner: { id: "3f6d2b1a-8e4c-4a9b-b7d5-0c1e2f3a4b5c", name: "Mailfast" },
        occurredAt: "2026-03-09T10:15:02.720Z",
        externalRefundId: "credit-note-1042",
        refundedTotal: 20,
        netValue: 29.99,
      },
    },
  },
);

export const relationshipCreatedMessageSchema = webhookMessage(
  "relationship.created",
  {
    relationshipId: z.string().describe("The other company's Buddy entry for you."),
    partner: z
      .object({
        id: z.string().describe("The company's id."),
        name: z.string().describe("The company's name."),
        website: z.string().describe("The company's website."),
      })
      .describe("`{id, name, website}` of the company that added you."),
    type: z.literal("complement").describe("Always `complement`."),
    occurredAt: occurredAt("When you were added (ISO 8601, UTC)."),
  },
  {
    when:
      `${WEBHOOK_EVENT_LABELS["relationship.created"]}. Adding a competitor never sends anything: ` +
      "block lists stay private.",
    example: {
      timestamp: "2026-03-02T09:30:00.125Z",
      data: {
        relationshipId: "5a7c9e1b-2d4f-4b6a-8c0e-1f3a5b7d9e2c",
        partner: { id: "3f6d2b1a-8e4c-4a9b-b7d5-0c1e2f3a4b5c", name: "Mailfast", website: "mailfast.io" },
        type: "complement",
        occurredAt: "2026-03-02T09:30:00.125Z",
      },
    },
  },
);

export const overlapCompletedMessageSchema = webhookMessage(
  "overlap.completed",
  {
    runId: z.string().describe("The run's id, as `GET /api/overlap/runs` lists it."),
    partner: z
      .object({
        id: z.string().describe("The company's id."),
        name: z.string().describe("The company's name."),
      })
      .describe("`{id, name}` of the company you compared lists with."),
    mine: z.enum(OVERLAP_POPULATIONS).describe("Your list that was compared: `customers` or `prospects`."),
    theirs: z.enum(OVERLAP_POPULATIONS).describe("The partner's list it was compared with."),
    count: z
      .number()
      .int()
      .nullable()
      .describe("How many accounts both lists hold; `null` when fewer than 5."),
    occurredAt: occurredAt("When the run finished (ISO 8601, UTC)."),
  },
  {
    when:
      `${WEBHOOK_EVENT_LABELS["overlap.completed"]}. The message holds the count only: the shared ` +
      "accounts themselves are known to your browser or your server, never to Buddy.",
    example: {
      timestamp: "2026-03-04T08:00:00.250Z",
      data: {
        runId: "7e2a4c6b-1d3f-4e5a-9b7c-2d4f6a8c0e1b",
        partner: { id: "3f6d2b1a-8e4c-4a9b-b7d5-0c1e2f3a4b5c", name: "Mailfast" },
        mine: "customers",
        theirs: "customers",
        count: 38,
        occurredAt: "2026-03-04T08:00:00.250Z",
      },
    },
  },
);

export const WEBHOOK_TEST_TEXT = "This is a test event from Buddy. Your endpoint received it.";

export const webhookTestMessageSchema = webhookMessage(
  WEBHOOK_TEST_EVENT,
  {
    message: z.string().describe("A sentence saying what it is."),
    endpointId: z.string().describe("The endpoint it was sent to."),
    occurredAt: occurredAt("When it was asked for (ISO 8601, UTC)."),
  },
  {
    when:
      "Sent by Send test event in Settings, whatever events the endpoint asked for, to check that it " +
      "receives and verifies messages.",
    example: {
      timestamp: "2026-03-02T10:00:00.000Z",
      data: {
        message: WEBHOOK_TEST_TEXT,
        endpointId: "9d1b3f5a-7c9e-4b2d-8f6a-0e2c4a6b8d1f",
        occurredAt: "2026-03-02T10:00:00.000Z",
      },
    },
  },
);

/** Every message Buddy sends, by type: the events an endpoint may ask for, then the test event. */
export const WEBHOOK_MESSAGE_SCHEMAS = {
  "conversion.created": conversionCreatedMessageSchema,
  "conversion.refunded": conversionRefundedMessageSchema,
  "relationship.created": relationshipCreatedMessageSchema,
  "overlap.completed": overlapCompletedMessageSchema,
  [WEBHOOK_TEST_EVENT]: webhookTestMessageSchema,
} as const satisfies Record<WebhookEvent | typeof WEBHOOK_TEST_EVENT, z.ZodObject>;
export type WebhookMessageType = keyof typeof WEBHOOK_MESSAGE_SCHEMAS;
export const WEBHOOK_MESSAGE_TYPES = Object.keys(WEBHOOK_MESSAGE_SCHEMAS) as WebhookMessageType[];
export type WebhookMessage<Type extends WebhookMessageType = WebhookMessageType> = z.infer<
  (typeof WEBHOOK_MESSAGE_SCHEMAS)[Type]
>;
/** What a message's `data` holds. */
export type WebhookData<Type extends WebhookMessageType> = WebhookMessage<Type>["data"];

/** A message as receivers get it: JSON Schema (2020-12, as OpenAPI 3.1 takes it), without `$schema`. */
export function webhookMessageJsonSchema(type: WebhookMessageType): Record<string, unknown> {
  const { $schema: _, ...schema } = z.toJSONSchema(WEBHOOK_MESSAGE_SCHEMAS[type], {
    io: "input",
    // `format: date-time` says it; the pattern that checks it here is no help to a reader.
    override: ({ jsonSchema }) => {
      if (jsonSchema.format === "date-time") delete jsonSchema.pattern;
    },
  });
  return schema;
}

/** The Standard Webhooks headers every message carries, for the docs and the OpenAPI document. */
export const WEBHOOK_HEADERS = {
  "webhook-id":
    "The message's id (`msg_…`): unique per message and the same on every retry, so you can skip one you have already handled.",
  "webhook-timestamp": "When this attempt was signed, in Unix seconds. Refuse messages far from your clock.",
  "webhook-signature":
    "`v1,<base64>`: an HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the base64-decoded part of your `whsec_…` secret. For 24 hours after a rotation it holds two signatures, space-separated (the new secret's and the old one's): accept the message if one matches.",
} as const;
