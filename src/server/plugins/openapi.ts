import swagger from "@fastify/swagger";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { WEBHOOKS_TAG, webhooksDocument } from "./openapi-webhooks";

/** The public API, documented from the routes' own zod schemas so the docs cannot drift. */
const PUBLIC_API = new Set([
  "/api/ads",
  "/api/marketing/conversion",
  "/api/marketing/conversion/:clickId",
  "/api/marketing/redirect",
  "/s/:code",
  "/api/tracking/click.js",
  "/api/tracking/conversion.js",
  "/api/exports/conversions.csv",
  "/api/exports/clicks.csv",
  // Called by Stripe, with the organization's own signing secret (CONTRACT §8).
  "/api/integrations/stripe/webhook/:organizationId",
  // CONTRACT §11: the same protocol from a company's own server, with its API key.
  "/api/overlap",
  "/api/overlap/populations/:population",
  "/api/overlap/partners",
  "/api/overlap/partners/:partnerId",
  "/api/overlap/discoverable",
  "/api/overlap/discovery",
  "/api/overlap/runs",
  "/api/overlap/runs/:id",
  "/api/overlap/runs/:id/answer",
  "/api/overlap/runs/:id/complete",
]);
/** The same paths as OpenAPI writes them (`{clickId}` for `:clickId`). */
const PUBLIC_PATHS = new Set([...PUBLIC_API].map((url) => url.replace(/:(\w+)/g, "{$1}")));

export const API_TAGS = {
  ads: "Ads API",
  conversions: "Conversion Tracking",
  overlap: "Account Overlap",
} as const;

type OpenApiDocument = {
  paths?: Record<string, unknown>;
  webhooks?: Record<string, unknown>;
  components?: { schemas?: Record<string, unknown> } & Record<string, unknown>;
};

/**
 * `app.swagger()` documents every route, dashboard ones included, so tests (the fuzz of every
 * route) can walk all of them; `/api/openapi.json` publishes the public API only.
 */
export async function registerOpenApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Buddy public API",
        version: "1.0.0",
        description:
          "Serve your Buddies' ads into your e-mails and record the leads their links bring you. " +
          "Server-to-server calls send an API key in the x-api-key header; the browser pixel and the " +
          "install scripts need none (a key must never be put in a web page).",
      },
      servers: [{ url: app.config.publicUrl }],
      components: {
        securitySchemes: {
          apiKey: { type: "apiKey", in: "header", name: "x-api-key" },
          bearer: { type: "http", scheme: "bearer", description: "A session token of the dashboard." },
        },
      },
      tags: [
        { name: API_TAGS.ads, description: "Partner ads, ready to paste into an e-mail." },
        { name: API_TAGS.conversions, description: "Clicks on tracked links, and the leads they turn into." },
        {
          name: API_TAGS.overlap,
          description:
            "How many accounts you share with a partner, by private set intersection: your lists stay on " +
            "your side, and Buddy relays only points blinded with a secret you never send.",
        },
        {
          name: WEBHOOKS_TAG,
          description: "What Buddy POSTs to your endpoints when something happens to your company.",
        },
      ],
    },
    transform: jsonSchemaTransform,
  });

  let published: OpenApiDocument | undefined;
  app.get("/api/openapi.json", { config: { access: "public" } }, async () => {
    if (!published) {
      const document = app.swagger() as OpenApiDocument;
      const paths = Object.entries(document.paths ?? {}).filter(([path]) => PUBLIC_PATHS.has(path));
      const { webhooks, schemas } = webhooksDocument();
      published = {
        ...document,
        paths: Object.fromEntries(paths),
        webhooks,
        components: { ...document.components, schemas: { ...document.components?.schemas, ...schemas } },
      };
    }
    return published;
  });
}
