import {
  WEBHOOK_HEADERS as SIGNATURE_HEADERS,
  WEBHOOK_MESSAGE_TYPES,
  type WebhookMessageType,
  webhookMessageJsonSchema,
} from "@shared/webhooks";
import type { JsonSchema } from "@/features/api-docs/openapi-types";

/**
 * CONTRACT §9, for receivers: each event's example message (`{type, timestamp, data}`, fields in
 * the order they are sent) and what each field of its `data` means, all read from the event's
 * schema in shared/webhooks.ts (the one the server checks each message against), through the
 * JSON Schema /api/openapi.json publishes in its `webhooks`.
 */
export type FieldRow = readonly [name: string, description: string, schema?: JsonSchema];

export type WebhookEventReference = {
  type: WebhookMessageType;
  when: string;
  example: { type: string; timestamp: string; data: Record<string, unknown> };
  fields: readonly FieldRow[];
};

function reference(type: WebhookMessageType): WebhookEventReference {
  const schema = webhookMessageJsonSchema(type) as JsonSchema;
  const data = schema.properties?.data?.properties ?? {};
  const [example] = (schema.examples ?? []) as WebhookEventReference["example"][];
  if (!example) throw new Error(`${type} has no example`);
  return {
    type,
    when: schema.description ?? "",
    example,
    fields: Object.entries(data).map(([name, field]): FieldRow => [name, field.description ?? "", field]),
  };
}

export const WEBHOOK_EVENT_REFERENCE: readonly WebhookEventReference[] = WEBHOOK_MESSAGE_TYPES.map(reference);

/** Standard Webhooks headers, as every message carries them. */
export const WEBHOOK_HEADERS: readonly FieldRow[] = [
  ...Object.entries(SIGNATURE_HEADERS),
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
