import { CONVERSION_TYPES } from "@shared/tracking";
import { WEBHOOK_EVENT_LABELS, WEBHOOK_TEST_EVENT, type WebhookEvent } from "@shared/webhooks";

/**
 * CONTRACT §9, for receivers: each event's example message (`{type, timestamp, data}`, fields in
 * the order they are sent) and what each field of its `data` means.
 */
type FieldRows = readonly (readonly [name: string, description: string])[];

export type WebhookEventReference = {
  type: WebhookEvent | typeof WEBHOOK_TEST_EVENT;
  when: string;
  example: { type: string; timestamp: string; data: Record<string, unknown> };
  fields: FieldRows;
};

export const WEBHOOK_EVENT_REFERENCE: readonly WebhookEventReference[] = [
  {
    type: "conversion.created",
    when:
      `${WEBHOOK_EVENT_LABELS["conversion.created"]}. It goes to both companies of the conversion: the ` +
      "advertiser that recorded it (`direction` `received`) and the company whose link earned it (`sent`).",
    example: {
      type: "conversion.created",
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
    fields: [
      ["conversionId", "The conversion's id, as the conversion call answered it."],
      ["type", `One of ${CONVERSION_TYPES.join(", ")}.`],
      [
        "direction",
        "`received`: a partner's link earned it for you (you recorded it). `sent`: your link earned it at a partner.",
      ],
      ["clickId", "The click the conversion is credited to."],
      ["customerId", "The advertiser's own id for the customer, or null."],
      [
        "value",
        "Money in major units (49.99) with the currency's decimals, or null when the conversion has no value.",
      ],
      ["currency", "ISO 4217 code, USD unless the advertiser sent another."],
      ["eventId", "The advertiser's idempotency key, or null."],
      [
        "partner",
        "`{id, name}` of the other company: the one whose link earned it (`received`) or the advertiser (`sent`).",
      ],
      ["collateralId", "The ad whose tracked link was clicked."],
      ["occurredAt", "When the conversion was recorded (ISO 8601, UTC)."],
    ],
  },
  {
    type: "relationship.created",
    when:
      `${WEBHOOK_EVENT_LABELS["relationship.created"]}. Adding a competitor never sends anything: ` +
      "block lists stay private.",
    example: {
      type: "relationship.created",
      timestamp: "2026-03-02T09:30:00.125Z",
      data: {
        relationshipId: "5a7c9e1b-2d4f-4b6a-8c0e-1f3a5b7d9e2c",
        partner: { id: "3f6d2b1a-8e4c-4a9b-b7d5-0c1e2f3a4b5c", name: "Mailfast", website: "mailfast.io" },
        type: "complement",
        occurredAt: "2026-03-02T09:30:00.125Z",
      },
    },
    fields: [
      ["relationshipId", "The other company's Buddy entry for you."],
      ["partner", "`{id, name, website}` of the company that added you."],
      ["type", "Always `complement`."],
      ["occurredAt", "When you were added (ISO 8601, UTC)."],
    ],
  },
  {
    type: WEBHOOK_TEST_EVENT,
    when:
      "Sent by Send test event in Settings, whatever events the endpoint asked for, to check that it " +
      "receives and verifies messages.",
    example: {
      type: WEBHOOK_TEST_EVENT,
      timestamp: "2026-03-02T10:00:00.000Z",
      // In the order the server sends them (webhook-events.ts, queueTestMessage, through jsonb).
      data: {
        message: "This is a test event from Buddy. Your endpoint received it.",
        endpointId: "9d1b3f5a-7c9e-4b2d-8f6a-0e2c4a6b8d1f",
        occurredAt: "2026-03-02T10:00:00.000Z",
      },
    },
    fields: [
      ["message", "A sentence saying what it is."],
      ["endpointId", "The endpoint it was sent to."],
      ["occurredAt", "When it was asked for (ISO 8601, UTC)."],
    ],
  },
];

/** Standard Webhooks headers, as every message carries them. */
export const WEBHOOK_HEADERS: FieldRows = [
  [
    "webhook-id",
    "The message's id (`msg_…`): unique per message and the same on every retry, so you can skip one you have already handled.",
  ],
  [
    "webhook-timestamp",
    "When this attempt was signed, in Unix seconds. Refuse messages far from your clock.",
  ],
  [
    "webhook-signature",
    "`v1,<base64>`: an HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the base64-decoded part of your `whsec_…` secret. For 24 hours after a rotation it holds two signatures, space-separated (the new secret's and the old one's): accept the message if one matches.",
  ],
  ["content-type", "`application/json`"],
];

/** The receiver the docs show: Node's http module and the `standardwebhooks` package, nothing else. */
export const VERIFY_EXAMPLE = `import { createServer } from "node:http";
import { Webhook } from "standardwebhooks";

// The whsec_… secret shown when you added the endpoint (or rotated its secret).
const webhook = new Webhook(process.env.BUDDY_WEBHOOK_SECRET);

createServer(async (request, response) => {
  // Verify the raw body, byte for byte: JSON parsed and serialised again no longer matches.
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  const rawBody = Buffer.concat(chunks).toString("utf8");

  let event;
  try {
    // Checks webhook-signature against webhook-id, webhook-timestamp (5 minutes' tolerance) and the body.
    event = webhook.verify(rawBody, request.headers);
  } catch {
    response.writeHead(400).end("Invalid signature");
    return;
  }

  // Retries carry the same webhook-id: skip a message you have already handled.
  if (event.type === "conversion.created") {
    const { direction, type, value, currency, partner } = event.data;
    console.log(direction, type, value, currency, partner.name);
  }
  // Answer within 10 seconds; do slow work after answering.
  response.writeHead(204).end();
}).listen(3000);`;

/** CONTRACT §9 default WEBHOOK_RETRY_DELAYS: the waits before the 2nd to 8th attempts. */
export const RETRY_DELAYS = ["5 s", "5 min", "30 min", "2 h", "5 h", "10 h", "10 h"] as const;
