import type { OpenApiDocument } from "@/features/api-docs/openapi-types";

/**
 * Test data: a small document shaped like the server's, with its own paths and names so the tests
 * prove the page reads tags and `security` from the document rather than knowing the real API.
 */
export function makeOpenApiDocument(): OpenApiDocument {
  return {
    openapi: "3.1.0",
    info: { title: "Test API", version: "1.0.0" },
    servers: [{ url: "https://buddy.example/" }],
    components: {
      securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "x-api-key" } },
    },
    tags: [
      { name: "Ads API", description: "Partner ads, ready to paste into an e-mail." },
      { name: "Conversion Tracking", description: "Clicks and the leads they turn into." },
    ],
    paths: {
      "/api/ads": {
        get: {
          tags: ["Ads API"],
          summary: "Get partner ads",
          description: "Random ads of your Buddies. `limit` 1–5.",
          security: [{ apiKey: [] }],
          parameters: [
            {
              in: "query",
              name: "format",
              required: false,
              schema: { type: "string", enum: ["json", "html", "text"], default: "json" },
            },
            {
              in: "query",
              name: "limit",
              required: false,
              schema: { type: "integer", minimum: 1, maximum: 5, default: 1 },
            },
          ],
          responses: {
            "200": { description: "Default Response" },
            "401": { description: "Missing or invalid key" },
          },
        },
      },
      "/api/marketing/conversion": {
        post: {
          tags: ["Conversion Tracking"],
          summary: "Record a conversion (server to server)",
          security: [{ apiKey: [] }],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["clickId", "type"],
                  properties: {
                    clickId: { type: "string", minLength: 1, maxLength: 64 },
                    type: { type: "string", enum: ["signup", "trial", "purchase"] },
                    value: { type: "number", minimum: 0 },
                  },
                },
              },
            },
          },
          responses: {
            "201": { description: "Default Response" },
            "404": { description: "Default Response" },
          },
        },
      },
      "/api/marketing/conversion/{clickId}": {
        get: {
          tags: ["Conversion Tracking"],
          summary: "Conversion pixel (browser, no key)",
          security: [],
          parameters: [
            { in: "query", name: "type", required: false, schema: { type: "string", maxLength: 32 } },
            { in: "path", name: "clickId", required: true, schema: { type: "string", maxLength: 64 } },
          ],
          responses: { "200": { description: "Default Response" } },
        },
      },
      "/api/tracking/click.js": {
        get: {
          tags: ["Conversion Tracking"],
          summary: "Click-tracking script",
          security: [],
          responses: { "200": { description: "Default Response" } },
        },
      },
    },
  };
}
