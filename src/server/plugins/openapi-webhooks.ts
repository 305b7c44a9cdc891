import {
  WEBHOOK_HEADERS,
  WEBHOOK_MESSAGE_TYPES,
  type WebhookMessageType,
  webhookMessageJsonSchema,
} from "@shared/webhooks";

/**
 * CONTRACT §9 in the published document: OpenAPI 3.1's top-level `webhooks`, one per message type,
 * each the POST Buddy makes to an endpoint, its body the event's schema from shared/webhooks.ts
 * (the one the server checks each message against) and its Standard Webhooks headers. Generated
 * clients (openapi-typescript) type the messages from it. A new event's schema is published here
 * without touching this file.
 */

export const WEBHOOKS_TAG = "Webhooks";

/** `conversion.created` → `ConversionCreatedMessage`, `webhook.test` → `WebhookTestMessage`. */
function componentName(type: WebhookMessageType): string {
  const words = type.split(/[._-]/).map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return `${words.join("")}Message`;
}

/** `conversion.created` → `conversionCreated`: generated clients name operations after it. */
function operationId(type: WebhookMessageType): string {
  const name = componentName(type).replace(/Message$/, "");
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/** The `webhooks` of the published document, and the schemas they name under `components`. */
export function webhooksDocument(): {
  webhooks: Record<string, unknown>;
  schemas: Record<string, Record<string, unknown>>;
} {
  const webhooks: Record<string, unknown> = {};
  const schemas: Record<string, Record<string, unknown>> = {};
  for (const type of WEBHOOK_MESSAGE_TYPES) {
    const schema = webhookMessageJsonSchema(type);
    const name = componentName(type);
    schemas[name] = schema;
    webhooks[type] = {
      post: {
        operationId: operationId(type),
        summary: type,
        description: `${String(schema.description ?? "")}\n\nPOSTed to an endpoint, signed the Standard Webhooks way with its secret.`,
        tags: [WEBHOOKS_TAG],
        // The receiver checks the signature headers; Buddy sends no credential of the receiver's.
        security: [],
        parameters: Object.entries(WEBHOOK_HEADERS).map(([header, description]) => ({
          name: header,
          in: "header",
          required: true,
          description,
          schema: { type: "string" },
        })),
        requestBody: {
          required: true,
          description: "`{type, timestamp, data}`, in this order; verify the raw bytes, as received.",
          content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } },
        },
        responses: {
          "2XX": { description: "Received: any 2xx answered within 10 seconds is a delivery." },
          "4XX": {
            description:
              "Refused (a bad signature, say): like any other answer that is not a 2xx, a redirect or a timeout, retried with the same webhook-id.",
          },
        },
      },
    };
  }
  return { webhooks, schemas };
}
